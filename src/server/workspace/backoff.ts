// Wrong tokens from one address are slowed down, then refused for a while: guessing a token costs time, and a person
// who mistyped a link once is not locked out.

export interface BackoffOptions {
  /** Failures answered at full speed. */
  free: number;
  /** Added delay per failure beyond `free`, up to maxDelayMs. */
  stepMs: number;
  maxDelayMs: number;
  /** Failures after which the address is refused outright until `forgetMs` passed since its last failure. */
  refuseAfter: number;
  forgetMs: number;
}

export const BACKOFF_DEFAULTS: BackoffOptions = {
  free: 5,
  stepMs: 250,
  maxDelayMs: 2000,
  refuseAfter: 20,
  forgetMs: 15 * 60_000,
};

export class Backoff {
  private readonly failures = new Map<string, { count: number; last: number }>();

  constructor(
    private readonly options: BackoffOptions = BACKOFF_DEFAULTS,
    private readonly now: () => number = Date.now,
  ) {}

  /** How this address stands: refused, or the delay its next token check waits. */
  standing(address: string): { refused: boolean; delayMs: number } {
    const o = this.options;
    const seen = this.failures.get(address);
    if (!seen) return { refused: false, delayMs: 0 };
    if (this.now() - seen.last > o.forgetMs) {
      this.failures.delete(address);
      return { refused: false, delayMs: 0 };
    }
    return {
      refused: seen.count >= o.refuseAfter,
      delayMs: Math.min(o.maxDelayMs, Math.max(0, seen.count - o.free + 1) * o.stepMs),
    };
  }

  fail(address: string): void {
    const seen = this.failures.get(address);
    this.failures.set(address, { count: (seen?.count ?? 0) + 1, last: this.now() });
    // A flood of addresses must not grow the map without bound: the oldest entries go first.
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value!);
  }
}
