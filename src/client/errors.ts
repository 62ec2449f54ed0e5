// Typed errors of the client: what happened, in one sentence that says what to do, plus the facts behind it.
import { formatLoc } from '../contract';
import type { FieldError } from '../contract';
import { plural } from '../contract/text';
import type { EvaluationErrorKind } from '../contract/evaluateCall';

export type { EvaluationErrorKind } from '../contract/evaluateCall';
import type { AttemptReport } from './attempts';
import { countPossiblyBilled } from './attempts';
import { isRetryableStatus } from './policy';

export interface EvaluationErrorInit {
  kind: EvaluationErrorKind;
  message: string;
  status?: number;
  fieldErrors?: FieldError[];
  attempts: AttemptReport[];
  requestId?: string;
  possiblyBilled: boolean;
  retryable: boolean;
  serviceMessage?: string;
  cause?: unknown;
}

/** Why a call failed, after the retry policy ran its course. `message` is one sentence for a person. */
export class EvaluationError extends Error {
  override readonly name = 'EvaluationError';
  readonly kind: EvaluationErrorKind;
  /** HTTP status of the last attempt, when it got a response. */
  readonly status?: number;
  /** Field locations (JSON paths into the request body) from a 422. */
  readonly fieldErrors: FieldError[];
  /** Every attempt made, in order. */
  readonly attempts: AttemptReport[];
  /** x-request-id of the latest attempt that got a response. */
  readonly requestId?: string;
  /** True when some attempt may have been evaluated and billed; the caller must treat the outcome as unknown. */
  readonly possiblyBilled: boolean;
  /** True when the same call might succeed later (rate limit, overload, timeout, network, 408, 5xx). */
  readonly retryable: boolean;
  /** The service's own sentence from the error body, when it sent one. */
  readonly serviceMessage?: string;

  constructor(init: EvaluationErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.fieldErrors = init.fieldErrors ?? [];
    this.attempts = init.attempts;
    this.requestId = init.requestId;
    this.possiblyBilled = init.possiblyBilled;
    this.retryable = init.retryable;
    this.serviceMessage = init.serviceMessage;
  }
}

/** Narrows an unknown thrown value to an EvaluationError. */
export const isEvaluationError = (error: unknown): error is EvaluationError =>
  error instanceof EvaluationError;

/** How the last attempt failed, as the attempt loop saw it. */
export type Failure =
  | {
      type: 'status';
      status: number;
      serviceMessage: string;
      fieldErrors: FieldError[];
      /** The service said its quota will not come back soon: the call stops instead of retrying. */
      quota?: boolean;
      notDecisionModel?: boolean;
      code?: string;
    }
  | { type: 'timeout'; timeoutMs: number }
  | { type: 'network'; url: string; detail: string; invalidUrl: boolean }
  | { type: 'cancelled' }
  | { type: 'bad_response'; status: number; what: string; problem: string; billed: boolean };

const clause = (sentence: string): string => sentence.trim().replace(/[.!?]+$/, '');
const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;

/** Kind of a failed HTTP status; the body's facts refine it (a 400 with field errors is a validation error). */
export function statusKind(
  status: number,
  facts: { fieldErrors?: FieldError[]; quota?: boolean; notDecisionModel?: boolean } = {},
): EvaluationErrorKind {
  if (status === 401) return 'auth';
  if (facts.quota) return 'quota';
  if (facts.notDecisionModel) return 'not_decision_model';
  if (status === 422 || (status === 400 && (facts.fieldErrors?.length ?? 0) > 0)) return 'validation';
  if (status === 429) return 'rate_limited';
  if (status === 529) return 'overloaded';
  return 'http';
}

const gaveUp = (retries: number): string =>
  retries === 0 ? 'not retried' : `retried ${plural(retries, 'time')}, then gave up`;

function fieldsSentence(fieldErrors: FieldError[], serviceMessage: string, status = 422): string {
  const where = (e: FieldError): string => (e.loc.length === 0 ? 'the body' : formatLoc(e.loc));
  if (fieldErrors.length === 0)
    return `The request failed validation (${status}): ${clause(serviceMessage)}; fix it and send again.`;
  if (fieldErrors.length === 1) {
    const only = fieldErrors[0]!;
    return `The request failed validation (${status}) at ${where(only)}: ${clause(only.msg)}; fix that field and send again.`;
  }
  const shown = fieldErrors.slice(0, 3).map(where);
  const more = fieldErrors.length > 3 ? ` and ${fieldErrors.length - 3} more` : '';
  return `The request failed validation (${status}) at ${shown.join(', ')}${more}; fix those fields and send again.`;
}

const inline = (sentence: string): string => {
  const c = clause(sentence);
  return c.length > 1 && c[1] === c[1]!.toLowerCase() ? c[0]!.toLowerCase() + c.slice(1) : c;
};

function quotaSentence(status: number, serviceMessage: string, code: string | undefined): string {
  const said = `${status}${code ? `, code ${code}` : ''}: ${inline(serviceMessage)}`;
  return `The target's quota is used up (${said}) and will not come back within this run, so nothing more is sent; wait for the quota to reset or raise it, then run again.`;
}

