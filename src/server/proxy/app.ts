// The proxy's routes: the target list, and each target's evaluate and models routes. Nothing else answers under /api.
// Relaying a request is relay.ts's, answering the browser answers.ts's.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { TargetCheckRequestSchema } from '../../contract';
import { checkTarget } from '../targets/check';
import type { Logger } from './log';
import { redact } from './log';
import { checkWorkbenchHeader, WORKBENCH_HEADER } from './security';
import type { HostPolicy } from './security';
import { targetInfo, targetSecrets } from '../targets/target';
import type { ProxyTarget } from '../targets/target';

import type { ProxyContext, ProxyErrorType } from './answers';
import { API_HEADERS, proxyError, redactBody } from './answers';
import { readLimitedBody, relay } from './relay';

export type { ProxyErrorType } from './answers';
export { proxyError, redactBody } from './answers';
export { readLimitedBody } from './relay';

export interface ProxyAppOptions {
  targets: readonly ProxyTarget[];
  hostPolicy: HostPolicy;
  /** How long to wait for a target's whole answer before answering 504. */
  upstreamTimeoutMs: number;
  /** Largest accepted request body in bytes; larger bodies get 413 and are never sent on. */
  bodyLimitBytes: number;
  logger: Logger;
  /** Entries of the targets file that were skipped, each with its sentence: GET /api/targets lists them. */
  targetProblems?: readonly string[];
}

const parseJsonOrNull = (body: Buffer<ArrayBuffer>): unknown => {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return null;
  }
};

/** The target check: a few small requests with the key, reported as sentences (redacted like any answer). */
async function checkRoute({ byId, logger, secrets }: ProxyContext, c: Context): Promise<Response> {
  const id = c.req.param('id') ?? '';
  const target = byId.get(id);
  if (!target) return proxyError(404, 'not_found', `This workbench has no target "${id}".`);
  const read = await readLimitedBody(c.req.raw, 4096);
  const request = TargetCheckRequestSchema.safeParse(
    read && read.byteLength > 0 ? parseJsonOrNull(read) : {},
  );
  if (!request.success) {
    return proxyError(422, 'invalid_request', 'A check takes {"model": "<id>"} or an empty body.');
  }
  const report = await checkTarget(target, request.data.model);
  logger.info(`[proxy] ${target.id}: checked (${report.findings.length} findings).`);
  return new Response(redactBody(Buffer.from(JSON.stringify(report), 'utf8'), secrets), {
    headers: API_HEADERS,
  });
}

/** The Hono app of the proxy; mount it at the root of the workbench server. */
export function createProxyApp(options: ProxyAppOptions): Hono {
  const { hostPolicy, logger, upstreamTimeoutMs, bodyLimitBytes } = options;
  const byId = new Map(options.targets.map((t) => [t.id, t]));
  const infos = options.targets.map(targetInfo);
  const secrets = options.targets.flatMap(targetSecrets);
  // Every message the proxy writes itself passes the same redaction as forwarded bodies.
  const refuse = (
    status: number,
    errorType: ProxyErrorType,
    message: string,
    headers?: Record<string, string>,
  ) => proxyError(status, errorType, redact(message, secrets), headers);
  const ctx: ProxyContext = { byId, secrets, logger, upstreamTimeoutMs, bodyLimitBytes, refuse };
  const app = new Hono();

  app.use('/api/*', async (c, next) => {
    const refusal =
      hostPolicy.checkHost(c.req.header('host')) ??
      hostPolicy.checkOrigin(c.req.header('origin'), c.req.header('sec-fetch-site')) ??
      checkWorkbenchHeader(c.req.header(WORKBENCH_HEADER));
    if (refusal) {
      logger.warn(`[proxy] refused ${c.req.method} ${c.req.path}: ${refusal.message}`);
      return refuse(refusal.status, 'forbidden', refusal.message);
    }
    await next();
  });

  const targetList = JSON.stringify({ targets: infos, problems: options.targetProblems ?? [] });
  app.get('/api/targets', () => new Response(targetList, { headers: API_HEADERS }));

  app.post('/api/targets/:id/check', (c) => checkRoute(ctx, c));
  app.all('/api/targets/:id/check', () =>
    proxyError(405, 'method_not_allowed', 'The check route takes POST only.', { allow: 'POST' }),
  );
  app.post('/api/targets/:id/v1/evaluate', (c) => relay(ctx, c, 'evaluate'));
  app.get('/api/targets/:id/v1/models', (c) => relay(ctx, c, 'models'));
  app.all('/api/targets/:id/v1/evaluate', () =>
    proxyError(405, 'method_not_allowed', 'The evaluate route takes POST only.', { allow: 'POST' }),
  );
  app.all('/api/targets/:id/v1/models', () =>
    proxyError(405, 'method_not_allowed', 'The models route takes GET only.', { allow: 'GET, HEAD' }),
  );
  app.all('/api/targets', () =>
    proxyError(405, 'method_not_allowed', 'The target list takes GET only.', { allow: 'GET, HEAD' }),
  );
  app.all('/api/*', (c) =>
    refuse(
      404,
      'not_found',
      `${c.req.path} is not a route of this workbench; the proxy serves /api/targets and /api/targets/<id>/v1/evaluate, /v1/models and /check.`,
    ),
  );
  // A browser that leaves mid-body, or anything unforeseen: one redacted line in the log, never a raw stack.
  app.onError((error, c) => {
    const gone = c.req.raw.signal.aborted || (error as { code?: string }).code === 'ECONNRESET';
    logger.warn(`[proxy] ${c.req.method} ${c.req.path} failed: ${error.message}`);
    return gone
      ? new Response(null, { status: 499 })
      : refuse(
          500,
          'server_error',
          'The workbench server hit an unexpected error; the request was not sent on.',
        );
  });
  return app;
}
