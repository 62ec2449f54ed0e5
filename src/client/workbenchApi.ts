// The workbench server's own API, as the browser sees it: the target list and the proxy route of each target.
import { z } from 'zod';
import { DEFAULT_EVALUATE_PATH, TargetLimitsSchema, WIRE_DIALECTS, WIRE_ENVELOPES } from '../contract';
import { getJson } from './evaluate';
import type { CallOptions } from './evaluate';
import type { ClientTarget } from './target';

/** The header the proxy requires on every /api request, and its one accepted value. */
export const WORKBENCH_REQUEST_HEADER = 'X-Workbench-Request';
export const WORKBENCH_REQUEST_VALUE = '1';

export const TargetKindSchema = z.enum(['local', 'direct', 'gateway']);
export type TargetKind = z.infer<typeof TargetKindSchema>;

/** One target the proxy offers. Never a key or a full URL: the host alone. */
export const TargetInfoSchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]*$/),
  label: z.string().min(1),
  kind: TargetKindSchema,
  /** The upstream's host and port, or "in-process" for the local reference. */
  host: z.string(),
  /** The path the target's evaluate route forwards to upstream. */
  evaluatePath: z.string(),
  /** The local target's model file (REFERENCE_MODEL_FILE) and its alias; absent when only the lexical judge answers. */
  modelFile: z.object({ fileName: z.string().min(1), alias: z.string().min(1) }).optional(),
  /** The target's request dialect and envelope; the proxy translates, the page always speaks the interface. */
  dialect: z.enum(WIRE_DIALECTS).optional(),
  envelope: z.enum(WIRE_ENVELOPES).optional(),
  /** The target's own limits, used by the editor's checks and the rows runner. */
  limits: TargetLimitsSchema.optional(),
});
export type TargetInfo = z.infer<typeof TargetInfoSchema>;

export const TargetListSchema = z.object({ targets: z.array(TargetInfoSchema) });
export type TargetList = z.infer<typeof TargetListSchema>;

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
