// The only module that sends HTTP requests to an evaluation service: one attempt loop under the contract's retry policy.
import type { z } from 'zod';
import {
  EvaluateResponseSchema,
  ModelListSchema,
  MODELS_PATH,
  RETRY_POLICY,
  formatLoc,
  readErrorBody,
  responseMismatches,
} from '../contract';
import type { EvaluateRequest, ModelList } from '../contract';
import type { AttemptReport } from './attempts';
import { countPossiblyBilled } from './attempts';
import { describeNetworkError, toEvaluationError } from './errors';
import type { EvaluationError, Failure } from './errors';
import { backoffDelayMs, delayBeforeRetry, isRetryableStatus } from './policy';
import type { ClientTarget } from './target';
import type { CallOptions, EvaluateResult } from '../contract/evaluateCall';

export type { CallOptions, EvaluateResult } from '../contract/evaluateCall';
import { evaluateUrl, joinUrl } from './target';

/** A successful GET of a JSON resource and how it was reached. */
export interface GetJsonResult<T> {
  data: T;
  attempts: AttemptReport[];
  requestId?: string;
  latencyMs: number;
}

/** Sleeps `ms`, rejecting at once if `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

interface CallSpec<T> {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  /** POSTs to the evaluate route are billed once evaluated; GETs never are. */
  billable: boolean;
  /** What the body should be, for messages: 'evaluation response', 'model list'. */
  what: string;
  parse: (json: unknown) => Parsed<T>;
}

interface CallResult<T> {
  value: T;
  attempts: AttemptReport[];
  requestId?: string;
  latencyMs: number;
}

type AttemptResult =
  | { type: 'response'; status: number; headers: Headers; text: string }
  // Without a status, but with the request id when headers came before the body stalled or broke off.
  | { type: 'timeout'; requestId?: string }
  | { type: 'cancelled'; requestId?: string }
  | { type: 'network'; error: unknown; requestId?: string };

/** A promise that rejects when `signal` aborts; never settles otherwise. */
function whenAborted(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let onAbort = (): void => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // A rejection nobody awaits any more must not surface as unhandled.
  promise.catch(() => {});
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/** One HTTP attempt under its own timeout; never throws. */
async function attemptOnce(
  transport: typeof fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  userSignal: AbortSignal | undefined,
): Promise<AttemptResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`No answer within ${timeoutMs} ms.`, 'TimeoutError'));
  }, timeoutMs);
  const onUserAbort = (): void => controller.abort(userSignal?.reason);
  userSignal?.addEventListener('abort', onUserAbort, { once: true });
  // NOTE: racing against the abort also stops transports that ignore the signal (an in-process app's fetch).
  const aborted = whenAborted(controller.signal);
  let requestId: string | undefined;
  try {
    const response = await Promise.race([
      transport(url, { ...init, signal: controller.signal }),
      aborted.promise,
    ]);
    requestId = response.headers.get('x-request-id') ?? undefined;
    const text = await Promise.race([response.text(), aborted.promise]);
    return { type: 'response', status: response.status, headers: response.headers, text };
  } catch (error) {
    const known = requestId === undefined ? {} : { requestId };
    if (userSignal?.aborted) return { type: 'cancelled', ...known };
    if (timedOut) return { type: 'timeout', ...known };
    return { type: 'network', error, ...known };
  } finally {
    clearTimeout(timer);
    userSignal?.removeEventListener('abort', onUserAbort);
    aborted.dispose();
  }
}

function requestHeaders(target: ClientTarget, attempt: number, hasBody: boolean): Headers {
  const headers = new Headers(target.headers);
  if (!headers.has('accept')) headers.set('Accept', 'application/json');
  if (hasBody && !headers.has('content-type')) headers.set('Content-Type', 'application/json');
  if (attempt > 0) headers.set('X-Retry-Count', String(attempt));
  else headers.delete('X-Retry-Count');
  return headers;
}

function checkOptions(options: CallOptions): { maxRetries: number; timeoutMs: number } {
  const maxRetries = options.maxRetries ?? RETRY_POLICY.maxRetries;
  const timeoutMs = options.timeoutMs ?? RETRY_POLICY.defaultTimeoutMs;
  if (!Number.isInteger(maxRetries) || maxRetries < 0)
    throw new RangeError('maxRetries must be a whole number >= 0.');
  if (!(timeoutMs > 0)) throw new RangeError('timeoutMs must be a positive number of milliseconds.');
  return { maxRetries, timeoutMs };
}

/** What became of one attempt: an answer, a failure that ends the call, or one a retry may mend. */
type Verdict<T> =
  | { kind: 'answer'; value: T }
  | { kind: 'stop'; failure: Failure; cause?: unknown }
  | { kind: 'retry'; failure: Failure; cause?: unknown; retryHeaders?: Headers };

