// The workbench server's own API, as the browser sees it: the target list and the proxy route of each target.
import { DEFAULT_EVALUATE_PATH, TargetCheckReportSchema, TargetListSchema } from '../contract';
import type { TargetCheckReport, TargetInfo } from '../contract';
import { getJson, postJson } from './evaluate';
import type { CallOptions } from './evaluate';
import type { ClientTarget } from './target';

/** The header the proxy requires on every /api request, and its one accepted value. */
export const WORKBENCH_REQUEST_HEADER = 'X-Workbench-Request';
export const WORKBENCH_REQUEST_VALUE = '1';

// The target list's schema lives in the contract: the proxy, the app and the command line read one description.
export { TargetInfoSchema, TargetKindSchema, TargetListSchema } from '../contract';
export type { TargetInfo, TargetKind, TargetList } from '../contract';

const workbenchHeaders = { [WORKBENCH_REQUEST_HEADER]: WORKBENCH_REQUEST_VALUE };

/**
 * The client target for one of the proxy's targets. `origin` is empty in the browser (same origin) and the server's
 * URL in Node. The proxy's evaluate route is always /v1/evaluate; it forwards to the target's own evaluate path.
 */
export function proxyClientTarget(id: string, origin = '', transport?: typeof fetch): ClientTarget {
  return {
    baseUrl: `${origin.replace(/\/+$/, '')}/api/targets/${encodeURIComponent(id)}`,
    headers: workbenchHeaders,
    evaluatePath: DEFAULT_EVALUATE_PATH,
    ...(transport ? { fetch: transport } : {}),
  };
}

/** Lists the targets the workbench server offers: GET /api/targets. */
export async function listTargets(
  options: CallOptions & { origin?: string; fetch?: typeof fetch } = {},
): Promise<TargetInfo[]> {
  const { origin = '', fetch: transport, ...call } = options;
  const server: ClientTarget = {
    baseUrl: `${origin.replace(/\/+$/, '')}/api`,
    headers: workbenchHeaders,
    ...(transport ? { fetch: transport } : {}),
  };
  const result = await getJson(server, '/targets', TargetListSchema, call);
  return result.data.targets;
}

/** Why entries of the workbench's targets file were skipped (GET /api/targets), one sentence each. */
export async function listTargetProblems(options: CallOptions = {}): Promise<string[]> {
  const server: ClientTarget = { baseUrl: '/api', headers: workbenchHeaders };
  const result = await getJson(server, '/targets', TargetListSchema, options);
  return result.data.problems;
}

/**
 * Checks a target through the proxy: POST /api/targets/<id>/check, which lists its models and sends one small request
 * per question type with `model` (default: the first listed). Never retried: each attempt spends a few tokens.
 */
export async function checkTarget(
  id: string,
  model: string | undefined,
  options: CallOptions & { origin?: string; fetch?: typeof fetch } = {},
): Promise<TargetCheckReport> {
  const { origin = '', fetch: transport, ...call } = options;
  const server: ClientTarget = {
    baseUrl: `${origin.replace(/\/+$/, '')}/api/targets/${encodeURIComponent(id)}`,
    headers: workbenchHeaders,
    ...(transport ? { fetch: transport } : {}),
  };
  // Five upstream requests in a row may take a while on a slow server: a minute, not the evaluate default.
  const result = await postJson(server, '/check', model ? { model } : {}, TargetCheckReportSchema, {
    timeoutMs: 90_000,
    ...call,
    maxRetries: 0,
  });
  return result.data;
}
