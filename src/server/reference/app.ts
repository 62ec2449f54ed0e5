// The local reference service as a Hono app: POST /v1/evaluate and GET /v1/models, exactly as the contract says.
// Owns the service's per-app state: rate-limit buckets, the in-flight count and the fault PRNG.
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { ErrorType, FieldError, Loc } from '../../contract';
import {
  errorBody,
  formatLoc,
  MODELS_PATH,
  DEFAULT_EVALUATE_PATH,
  SYSTEMONE_PATH,
  validateRequestShape,
} from '../../contract';
import { createKeyChecker } from './auth';
import { createFaultInjector } from './faults';
import type { Judge } from './judges';
import { catalogueOf, JudgeRefusal, lexicalJudge, resolveAcross } from './judges';
import { RateLimiter } from './limiter';
import { createAnswerFilter } from './perturb';
import { nestingError } from './nesting';
import type { ReferenceOptions } from './options';
import { resolveReferenceOptions } from './options';
import { countRequestTokens, tokenLimitErrors } from './usage';

/** Largest request body accepted; 2 MB is far above the 64k-token limit in any sane encoding. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

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

type Json = Record<string, unknown>;

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

const retryHeaders = (ms: number): Record<string, string> =>
  ms > 0 ? { 'retry-after-ms': String(ms), 'Retry-After': String(Math.ceil(ms / 1000)) } : {};

/** What the evaluate route answers, before any transport turns it into a response. */
export interface Reply {
  kind: 'reply';
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * What the evaluate route decided: a reply, a dropped connection (an injected reset), or nothing to send because the
 * caller went away (with the reason an in-process caller is rejected with).
 */
export type EvaluateOutcome = Reply | { kind: 'reset' } | { kind: 'gone'; reason: unknown };

/** One call of the evaluate route, whatever carries it (a fetch Request, or node:http's request directly). */
export interface EvaluateCall {
  authorization: string | undefined;
  readBody(): Promise<BodyRead>;
  /** The caller's abort signal, made on first use: most requests never need it, and it costs to make. */
  signal(): AbortSignal;
}

const JSON_HEADERS = { 'Content-Type': 'application/json' } as const;

/** A JSON reply in the contract's error body. */
function failReply(
  status: number,
  type: ErrorType,
  message: string,
  errors?: FieldError[],
  headers?: Record<string, string>,
): Reply {
  return {
    kind: 'reply',
    status,
    headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS,
    body: JSON.stringify(errorBody(type, message, errors)),
  };
}

const toResponse = (reply: Reply): Response =>
  new Response(reply.body, { status: reply.status, headers: reply.headers });

/** A JSON error response in the contract's error body. */
const fail = (...args: Parameters<typeof failReply>): Response => toResponse(failReply(...args));

/** The error reply of an unexpected failure, said the same way by every transport. */
export function serverErrorReply(err: unknown): Reply {
  console.error('reference: unexpected error', err);
  return failReply(500, 'server_error', 'The reference service hit an unexpected error.');
}

function validationMessage(errors: FieldError[]): string {
  const first = errors[0];
  if (!first) return 'The request failed validation.';
  const where = first.loc.length ? formatLoc(first.loc) : 'the body';
  const msg = first.msg.replace(/\.$/, '');
  return errors.length === 1
    ? `The request failed validation at ${where}: ${msg}.`
    : `The request failed validation in ${errors.length} places; the first is ${where}: ${msg}.`;
}

/**
 * Keys a plain object cannot hold as data: parsing a record would turn "__proto__" into a prototype and drop the entry,
 * so a question or label of that name would go silently unanswered. Refused instead, where they are.
 */
function reservedKeyErrors(value: unknown): FieldError[] {
  const errors: FieldError[] = [];
  // One path, pushed and popped on the way down: a location is copied only for a key that is refused.
  const path: Loc = [];
  const walk = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        walk(v[i]);
        path.pop();
      }
      return;
    }
    for (const key of Object.keys(v)) {
      path.push(key);
      if (key === '__proto__')
        errors.push({ loc: [...path], msg: 'The name "__proto__" is reserved: rename this key.' });
      else walk((v as Json)[key]);
      path.pop();
    }
  };
  walk(value);
  return errors;
}

