// Per-key rate limits as two token buckets (requests per minute, input tokens per second) on an injectable clock.

/** A bucket that refills continuously up to its capacity; its level may go below 0 (a debt) after a large request. */
class Bucket {
  level: number;
  last: number;
  constructor(
    readonly capacity: number,
    readonly perMs: number,
    now: number,
  ) {
    this.level = capacity;
    this.last = now;
  }
  refill(now: number): void {
    if (now > this.last) this.level = Math.min(this.capacity, this.level + (now - this.last) * this.perMs);
    this.last = Math.max(this.last, now);
  }
  /** Milliseconds until the level reaches `need` (0 if it already has). */
  waitFor(need: number): number {
    return this.level >= need - EPSILON ? 0 : (need - this.level) / this.perMs;
  }
}

// Float slack, so a retry at exactly the advertised time is never refused by rounding.
const EPSILON = 1e-9;

export type Admission = { ok: true } | { ok: false; retryAfterMs: number; limit: 'requests' | 'tokens' };

/** Limits per key: `rpm` requests per minute and `tps` input tokens per second, each a full bucket to start. */
export class RateLimiter {
  readonly #buckets = new Map<string, { requests: Bucket; tokens: Bucket }>();
  constructor(
    readonly rpm: number,
    readonly tps: number,
    readonly now: () => number,
  ) {}

  /**
   * Admits one request of `tokens` input tokens for `key`, or says how long to wait. The wait is truthful: the same
   * request retried after it is admitted unless other requests of the key spend the budget first. A request larger than
   * the token bucket is admitted once the bucket is full, and leaves a debt the next requests wait out.
   */
  admit(key: string, tokens: number): Admission {
    const now = this.now();
    let b = this.#buckets.get(key);
    if (!b) {
      b = {
        requests: new Bucket(this.rpm, this.rpm / 60_000, now),
        tokens: new Bucket(this.tps, this.tps / 1000, now),
      };
      this.#buckets.set(key, b);
    }
    b.requests.refill(now);
    b.tokens.refill(now);
    const waitRequests = b.requests.waitFor(1);
    const waitTokens = b.tokens.waitFor(Math.min(tokens, this.tps));
    if (waitRequests === 0 && waitTokens === 0) {
      b.requests.level -= 1;
      b.tokens.level -= tokens;
      return { ok: true };
    }
    return {
      ok: false,
      retryAfterMs: Math.max(1, Math.ceil(Math.max(waitRequests, waitTokens))),
      limit: waitTokens > waitRequests ? 'tokens' : 'requests',
    };
  }
}