/** An attempt the service answered: its body parsed on a 2xx, else the status read as a failure. */
function responseVerdict<T>(
  result: Extract<AttemptResult, { type: 'response' }>,
  spec: CallSpec<T>,
  report: AttemptReport,
): Verdict<T> {
  report.outcome = result.status;
  if (result.status >= 200 && result.status < 300) {
    const parsed = parseJson(result.text, spec.parse);
    if (parsed.ok) return { kind: 'answer', value: parsed.value };
    report.message = parsed.problem;
    const failure: Failure = {
      type: 'bad_response',
      status: result.status,
      what: spec.what,
      problem: parsed.problem,
      billed: spec.billable,
    };
    return { kind: 'stop', failure };
  }
  const read = readErrorBody(result.status, result.text);
  report.message = read.message;
  // A 5xx answered after the body was sent: the evaluation may have run before the failure.
  report.possiblyBilled = spec.billable && result.status >= 500;
  const failure: Failure = {
    type: 'status',
    status: result.status,
    serviceMessage: read.message,
    fieldErrors: read.errors,
    ...(read.quota ? { quota: true } : {}),
    ...(read.notDecisionModel ? { notDecisionModel: true } : {}),
    ...(read.code ? { code: read.code } : {}),
  };
  // A quota that will not reset soon stops the call: a retry would only be refused again.
  if (!isRetryableStatus(result.status) || read.quota) return { kind: 'stop', failure };
  return { kind: 'retry', failure, retryHeaders: result.headers };
}

/** An attempt without an answer: timed out, cancelled, or lost on the network. */
function unansweredVerdict(
  result: Exclude<AttemptResult, { type: 'response' }>,
  spec: CallSpec<unknown>,
  report: AttemptReport,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Verdict<never> {
  if (result.type === 'timeout') {
    report.outcome = 'timeout';
    report.message = `No answer within ${timeoutMs} ms.`;
    report.possiblyBilled = spec.billable;
    return { kind: 'retry', failure: { type: 'timeout', timeoutMs } };
  }
  if (result.type === 'cancelled') {
    report.outcome = 'cancelled';
    report.message = 'Cancelled while the request was in flight.';
    report.possiblyBilled = spec.billable;
    return { kind: 'stop', failure: { type: 'cancelled' }, cause: signal?.reason };
  }
  const network = describeNetworkError(result.error);
  report.outcome = 'network';
  report.message = network.detail;
  report.possiblyBilled = spec.billable && !network.notSent;
  const failure: Failure = {
    type: 'network',
    url: spec.url,
    detail: network.detail,
    invalidUrl: network.invalidUrl,
  };
  return { kind: network.invalidUrl ? 'stop' : 'retry', failure, cause: result.error };
}

/** Runs attempts until a success, a failure that is not retried, the end of the retries, or a cancel. */
async function call<T>(
  target: ClientTarget,
  spec: CallSpec<T>,
  options: CallOptions,
): Promise<CallResult<T>> {
  const { maxRetries, timeoutMs } = checkOptions(options);
  const { signal, onAttempt } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? abortableSleep;
  // Called through a closure: browsers reject a detached `window.fetch` ("Illegal invocation").
  const transport: typeof fetch = target.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const attempts: AttemptReport[] = [];
  const fail = (failure: Failure, cause?: unknown): EvaluationError =>
    toEvaluationError(failure, attempts, cause);

  for (let attempt = 0; ; attempt++) {
    if (signal?.aborted) throw fail({ type: 'cancelled' }, signal.reason);
    const started = now();
    const headers = requestHeaders(target, attempt, spec.body !== undefined);
    const init = { method: spec.method, headers, body: spec.body };
    const result = await attemptOnce(transport, spec.url, init, timeoutMs, signal);
    const report: AttemptReport = { attempt, outcome: 0, durationMs: Math.max(0, now() - started) };
    const record = (retryInMs?: number): void => {
      if (retryInMs !== undefined) report.retryInMs = retryInMs;
      attempts.push(report);
      onAttempt?.(report);
    };
    const requestId = result.type === 'response' ? result.headers.get('x-request-id') : result.requestId;
    if (requestId) report.requestId = requestId;
    const verdict =
      result.type === 'response'
        ? responseVerdict(result, spec, report)
        : unansweredVerdict(result, spec, report, timeoutMs, signal);
    if (verdict.kind === 'answer') {
      record();
      return { value: verdict.value, attempts, requestId: report.requestId, latencyMs: report.durationMs };
    }
    if (verdict.kind === 'stop' || attempt >= maxRetries) {
      record();
      throw fail(verdict.failure, verdict.cause);
    }
    const delay = verdict.retryHeaders
      ? delayBeforeRetry(attempt, verdict.retryHeaders, now(), random)
      : backoffDelayMs(attempt, random);
    record(delay);
    await sleepUnlessCancelled(sleep, delay, signal, () => fail({ type: 'cancelled' }, signal?.reason));
  }
}

/** Waits `ms` with the injected sleep, but a cancel ends the wait at once even if that sleep ignores the signal. */
async function sleepUnlessCancelled(
  sleep: NonNullable<CallOptions['sleep']>,
  ms: number,
  signal: AbortSignal | undefined,
  cancelled: () => EvaluationError,
): Promise<void> {
  if (!signal) return sleep(ms);
  if (signal.aborted) throw cancelled();
  const aborted = whenAborted(signal);
  try {
    await Promise.race([sleep(ms, signal), aborted.promise]);
  } catch (error) {
    if (signal.aborted) throw cancelled();
    throw error;
  } finally {
    aborted.dispose();
  }
  if (signal.aborted) throw cancelled();
}

function parseJson<T>(text: string, parse: (json: unknown) => Parsed<T>): Parsed<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: text.trim() === '' ? 'the body is empty' : 'the body is not JSON' };
  }
  return parse(json);
}

