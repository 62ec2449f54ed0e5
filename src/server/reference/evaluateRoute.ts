// The reference's evaluate pipeline, free of any transport: the key is checked, the body read and parsed, the request
// validated and its model resolved, its tokens counted against the limits, the faults drawn, the service's load and the
// key's budget admit it, and the judge answers. Each step returns the reply that ends the call, or what the next needs.
import type { EvaluateRequest, FieldError, Loc } from '../../contract';
import { validateRequestShape } from '../../contract';
import type { createFaultInjector, FaultDraw } from './faults';
import type { Judge, JudgeResolution } from './judges';
import { JudgeRefusal, lexicalJudge, resolveAcross } from './judges';
import type { RateLimiter } from './limiter';
import { nestingError } from './nesting';
import type { ReferenceOptions } from './options';
import type { AnswerFilter } from './perturb';
import type { BodyRead, EvaluateCall, EvaluateOutcome, Reply } from './replies';
import {
  failReply,
  JSON_HEADERS,
  MAX_BODY_BYTES,
  retryHeaders,
  unauthorizedReply,
  validationMessage,
} from './replies';
import type { CountedRequest } from './usage';
import { countRequestTokens, tokenLimitErrors } from './usage';

type Json = Record<string, unknown>;

/** What the pipeline is handed: the service's options and its per-app parts. */
export interface EvaluateParts {
  o: ReferenceOptions;
  checkKey(authorization: string | undefined): string | null;
  limiter: RateLimiter;
  drawFault: ReturnType<typeof createFaultInjector>;
  answersOut: AnswerFilter;
  judges: readonly Judge[];
  judgesReady(): Promise<unknown>;
}

/** A request that passed validation: the request, the judge that answers its model, its counted tokens. */
interface Valid {
  kind: 'valid';
  request: EvaluateRequest;
  resolved: Extract<JudgeResolution, { ok: true }>;
  counted: CountedRequest;
}

/** The evaluate route as a plain function over these parts; it owns the count of evaluations in flight. */
export function createEvaluate(parts: EvaluateParts): (call: EvaluateCall) => Promise<EvaluateOutcome> {
  const load = { inflight: 0 };
  return async (call) => {
    const key = parts.checkKey(call.authorization);
    if (!key) return unauthorizedReply();
    const parsed = parseBody(await call.readBody());
    if (parsed.kind === 'reply') return parsed;
    const valid = await validateRequest(parts, parsed.value);
    if (valid.kind === 'reply') return valid;
    // Faults are drawn only for valid requests, so a 422 stays a 422 and the fault sequence follows valid traffic.
    const draw = parts.drawFault();
    const refused = admission(parts, draw, load.inflight, key, valid.counted.tokens.total);
    if (refused) return refused;
    // Only what is served is remembered: refused requests leave no trace in the caches.
    valid.counted.remember();
    load.inflight++;
    try {
      return await answer(parts, call, draw, valid);
    } finally {
      load.inflight--;
    }
  };
}

/** The body as JSON: refused when too large, empty or not JSON, or nested deeper than any request. */
function parseBody(body: BodyRead): Reply | { kind: 'parsed'; value: unknown } {
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
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch (e) {
    const why = (e as Error).message;
    const msg = `The request body is not valid JSON (${why}); send an evaluation request as JSON.`;
    return failReply(422, 'invalid_request', msg, [{ loc: [], msg }]);
  }
  // Before anything that recurses over the body: a nesting error is the only error reported for such a body.
  const tooDeep = nestingError(value);
  if (tooDeep) return failReply(422, 'invalid_request', validationMessage([tooDeep]), [tooDeep]);
  return { kind: 'parsed', value };
}

/** The request checked against the contract, its model resolved to a judge, and its tokens within the limits. */
async function validateRequest(parts: EvaluateParts, parsed: unknown): Promise<Reply | Valid> {
  const shape = validateRequestShape(parsed);
  const errors: FieldError[] = [...reservedKeyErrors(parsed), ...(shape.ok ? [] : shape.errors)];
  const model = (parsed as Json | null)?.model;
  if (parts.o.modelJudge) await parts.judgesReady();
  const resolved = typeof model === 'string' && model !== '' ? resolveAcross(parts.judges, model) : null;
  if (resolved && !resolved.ok && !errors.some((e) => e.loc.length === 1 && e.loc[0] === 'model'))
    errors.push(resolved.error);
  if (!shape.ok || errors.length > 0 || !resolved?.ok) {
    return failReply(422, 'invalid_request', validationMessage(errors), errors);
  }
  const counted = await countRequestTokens(shape.value);
  const limitErrors = tokenLimitErrors(counted.tokens, counted.partial);
  if (limitErrors.length)
    return failReply(422, 'invalid_request', validationMessage(limitErrors), limitErrors);
  return { kind: 'valid', request: shape.value, resolved, counted };
}

/** The refusal of a valid request, if any: an injected 429 or 529, too many in flight, or the key's budget spent. */
function admission(
  parts: EvaluateParts,
  draw: FaultDraw,
  inflight: number,
  key: string,
  tokens: number,
): Reply | null {
  const { o } = parts;
  if (draw.fault === '429') {
    const msg = 'Too many requests (injected by REFERENCE_FAULTS); retry with backoff.';
    return failReply(429, 'rate_limit', msg, undefined, retryHeaders(o.faultRetryAfterMs));
  }
  if (draw.fault === '529') {
    const msg = 'The service is overloaded (injected by REFERENCE_FAULTS); retry with backoff.';
    return failReply(529, 'overloaded', msg, undefined, retryHeaders(o.faultRetryAfterMs));
  }
  // An overloaded service turns the request away before it spends any of the key's budget.
  if (inflight >= o.maxInflight) {
    const msg = `The service is overloaded: ${inflight} evaluations are in flight (limit ${o.maxInflight}); retry with backoff.`;
    return failReply(529, 'overloaded', msg, undefined, retryHeaders(o.faultRetryAfterMs));
  }
  const admitted = parts.limiter.admit(key, tokens);
  if (admitted.ok) return null;
  const wait = `retry after ${admitted.retryAfterMs} ms`;
  const message =
    admitted.limit === 'requests'
      ? `Too many requests for this key: the limit is ${o.rpm} requests per minute; ${wait}.`
      : `This key's input-token budget (${o.tps} tokens per second) is spent for a request of ${tokens} tokens; ${wait}.`;
  return failReply(429, 'rate_limit', message, undefined, retryHeaders(admitted.retryAfterMs));
}

/** The admitted request answered: after an injected reset, hold or latency, by its judge, as the contract's body. */
async function answer(
  parts: EvaluateParts,
  call: EvaluateCall,
  draw: FaultDraw,
  { request, resolved, counted }: Valid,
): Promise<EvaluateOutcome> {
  if (draw.fault === 'reset') return { kind: 'reset' };
  const held = draw.fault === 'timeout' ? parts.o.timeoutHoldMs : 0;
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
    answers = parts.answersOut(request, await resolved.judge.answer(request, resolved.id, judgeSignal));
  } catch (e) {
    if (e instanceof JudgeRefusal) return failReply(422, 'invalid_request', e.message, e.errors);
    if (judgeSignal?.aborted) return { kind: 'gone', reason: e };
    throw e;
  }
  const usage = { input_tokens: counted.tokens.total, output_tokens: 0 };
  return {
    kind: 'reply',
    status: 200,
    headers: JSON_HEADERS,
    body: JSON.stringify({ model: resolved.id, answers, usage }),
  };
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
export async function warmServiceSteps(): Promise<void> {
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