export type BodyRead = { ok: true; text: string } | { ok: false };

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

/** Rounds of the service's own steps run before a model judge's first request (about 50 ms in all). */
const WARM_ROUNDS = 300;
/** A sample request for the warm-up: every question type, a state of a few sentences. */
const WARM_BODY = JSON.stringify({
  state: 'The refund for order 4471 never came; I was charged twice and nobody answers. Please help today.',
  model: 'model-latest',
  questions: {
    urgent: { type: 'noul', instructions: 'Is the customer asking for fast help?' },
    topic: {
      type: 'choice',
      instructions: 'What is the message about?',
      criteria: { billing: 'Charges and refunds', technical: 'Errors', other: 'Anything else' },
    },
    tone: {
      type: 'score',
      instructions: 'How upset is the customer?',
      criteria: ['Calm', 'Annoyed', 'Angry'],
    },
  },
});

/**
 * Runs validation and token counting on a sample request, varied each round, without keeping anything in the caches
 * (counts are remembered only for served requests).
 */
async function warmServiceSteps(): Promise<void> {
  for (let i = 0; i < WARM_ROUNDS; i++) {
    const body: unknown = JSON.parse(WARM_BODY.replace('4471', String(i)));
    nestingError(body);
    reservedKeyErrors(body);
    const shape = validateRequestShape(body);
    if (shape.ok) await countRequestTokens(shape.value);
  }
}

