// The local reference service as a Hono app: POST /v1/evaluate and GET /v1/models, exactly as the contract says.
// Owns the service's per-app state (rate-limit buckets, the fault PRNG, the judges) and its routes; the evaluate
// pipeline itself, step by step, is evaluateRoute.ts's, and its replies replies.ts's.
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { MODELS_PATH, DEFAULT_EVALUATE_PATH, SYSTEMONE_PATH } from '../../contract';
import { createKeyChecker } from './auth';
import { createEvaluate, warmServiceSteps } from './evaluateRoute';
import { createFaultInjector } from './faults';
import type { Judge } from './judges';
import { catalogueOf, lexicalJudge } from './judges';
import { RateLimiter } from './limiter';
import { createAnswerFilter } from './perturb';
import type { ReferenceOptions } from './options';
import { resolveReferenceOptions } from './options';
import type { BodyRead, EvaluateCall, EvaluateOutcome, Reply } from './replies';
import { failReply, MAX_BODY_BYTES, serverErrorReply, unauthorizedReply } from './replies';

export type { BodyRead, EvaluateCall, EvaluateOutcome, Reply } from './replies';
export { MAX_BODY_BYTES, serverErrorReply } from './replies';

/** Header carrying a unique id on every response. */
export const REQUEST_ID_HEADER = 'x-request-id';

// A random prefix per process and a counter: unique ids without a UUID (and its formatting) per response.
const idPrefix = randomUUID().replace(/-/g, '').slice(0, 16);
let idCounter = 0;
/** A response's unique id: "req_" and 32 hex digits. */
export const newRequestId = (): string => `req_${idPrefix}${(++idCounter).toString(16).padStart(16, '0')}`;

/** Thrown (in-process) for an injected reset: the caller sees what fetch shows for a dropped connection. */
export class ConnectionResetError extends TypeError {
  readonly code = 'ECONNRESET';
  constructor() {
    super('fetch failed', {
      cause: Object.assign(new Error('socket hang up (injected reset)'), { code: 'ECONNRESET' }),
    });
    this.name = 'TypeError';
  }
}

interface NodeBindings {
  incoming: { socket: { destroy(): void } };
}
const overNode = (env: unknown): env is NodeBindings =>
  typeof env === 'object' &&
  env !== null &&
  'incoming' in env &&
  typeof (env as NodeBindings).incoming?.socket?.destroy === 'function';

// Tells @hono/node-server the response is already dealt with (the socket is gone), so it writes nothing.
const nothingToSend = (): Response => new Response(null, { headers: { 'x-hono-already-sent': 'true' } });

const toResponse = (reply: Reply): Response =>
  new Response(reply.body, { status: reply.status, headers: reply.headers });

/** A JSON error response in the contract's error body. */
const fail = (...args: Parameters<typeof failReply>): Response => toResponse(failReply(...args));

// One decoding rule wherever the body comes from (a socket or the in-process proxy): UTF-8, with a leading byte-order
// mark dropped (RFC 8259 lets a parser ignore it) and invalid bytes read as U+FFFD.
const utf8 = new TextDecoder('utf-8');
/** The body's bytes as text, by that one rule. */
export const decodeBody = (bytes: Uint8Array | ArrayBuffer): string => utf8.decode(bytes);

/** Reads the body as text, refusing more than `max` bytes without reading them all. */
async function readBody(request: Request, max: number): Promise<BodyRead> {
  const declared = request.headers.get('content-length');
  if (declared !== null && !request.headers.has('transfer-encoding')) {
    if (Number(declared) > max) return { ok: false };
    const bytes = await request.arrayBuffer();
    // Catches a body that lies about its length.
    return bytes.byteLength > max ? { ok: false } : { ok: true, text: decodeBody(bytes) };
  }
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return { ok: false };
    }
    chunks.push(value);
  }
  return { ok: true, text: decodeBody(Buffer.concat(chunks)) };
}

