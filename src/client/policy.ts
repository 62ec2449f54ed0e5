// The contract's client retry policy as pure functions: which outcomes retry, and how long to wait first.
import { RETRY_POLICY } from '../contract';

/** 408, 429 and every 5xx (529 included) are retried; 401, 422 and every other 4xx are not. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * Backoff before retry `retryIndex` (0 for the first retry): min(500 * 2^k, 5000) ms, shortened by up to a quarter
 * with `random()` uniform in [0, 1).
 */
export function backoffDelayMs(retryIndex: number, random: () => number): number {
  const base = Math.min(RETRY_POLICY.initialBackoffMs * 2 ** retryIndex, RETRY_POLICY.maxBackoffMs);
  return base * (1 - random() * RETRY_POLICY.jitter);
}

const DECIMAL = /^\d+(?:\.\d+)?$/;

/** A delay the server asked for is honoured only from 0 to 60 s; anything else falls back to the backoff. */
const honoured = (ms: number): number | null => (ms >= 0 && ms <= RETRY_POLICY.maxRetryAfterMs ? ms : null);

/**
 * The delay the server asked for, in ms: `retry-after-ms` first, then `Retry-After` (seconds or an HTTP date, read
 * against `nowMs`). The first header that parses decides; null when none parses or the delay is negative or over 60 s.
 */
export function retryAfterMs(headers: Headers, nowMs: number): number | null {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms !== undefined && DECIMAL.test(ms)) return honoured(Number(ms));
  const after = headers.get('retry-after')?.trim();
  if (after === undefined || after === '') return null;
  if (DECIMAL.test(after)) return honoured(Number(after) * 1000);
  // NOTE: a date already past is treated like a missing header (clock skew is likelier than "retry now").
  const date = Date.parse(after);
  return Number.isNaN(date) ? null : honoured(date - nowMs);
}

/** The delay before retry `retryIndex`: what the response's headers ask for when honoured, else the backoff. */
export function delayBeforeRetry(
  retryIndex: number,
  headers: Headers | null,
  nowMs: number,
  random: () => number,
): number {
  return (headers ? retryAfterMs(headers, nowMs) : null) ?? backoffDelayMs(retryIndex, random);
}