function statusSentence(status: number, serviceMessage: string, retries: number): string {
  switch (statusKind(status)) {
    case 'auth':
      // The proxy's own 401 for a target with no key names the variable to set: that sentence says more than ours.
      return /has no key: set \S+/.test(serviceMessage)
        ? `${clause(serviceMessage)} (401).`
        : 'The service did not accept the API key (401): check the key for this target.';
    case 'rate_limited':
      return `The service kept rate limiting this key (429): ${gaveUp(retries)}; wait a minute or send more slowly.`;
    case 'overloaded':
      return `The service is overloaded (529): ${gaveUp(retries)}; try again in a minute.`;
    default:
      break;
  }
  const said = `${clause(serviceMessage)} (${status})`;
  if (isRetryableStatus(status)) return `${said}: ${gaveUp(retries)}; try again later.`;
  if (status === 404 || status === 405) return `${said}: check the target's base URL and evaluate path.`;
  if (status === 413) return `${said}: shorten the state or send fewer questions.`;
  if (status === 403) return `${said}: check that this key may use this service.`;
  return `${said}: the request was not retried.`;
}

/** The one sentence for a failure, given how many retries were made before it. */
export function failureMessage(failure: Failure, attempts: number): string {
  const retries = Math.max(0, attempts - 1);
  switch (failure.type) {
    case 'status': {
      const kind = statusKind(failure.status, failure);
      if (kind === 'quota') return quotaSentence(failure.status, failure.serviceMessage, failure.code);
      if (kind === 'not_decision_model')
        return `The target says this model is not a decision model (${failure.status}: ${inline(failure.serviceMessage)}); choose a model that answers decisions on this target.`;
      return kind === 'validation'
        ? fieldsSentence(failure.fieldErrors, failure.serviceMessage, failure.status)
        : statusSentence(failure.status, failure.serviceMessage, retries);
    }
    case 'timeout':
      return `No answer came within ${seconds(failure.timeoutMs)} (${plural(attempts, 'attempt')}); the evaluation may have run and been billed, so treat it as unknown and try again later.`;
    case 'network':
      return failure.invalidUrl
        ? `The target address "${failure.url}" is not a valid URL; fix the target's base URL.`
        : `Could not get an answer from ${failure.url} (${clause(failure.detail)}) after ${plural(attempts, 'attempt')}; check that the service is running and the address is right.`;
    case 'cancelled':
      return 'The request was cancelled; nothing more will be sent.';
    case 'bad_response':
      return `The service answered ${failure.status} but the body is not a valid ${failure.what} (${clause(failure.problem)})${failure.billed ? '; it was billed' : ''}; report this to whoever runs the service.`;
  }
}

/** Builds the error the caller sees from the last failure and every attempt made. */
export function toEvaluationError(
  failure: Failure,
  attempts: AttemptReport[],
  cause?: unknown,
): EvaluationError {
  const requestId = [...attempts].reverse().find((a) => a.requestId !== undefined)?.requestId;
  const base = {
    message: failureMessage(failure, attempts.length),
    attempts,
    requestId,
    possiblyBilled: countPossiblyBilled(attempts) > 0 || (failure.type === 'bad_response' && failure.billed),
    cause,
  };
  switch (failure.type) {
    case 'status':
      return new EvaluationError({
        ...base,
        kind: statusKind(failure.status, failure),
        status: failure.status,
        fieldErrors: failure.fieldErrors,
        serviceMessage: failure.serviceMessage,
        retryable: isRetryableStatus(failure.status) && !failure.quota,
      });
    case 'timeout':
      return new EvaluationError({ ...base, kind: 'timeout', retryable: true });
    case 'network':
      return new EvaluationError({ ...base, kind: 'network', retryable: !failure.invalidUrl });
    case 'cancelled':
      return new EvaluationError({ ...base, kind: 'cancelled', retryable: false });
    case 'bad_response':
      return new EvaluationError({ ...base, kind: 'bad_response', status: failure.status, retryable: false });
  }
}

// Connection errors whose request never left the machine: nothing can have been evaluated.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_INVALID_URL',
]);

/** What a transport error says: a short detail, whether the request surely never left, whether the URL is bad. */
export function describeNetworkError(error: unknown): {
  detail: string;
  notSent: boolean;
  invalidUrl: boolean;
} {
  const codes: string[] = [];
  let detail = '';
  // Node's fetch wraps the socket error in `cause` (sometimes twice); browsers give only "Failed to fetch".
  for (let at: unknown = error, depth = 0; at && typeof at === 'object' && depth < 4; depth++) {
    const { code, message, cause } = at as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') codes.push(code);
    if (typeof message === 'string' && message !== '') detail = message;
    at = cause;
  }
  const invalidUrl = codes.includes('ERR_INVALID_URL') || /invalid url|failed to parse url/i.test(detail);
  return {
    detail: detail || 'connection failed',
    notSent: invalidUrl || codes.some((c) => NOT_SENT_CODES.has(c)),
    invalidUrl,
  };
}
