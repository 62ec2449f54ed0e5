// Pacing for a run of rows: requests per minute and input tokens per second as two evenly spaced schedules, plus a
// concurrency gate. Pure over an injected clock, so tests assert exact send times.
import { z } from 'zod';
import { RATE_LIMIT_INPUT_TOKENS_PER_SECOND, RATE_LIMIT_REQUESTS_PER_MINUTE } from '../../contract';

/** The clock a run lives on: wall time and an abortable sleep. Tests pass a manual clock. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const PacingSchema = z.object({
  requestsPerMinute: z.number().positive().max(1_000_000),
  concurrency: z.number().int().min(1).max(64),
  tokensPerSecond: z.number().positive(),
});
/** How fast a run may go. */
export type Pacing = z.infer<typeof PacingSchema>;

/** Defaults: the published rate limits and four requests in flight. */
export const DEFAULT_PACING: Pacing = {
  requestsPerMinute: RATE_LIMIT_REQUESTS_PER_MINUTE,
  concurrency: 4,
  tokensPerSecond: RATE_LIMIT_INPUT_TOKENS_PER_SECOND,
};

/** The pacing a target's own rate limits allow; the published limits where the target states none. */
export function pacingFor(
  target: { requestsPerMinute: number | null; tokensPerSecond: number | null } | undefined,
): Pacing {
  return {
    ...DEFAULT_PACING,
    requestsPerMinute: target?.requestsPerMinute ?? DEFAULT_PACING.requestsPerMinute,
    tokensPerSecond: target?.tokensPerSecond ?? DEFAULT_PACING.tokensPerSecond,
  };
}

/** Sends a schedule may fall behind (a stall, a slow lookup) and still catch up on, as a number of intervals. */
export const CATCH_UP_SENDS = 5;

/**
 * Spaces sends evenly: request k may go no sooner than 60000/rpm ms after request k-1's slot, and a request of t
 * tokens pushes the next slot back by t/tps s. A send that goes late (the event loop stalled, every place was taken)
 * keeps its schedule for up to CATCH_UP_SENDS intervals (at most 1 s), so short stalls do not lower the achieved rate;
 * beyond that the schedule restarts from now, so a pause or a long stall never turns into a burst (at most
 * CATCH_UP_SENDS sends close together, far inside a per-minute budget).
 */
export class Pacer {
  private nextRequestAt = -Infinity;
  private nextTokensAt = -Infinity;

  constructor(
    private pacing: Pacing,
    private readonly clock: Clock,
  ) {}

  get settings(): Pacing {
    return this.pacing;
  }

  /** New settings apply from the next reservation. */
  update(pacing: Pacing): void {
    this.pacing = pacing;
  }

  /** Books the earliest send time for a request of `tokens` input tokens and returns it (clock ms). */
  reserve(tokens: number): number {
    const now = this.clock.now();
    const interval = 60_000 / this.pacing.requestsPerMinute;
    const slack = Math.max(interval, Math.min(CATCH_UP_SENDS * interval, 1000));
    // The first send starts the schedule: nothing to catch up on yet.
    if (this.nextRequestAt === -Infinity) this.nextRequestAt = now;
    if (this.nextTokensAt === -Infinity) this.nextTokensAt = now;
    const at = Math.max(now, this.nextRequestAt, this.nextTokensAt);
    this.nextRequestAt = Math.max(this.nextRequestAt, at - slack) + interval;
    this.nextTokensAt =
      Math.max(this.nextTokensAt, at - slack) + (Math.max(0, tokens) * 1000) / this.pacing.tokensPerSecond;
    return at;
  }

  /** No send before `at` (clock ms): the service asked to wait (429 with Retry-After). */
  holdUntil(at: number): void {
    this.nextRequestAt = Math.max(this.nextRequestAt, at);
  }

  /** Waits for the next send slot; the slot stays booked if the wait is aborted. */
  async acquire(tokens: number, signal?: AbortSignal): Promise<void> {
    const at = this.reserve(tokens);
    const wait = at - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait, signal);
  }
}

/** A counting gate: at most `limit` holders at once, woken in arrival order. */
export class Gate {
  private held = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(private limit: number) {}

  get inUse(): number {
    return this.held;
  }

  setLimit(limit: number): void {
    this.limit = limit;
    this.wake();
  }

  /** Resolves once a place is free and taken. */
  acquire(): Promise<void> {
    if (this.held < this.limit) {
      this.held++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    this.held--;
    this.wake();
  }

  private wake(): void {
    while (this.held < this.limit && this.waiters.length > 0) {
      this.held++;
      this.waiters.shift()!();
    }
  }
}

/** Requests per minute over a sliding window of send times. */
export class RateMeter {
  private readonly times: number[] = [];
  private head = 0;
  /** True once a send has left the window: from then on the window is full. */
  private spilled = false;

  constructor(private readonly windowMs = 10_000) {}

  record(at: number): void {
    this.times.push(at);
  }

  /** Sends per minute over the last window (or since the first send, when that is shorter). */
  perMinute(now: number): number {
    while (this.head < this.times.length && this.times[this.head]! <= now - this.windowMs) {
      this.head++;
      this.spilled = true;
    }
    if (this.head > 4096) {
      this.times.splice(0, this.head);
      this.head = 0;
    }
    const count = this.times.length - this.head;
    if (count === 0) return 0;
    const since = now - this.times[this.head]!;
    // A full window: sends in it over its length. Early on: intervals between sends over the time since the first.
    if (this.spilled || since >= this.windowMs) return (count * 60_000) / this.windowMs;
    return since < 1000 ? 0 : ((count - 1) * 60_000) / since;
  }
}

/** Time to send `rows` rows of `avgTokens` tokens each at a pacing, ignoring latency (ms). */
export function pacedDurationMs(rows: number, avgTokens: number, pacing: Pacing): number {
  if (rows <= 0) return 0;
  const perRequest = Math.max(60_000 / pacing.requestsPerMinute, (avgTokens * 1000) / pacing.tokensPerSecond);
  return (rows - 1) * perRequest;
}