/**
 * Creates the reference app. Mount it in-process with `app.fetch(request)` (no network hop) or serve it with
 * serveReference. Each app has its own buckets, in-flight count and fault sequence.
 */
export function createReferenceApp(options: Partial<ReferenceOptions> = {}): Hono {
  return createReference(options).app;
}

/** The reference app and its evaluate route as a plain function, for a transport that skips fetch's Request. */
export function createReference(options: Partial<ReferenceOptions> = {}): {
  app: Hono;
  evaluate(call: EvaluateCall): Promise<EvaluateOutcome>;
} {
  const o = resolveReferenceOptions(options);
  const checkKey = createKeyChecker(o.apiKeys);
  const limiter = new RateLimiter(o.rpm, o.tps, o.now);
  const drawFault = createFaultInjector(o.faults, o.seed);
  const answersOut = createAnswerFilter(o.perturbation, o.seed);
  // The model file's judge first, so its alias is listed first; the lexical judge always answers its own ids.
  const judges: readonly Judge[] = o.modelJudge ? [o.modelJudge, lexicalJudge] : [lexicalJudge];
  // A model judge answers a few requests a second: too few for V8 to optimise the service's own steps, which then ran
  // 30-40x slower than warm (0.4 ms to validate a request). They are warmed once while the model loads.
  const warmed = o.modelJudge ? warmServiceSteps() : Promise.resolve();
  const judgesReady = (): Promise<unknown> => Promise.all([warmed, ...judges.map((j) => j.ready)]);

  const evaluate = createEvaluate({ o, checkKey, limiter, drawFault, answersOut, judges, judgesReady });
  const app = new Hono();

  app.use('*', async (c, next) => {
    const id = newRequestId();
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, id);
  });

  app.get(MODELS_PATH, async (c) => {
    if (!checkKey(c.req.header('authorization'))) return toResponse(unauthorizedReply());
    await judgesReady();
    return c.json({ models: catalogueOf(judges) });
  });

  // The evaluate route under both names: the contract's and `/v1/systemone`, the public name every real server uses
  // (docs/servers.md), so a request copied from any server's documentation runs here unchanged.
  app.on('POST', [DEFAULT_EVALUATE_PATH, SYSTEMONE_PATH], async (c) => {
    const outcome = await evaluate({
      authorization: c.req.header('authorization'),
      readBody: () => readBody(c.req.raw, MAX_BODY_BYTES),
      signal: () => c.req.raw.signal,
    });
    if (outcome.kind === 'reply') return toResponse(outcome);
    // Over Node the socket is dropped (a reset) or already gone; in-process, reject as fetch does.
    if (overNode(c.env)) {
      if (outcome.kind === 'reset') c.env.incoming.socket.destroy();
      return nothingToSend();
    }
    throw outcome.kind === 'reset' ? new ConnectionResetError() : outcome.reason;
  });

  const methodNotAllowed = (allow: string) => (c: Context) =>
    fail(
      405,
      'method_not_allowed',
      `${c.req.method} is not allowed on ${c.req.path}; use ${allow.split(', ')[0]}.`,
      undefined,
      {
        Allow: allow,
      },
    );
  app.all(DEFAULT_EVALUATE_PATH, methodNotAllowed('POST'));
  app.all(SYSTEMONE_PATH, methodNotAllowed('POST'));
  app.all(MODELS_PATH, methodNotAllowed('GET, HEAD'));

  app.notFound((c) =>
    fail(
      404,
      'not_found',
      `There is no route ${c.req.method} ${c.req.path}: this service has POST ${DEFAULT_EVALUATE_PATH} (also ${SYSTEMONE_PATH}) and GET ${MODELS_PATH}.`,
    ),
  );

  app.onError((err, c) => {
    // Connection-level outcomes must reach the in-process caller as rejections, as they would through fetch.
    if (err instanceof ConnectionResetError || c.req.raw.signal.aborted) throw err;
    return toResponse(serverErrorReply(err));
  });

  return { app, evaluate };
}
