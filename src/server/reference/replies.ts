// The reference service's replies before any transport turns them into a response: what a call of the evaluate route
// is and decides, and the contract's error body for each refusal.
import type { ErrorType, FieldError } from '../../contract';
import { errorBody, formatLoc } from '../../contract';

/** Largest request body accepted; 2 MB is far above the 64k-token limit in any sane encoding. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

export type BodyRead = { ok: true; text: string } | { ok: false };

/** Retry-After in both spellings the clients read; none for no wait. */
export const retryHeaders = (ms: number): Record<string, string> =>
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

export const JSON_HEADERS = { 'Content-Type': 'application/json' } as const;

/** A JSON reply in the contract's error body. */
export function failReply(
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

/** The error reply of an unexpected failure, said the same way by every transport. */
export function serverErrorReply(err: unknown): Reply {
  console.error('reference: unexpected error', err);
  return failReply(500, 'server_error', 'The reference service hit an unexpected error.');
}

/** The sentence of a 422: the first field error, and how many there are. */
export function validationMessage(errors: FieldError[]): string {
  const first = errors[0];
  if (!first) return 'The request failed validation.';
  const where = first.loc.length ? formatLoc(first.loc) : 'the body';
  const msg = first.msg.replace(/\.$/, '');
  return errors.length === 1
    ? `The request failed validation at ${where}: ${msg}.`
    : `The request failed validation in ${errors.length} places; the first is ${where}: ${msg}.`;
}

/** The 401 of a missing or wrong key, with the scheme to use. */
export const unauthorizedReply = (): Reply =>
  failReply(
    401,
    'authentication_error',
    'The API key is missing or wrong: send the header "Authorization: Bearer <key>".',
    undefined,
    { 'WWW-Authenticate': 'Bearer' },
  );
