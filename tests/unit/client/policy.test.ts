import { describe, expect, it } from 'vitest';
import { backoffDelayMs, delayBeforeRetry, isRetryableStatus, retryAfterMs } from '../../../src/client';

const r = (value: number) => () => value;
// The largest double below 1: the top of random()'s range.
const ALMOST_ONE = 1 - 2 ** -53;

describe('isRetryableStatus', () => {
  it('retries 408, 429 and every 5xx, 529 included', () => {
    for (const status of [408, 429, 500, 502, 503, 504, 529, 599])
      expect(isRetryableStatus(status), `${status}`).toBe(true);
  });

  it('never retries 401, 422 or any other 4xx, nor a success', () => {
    for (const status of [200, 204, 400, 401, 403, 404, 405, 409, 413, 422, 451, 499, 600]) {
      expect(isRetryableStatus(status), `${status}`).toBe(false);
    }
  });
});

describe('backoffDelayMs', () => {
  it('doubles from 500 ms with no jitter when random() is 0', () => {
    expect([0, 1, 2, 3].map((k) => backoffDelayMs(k, r(0)))).toEqual([500, 1000, 2000, 4000]);
  });

  it('caps at 5 s', () => {
    expect(backoffDelayMs(4, r(0))).toBe(5000);
    expect(backoffDelayMs(10, r(0))).toBe(5000);
    expect(backoffDelayMs(4, r(0.5))).toBe(4375);
  });

  it('shortens by up to a quarter as random() approaches 1', () => {
    expect(backoffDelayMs(0, r(0.5))).toBe(437.5);
    expect(backoffDelayMs(1, r(0.5))).toBe(875);
    expect(backoffDelayMs(0, r(ALMOST_ONE))).toBeCloseTo(375, 9);
    expect(backoffDelayMs(0, r(0.999))).toBeCloseTo(375.125, 9);
    expect(backoffDelayMs(1, r(ALMOST_ONE))).toBeCloseTo(750, 9);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
  const h = (init: Record<string, string>) => new Headers(init);

  it('prefers retry-after-ms over Retry-After', () => {
    expect(retryAfterMs(h({ 'retry-after-ms': '120', 'retry-after': '30' }), now)).toBe(120);
    expect(retryAfterMs(h({ 'retry-after-ms': '1.5' }), now)).toBe(1.5);
  });

  it('reads Retry-After in seconds', () => {
    expect(retryAfterMs(h({ 'retry-after': '3' }), now)).toBe(3000);
    expect(retryAfterMs(h({ 'retry-after': '0.25' }), now)).toBe(250);
    expect(retryAfterMs(h({ 'retry-after': '0' }), now)).toBe(0);
  });

  it('reads Retry-After as an HTTP date against the injected clock', () => {
    expect(retryAfterMs(h({ 'retry-after': 'Wed, 21 Oct 2015 07:28:10 GMT' }), now)).toBe(10_000);
    expect(retryAfterMs(h({ 'retry-after': 'Wed, 21 Oct 2015 07:29:00 GMT' }), now)).toBe(60_000);
    expect(retryAfterMs(h({ 'retry-after': 'Wed, 21 Oct 2015 07:28:10 GMT' }), now + 4_000)).toBe(6_000);
  });

  it('honours up to 60 s and ignores anything longer', () => {
    expect(retryAfterMs(h({ 'retry-after': '60' }), now)).toBe(60_000);
    expect(retryAfterMs(h({ 'retry-after': '61' }), now)).toBeNull();
    expect(retryAfterMs(h({ 'retry-after-ms': '60000' }), now)).toBe(60_000);
    expect(retryAfterMs(h({ 'retry-after-ms': '60001' }), now)).toBeNull();
    expect(retryAfterMs(h({ 'retry-after': 'Wed, 21 Oct 2015 07:29:01 GMT' }), now)).toBeNull();
  });

  it('lets the first header that parses decide', () => {
    // A too-long retry-after-ms is not rescued by a short Retry-After: both describe the same wait.
    expect(retryAfterMs(h({ 'retry-after-ms': '90000', 'retry-after': '5' }), now)).toBeNull();
    expect(retryAfterMs(h({ 'retry-after-ms': 'soon', 'retry-after': '5' }), now)).toBe(5000);
  });

  it('ignores missing, empty, negative, past and unreadable values', () => {
    expect(retryAfterMs(h({}), now)).toBeNull();
    expect(retryAfterMs(h({ 'retry-after': '' }), now)).toBeNull();
    expect(retryAfterMs(h({ 'retry-after': '-5' }), now)).toBeNull();
    expect(retryAfterMs(h({ 'retry-after-ms': '-5' }), now)).toBeNull();
    expect(retryAfterMs(h({ 'retry-after': 'Wed, 21 Oct 2015 07:27:00 GMT' }), now)).toBeNull();
    expect(retryAfterMs(h({ 'retry-after': 'later please' }), now)).toBeNull();
  });
});

describe('delayBeforeRetry', () => {
  const now = 1_000_000;

  it('uses the honoured header delay', () => {
    expect(delayBeforeRetry(0, new Headers({ 'retry-after-ms': '250' }), now, r(0.9))).toBe(250);
    expect(delayBeforeRetry(1, new Headers({ 'retry-after': '2' }), now, r(0.9))).toBe(2000);
  });

  it('falls back to the backoff without headers or with an ignored one', () => {
    expect(delayBeforeRetry(0, null, now, r(0.5))).toBe(437.5);
    expect(delayBeforeRetry(0, new Headers(), now, r(0))).toBe(500);
    expect(delayBeforeRetry(1, new Headers({ 'retry-after': '120' }), now, r(0))).toBe(1000);
  });
});
