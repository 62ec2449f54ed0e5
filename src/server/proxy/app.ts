// The proxy's routes: the target list, and each target's evaluate and models routes. Nothing else answers under /api.
import type { HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { MODELS_PATH, TargetCheckRequestSchema } from '../../contract';
import { checkTarget } from '../targets/check';
import { prepareEvaluate, readEvaluate } from '../targets/dialect';
import { browserHeaders, forward, upstreamHeaders } from '../targets/forward';
import type { ForwardOutcome } from '../targets/forward';
import type { Logger } from './log';
import { redact, redactBytes, REDACTED } from './log';
import { normalizeModelList } from './normalize';
import { checkWorkbenchHeader, WORKBENCH_HEADER } from './security';
import type { HostPolicy } from './security';
import { targetInfo, targetSecrets } from '../targets/target';
import type { ProxyTarget } from '../targets/target';
import { Cancellation } from '../targets/transport';
import { proxyRequestId, upstreamFailure } from '../targets/answers';

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

/** The error types of the proxy's own answers, in the reference service's body shape. */
export type ProxyErrorType =
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'bad_gateway'
  | 'gateway_timeout'
  | 'server_error'
  | 'key_missing'
  | 'no_model_list'
  | 'invalid_request';

/** Headers of every JSON answer the proxy makes itself. */
const API_HEADERS = {
  'content-type': 'application/json',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/** An answer the proxy makes itself: JSON, one sentence, never cached. */
export function proxyError(
  status: number,
  errorType: ProxyErrorType,
  message: string,
  headers?: Record<string, string>,
): Response {
  return new Response(JSON.stringify({ detail: { error_type: errorType, message } }), {
    status,
    // Its own id, so a refusal can be found in the server's log like any upstream answer.
    headers: { ...API_HEADERS, 'x-request-id': proxyRequestId(), ...headers },
  });
}

/**
 * Reads a request body up to `limit` bytes; null when it is larger. A declared Content-Length is checked before
 * anything is read (Node's parser holds the body to it); a chunked body is counted as it streams and cut off.
 */
export async function readLimitedBody(request: Request, limit: number): Promise<Buffer<ArrayBuffer> | null> {
  const declared = request.headers.get('content-length');
  if (declared !== null && !request.headers.has('transfer-encoding')) {
    if (Number(declared) > limit) return null;
    return Buffer.from(await request.arrayBuffer());
  }
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

const parseJsonOrNull = (body: Buffer<ArrayBuffer>): unknown => {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return null;
  }
};

/** The body with every secret replaced, or the same buffer when none occurs (the usual case: no copy). */
export const redactBody = (body: Buffer<ArrayBuffer>, secrets: readonly string[]): Buffer<ArrayBuffer> =>
  redactBytes(body, secrets);

/**
 * Calls `onLeave` if the browser's connection closes before the answer is sent; returns the function that stops
 * watching. Over Node it listens on the response's socket (no AbortSignal to create); elsewhere on the request signal.
 */
function whenBrowserLeaves(c: Context, onLeave: () => void): () => void {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  if (outgoing) {
    outgoing.once('close', onLeave);
    return () => outgoing.off('close', onLeave);
  }
  const signal = c.req.raw.signal;
  signal.addEventListener('abort', onLeave, { once: true });
  return () => signal.removeEventListener('abort', onLeave);
}

const formatBytes = (n: number): string =>
  n >= 1024 * 1024
    ? `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`
    : `${Math.round(n / 1024)} KiB`;

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

  const relay = async (c: Context, route: 'evaluate' | 'models'): Promise<Response> => {
    const id = c.req.param('id') ?? '';
    const target = byId.get(id);
    if (!target) {
      const known = [...byId.keys()].join(', ');
      return refuse(404, 'not_found', `This workbench has no target "${id}"; it has: ${known}.`);
    }
    if (target.keyMissing !== null) {
      // 401, as for a wrong key: never retried, and a file run stops on it. Nothing is sent without the key.
      const variable = target.description.keyVar ?? '';
      return refuse(
        401,
        'key_missing',
        `The ${target.id} target has no key: set ${variable} in .env.local (or the shell) and restart the workbench server.`,
      );
    }
    const modelsPath = target.description.modelsPath;
    if (route === 'models' && modelsPath === null) {
      return refuse(
        404,
        'no_model_list',
        `The ${target.id} target offers no model list; type the model id its server documents.`,
      );
    }
    let body: Buffer<ArrayBuffer> | undefined;
    let path = MODELS_PATH;
    // The body as the browser wrote it (the interface's form), to read the target's answer against.
    let asWritten: Buffer<ArrayBuffer> | undefined;
    if (route === 'evaluate') {
      const read = await readLimitedBody(c.req.raw, bodyLimitBytes);
      if (read === null) {
        const limit = formatBytes(bodyLimitBytes);
        logger.warn(`[proxy] ${target.id}: refused a request body over ${limit}.`);
        return refuse(
          413,
          'payload_too_large',
          `The request body is over the proxy's ${limit} limit; send a smaller state.`,
        );
      }
      // Translated for a target of another dialect, envelope or model-in-path; sent as it is otherwise.
      const prepared = prepareEvaluate(target, read);
      if (!prepared.ok)
        return new Response(JSON.stringify(prepared.body), { status: prepared.status, headers: API_HEADERS });
      asWritten = read;
      body = prepared.body;
      path = prepared.path;
    }
    if (route === 'models') path = modelsPath ?? MODELS_PATH;
    const method = route === 'evaluate' ? 'POST' : 'GET';
    const cancellation = new Cancellation();
    const stopWhenBrowserLeaves = whenBrowserLeaves(c, () => cancellation.cancel());
    try {
      const outcome = await forward(target, {
        method,
        path,
        headers: upstreamHeaders(c.req.raw.headers, target),
        body,
        timeoutMs: upstreamTimeoutMs,
        cancellation,
      });
      if (route === 'models' && outcome.type === 'response' && outcome.status === 200) {
        return answer(target, `${method} ${path}`, { ...outcome, body: normalizeModelList(outcome.body) });
      }
      const read = asWritten ? readEvaluate(target, outcome, asWritten, logger) : outcome;
      return answer(target, `${method} ${path}`, read);
    } finally {
      stopWhenBrowserLeaves();
    }
  };

  const answer = (target: ProxyTarget, what: string, outcome: ForwardOutcome): Response => {
    const where = `the ${target.id} target (${target.host})`;
    switch (outcome.type) {
      case 'response': {
        const headers = browserHeaders(outcome.headers);
        headers['cache-control'] = 'no-store';
        headers['x-content-type-options'] = 'nosniff';
        for (const [name, value] of Object.entries(headers)) {
          if (secrets.some((s) => s !== '' && value.includes(s))) headers[name] = REDACTED;
        }
        const body = redactBody(outcome.body, secrets);
        if (body !== outcome.body)
          logger.warn(`[proxy] ${target.id}: the answer to ${what} held a key; it was redacted.`);
        if (outcome.status === 401 || outcome.status === 403 || outcome.status >= 500) {
          const id = outcome.headers['x-request-id'];
          logger.warn(
            `[proxy] ${target.id}: ${what} -> ${outcome.status}${id ? ` (x-request-id ${id})` : ''}`,
          );
        }
        return new Response(body.byteLength === 0 ? null : body, { status: outcome.status, headers });
      }
      case 'timeout': {
        const seconds = Number((outcome.timeoutMs / 1000).toFixed(3));
        logger.error(`[proxy] ${target.id}: ${what} got no answer within ${seconds} s.`);
        return refuse(
          504,
          'gateway_timeout',
          `No answer came from ${where} within ${seconds} s; the evaluation may have run and been billed, so treat it as unknown.`,
        );
      }
      case 'redirect': {
        const to =
          outcome.location && URL.canParse(outcome.location)
            ? new URL(outcome.location).host
            : 'another address';
        logger.error(
          `[proxy] ${target.id}: ${what} was redirected (${outcome.status}) to ${to}; not followed.`,
        );
        return refuse(
          502,
          'bad_gateway',
          `${where} answered with a redirect (${outcome.status}) to ${to}; the proxy does not follow redirects with a key, so set the target's URL to the final address.`,
        );
      }
      case 'unreachable':
        logger.error(
          `[proxy] ${target.id}: ${what} failed${outcome.sent ? ' after the request was sent' : ''}: ${outcome.detail}`,
        );
        return refuse(
          502,
          'bad_gateway',
          outcome.sent
            ? `The connection to ${where} was dropped after the request was sent (${outcome.detail})${what.startsWith('POST') ? '; the evaluation may have run and been billed' : ''}.`
            : `Could not reach ${where} (${outcome.detail}); check its URL and that the service is up.`,
        );
      case 'failed': {
        const message = upstreamFailure(where, outcome);
        logger.error(`[proxy] ${target.id}: ${what}: ${message}`);
        return refuse(502, 'bad_gateway', message);
      }
      case 'cancelled':
        // The browser went away: nobody reads this answer.
        return new Response(null, { status: 499 });
    }
  };

  // The target check: a few small requests with the key, reported as sentences (redacted like any answer).
  app.post('/api/targets/:id/check', async (c) => {
    const id = c.req.param('id');
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
  });
  app.all('/api/targets/:id/check', () =>
    proxyError(405, 'method_not_allowed', 'The check route takes POST only.', { allow: 'POST' }),
  );
  app.post('/api/targets/:id/v1/evaluate', (c) => relay(c, 'evaluate'));
  app.get('/api/targets/:id/v1/models', (c) => relay(c, 'models'));
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