/** The first schema problem, located: "answers.tone.noul: Invalid input: expected number, received string". */
function schemaProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'the body does not match the schema';
  const loc = formatLoc(issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)));
  return loc === '' ? issue.message : `${loc}: ${issue.message}`;
}

const bySchema =
  <T>(schema: z.ZodType<T>) =>
  (json: unknown): Parsed<T> => {
    const parsed = schema.safeParse(json);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, problem: schemaProblem(parsed.error) };
  };

/**
 * Evaluates one request: POST to the target's evaluate path under the contract's retry policy. Resolves with the
 * parsed response; rejects with an EvaluationError whose message says what happened and what to do.
 */
export async function evaluate(
  target: ClientTarget,
  request: EvaluateRequest,
  options: CallOptions = {},
): Promise<EvaluateResult> {
  const parseResponse = bySchema(EvaluateResponseSchema);
  const result = await call(
    target,
    {
      method: 'POST',
      url: evaluateUrl(target),
      body: JSON.stringify(request),
      billable: true,
      what: 'evaluation response',
      parse: (json) => {
        const parsed = parseResponse(json);
        if (!parsed.ok) return parsed;
        const mismatches = responseMismatches(request, parsed.value);
        return mismatches.length === 0 ? parsed : { ok: false, problem: mismatches.join(' ') };
      },
    },
    options,
  );
  return {
    response: result.value,
    attempts: result.attempts,
    requestId: result.requestId,
    latencyMs: result.latencyMs,
    possiblyBilledAttempts: countPossiblyBilled(result.attempts),
  };
}

/** One JSON call under `target.baseUrl` with the same attempt loop, its answer parsed by `schema`. */
async function jsonCall<T>(
  target: ClientTarget,
  request: { method: 'GET' | 'POST'; path: string; body?: unknown; billable: boolean },
  schema: z.ZodType<T>,
  options: CallOptions,
): Promise<GetJsonResult<T>> {
  const result = await call(
    target,
    {
      method: request.method,
      url: joinUrl(target.baseUrl, request.path),
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
      billable: request.billable,
      what: 'JSON document',
      parse: bySchema(schema),
    },
    options,
  );
  return {
    data: result.value,
    attempts: result.attempts,
    requestId: result.requestId,
    latencyMs: result.latencyMs,
  };
}

/** GETs a JSON resource under `target.baseUrl` with the same attempt loop, parsed by `schema`. */
export const getJson = <T>(
  target: ClientTarget,
  path: string,
  schema: z.ZodType<T>,
  options: CallOptions = {},
): Promise<GetJsonResult<T>> => jsonCall(target, { method: 'GET', path, billable: false }, schema, options);

/**
 * POSTs a JSON body and parses the answer with `schema`. Counted as billable: the proxy's target check sends evaluate
 * requests on the caller's behalf.
 */
export const postJson = <T>(
  target: ClientTarget,
  path: string,
  body: unknown,
  schema: z.ZodType<T>,
  options: CallOptions = {},
): Promise<GetJsonResult<T>> =>
  jsonCall(target, { method: 'POST', path, body, billable: true }, schema, options);

/** Lists the model aliases the target offers: GET {baseUrl}/v1/models. */
export async function listModels(target: ClientTarget, options: CallOptions = {}): Promise<ModelList> {
  const result = await call(
    target,
    {
      method: 'GET',
      url: joinUrl(target.baseUrl, MODELS_PATH),
      billable: false,
      what: 'model list',
      parse: bySchema(ModelListSchema),
    },
    options,
  );
  return result.value;
}