/** Waits `ms`, or less if `signal` aborts; says whether the wait ran to its end. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
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
  let inflight = 0;
  // The model file's judge first, so its alias is listed first; the lexical judge always answers its own ids.
  const judges: readonly Judge[] = o.modelJudge ? [o.modelJudge, lexicalJudge] : [lexicalJudge];
  // A model judge answers a few requests a second: too few for V8 to optimise the service's own steps, which then ran
  // 30-40x slower than warm (0.4 ms to validate a request). They are warmed once while the model loads.
  const warmed = o.modelJudge ? warmServiceSteps() : Promise.resolve();
  const judgesReady = (): Promise<unknown> => Promise.all([warmed, ...judges.map((j) => j.ready)]);

  const app = new Hono();

  app.use('*', async (c, next) => {
    const id = newRequestId();
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, id);
  });

  const unauthorizedReply = (): Reply =>
    failReply(
      401,
      'authentication_error',
      'The API key is missing or wrong: send the header "Authorization: Bearer <key>".',
      undefined,
      {
        'WWW-Authenticate': 'Bearer',
      },
    );

  app.get(MODELS_PATH, async (c) => {
    if (!checkKey(c.req.header('authorization'))) return toResponse(unauthorizedReply());
    await judgesReady();
    return c.json({ models: catalogueOf(judges) });
  });

  /** The evaluate route itself, free of any transport: the Hono route below and serveReference's node path call it. */
  const evaluate = async (call: EvaluateCall): Promise<EvaluateOutcome> => {
    const key = checkKey(call.authorization);
    if (!key) return unauthorizedReply();

    const body = await call.readBody();
    if (!body.ok) {
      return failReply(
        413,
        'payload_too_large',
        `The request body is larger than ${MAX_BODY_BYTES} bytes (2 MB).`,
      );
    }
    if (body.text.trim() === '') {
      const errors = [{ loc: [], msg: 'The body is empty: send an evaluation request as JSON.' }];
      return failReply(
        422,
        'invalid_request',
        'The request body is empty: send an evaluation request as JSON.',
        errors,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch (e) {
      const why = (e as Error).message;
      const msg = `The request body is not valid JSON (${why}); send an evaluation request as JSON.`;
      return failReply(422, 'invalid_request', msg, [{ loc: [], msg }]);
    }

    // Before anything that recurses over the body: a nesting error is the only error reported for such a body.
    const tooDeep = nestingError(parsed);
    if (tooDeep) return failReply(422, 'invalid_request', validationMessage([tooDeep]), [tooDeep]);

    const shape = validateRequestShape(parsed);
    const errors: FieldError[] = [...reservedKeyErrors(parsed), ...(shape.ok ? [] : shape.errors)];
    const model = (parsed as Json | null)?.model;
    if (o.modelJudge) await judgesReady();
    const resolved = typeof model === 'string' && model !== '' ? resolveAcross(judges, model) : null;
    if (resolved && !resolved.ok && !errors.some((e) => e.loc.length === 1 && e.loc[0] === 'model'))
      errors.push(resolved.error);
    if (!shape.ok || errors.length > 0 || !resolved?.ok) {
      return failReply(422, 'invalid_request', validationMessage(errors), errors);
    }
    const request = shape.value;

    const counted = await countRequestTokens(request);
    const { tokens } = counted;
    const limitErrors = tokenLimitErrors(tokens, counted.partial);
    if (limitErrors.length)
      return failReply(422, 'invalid_request', validationMessage(limitErrors), limitErrors);

    // Faults are drawn only for valid requests, so a 422 stays a 422 and the fault sequence follows valid traffic.
    const draw = drawFault();
    if (draw.fault === '429') {
      return failReply(
        429,
        'rate_limit',
        'Too many requests (injected by REFERENCE_FAULTS); retry with backoff.',
        undefined,
        retryHeaders(o.faultRetryAfterMs),
      );
    }
    if (draw.fault === '529') {
      return failReply(
        529,
        'overloaded',
        'The service is overloaded (injected by REFERENCE_FAULTS); retry with backoff.',
        undefined,
        retryHeaders(o.faultRetryAfterMs),
      );
    }

    // An overloaded service turns the request away before it spends any of the key's budget.
    if (inflight >= o.maxInflight) {
      return failReply(
        529,
        'overloaded',
        `The service is overloaded: ${inflight} evaluations are in flight (limit ${o.maxInflight}); retry with backoff.`,
        undefined,
        retryHeaders(o.faultRetryAfterMs),
      );
    }
    const admission = limiter.admit(key, tokens.total);
    if (!admission.ok) {
      const wait = `retry after ${admission.retryAfterMs} ms`;
      const message =
        admission.limit === 'requests'
          ? `Too many requests for this key: the limit is ${o.rpm} requests per minute; ${wait}.`
          : `This key's input-token budget (${o.tps} tokens per second) is spent for a request of ${tokens.total} tokens; ${wait}.`;
      return failReply(429, 'rate_limit', message, undefined, retryHeaders(admission.retryAfterMs));
    }
    // Only what is served is remembered: refused requests leave no trace in the caches.
    counted.remember();

    inflight++;
    try {
      if (draw.fault === 'reset') {
        return { kind: 'reset' };
      }
      const held = draw.fault === 'timeout' ? o.timeoutHoldMs : 0;
      // The signal is made only here: making it costs on every request.
      const signal = held + draw.latencyMs > 0 ? call.signal() : null;
      if (signal && !(await pause(held + draw.latencyMs, signal))) {
        // The caller gave up: nothing to send, and an in-process caller is rejected as fetch does on abort.
        return {
          kind: 'gone',
          reason: signal.reason ?? new DOMException('The operation was aborted.', 'AbortError'),
        };
      }
      // A model judge can be cancelled mid-evaluation, so it gets the caller's signal; the lexical judge is instant.
      const judgeSignal = resolved.judge === lexicalJudge ? null : call.signal();
      let answers;
      try {
        answers = answersOut(request, await resolved.judge.answer(request, resolved.id, judgeSignal));
      } catch (e) {
        if (e instanceof JudgeRefusal) return failReply(422, 'invalid_request', e.message, e.errors);
        if (judgeSignal?.aborted) return { kind: 'gone', reason: e };
        throw e;
      }
      return {
        kind: 'reply',
        status: 200,
        headers: JSON_HEADERS,
        body: JSON.stringify({
          model: resolved.id,
          answers,
          usage: { input_tokens: tokens.total, output_tokens: 0 },
        }),
      };
    } finally {
      inflight--;
    }
  };

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
