// A clock whose time moves only when the test says so: sleeps resolve in time order, so send times are exact.
import type { Clock } from '../../../../src/core/rows/pacer';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** Lets every pending promise callback run (several macrotask turns, so chains of awaits settle). */
export async function flush(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((r) => setImmediate(r));
}

export class ManualClock implements Clock {
  private time = 0;
  private seq = 0;
  private timers: Timer[] = [];

  now = (): number => this.time;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer: Timer = { at: this.time + Math.max(0, ms), seq: this.seq++, resolve, reject, signal };
      if (signal) {
        timer.onAbort = () => {
          this.timers = this.timers.filter((t) => t !== timer);
          reject(signal.reason);
        };
        signal.addEventListener('abort', timer.onAbort, { once: true });
      }
      this.timers.push(timer);
    });

  get pending(): number {
    return this.timers.length;
  }

  /** Fires the earliest timer (and any due at the same time), moving time to it. False when none is left. */
  async step(): Promise<boolean> {
    await flush();
    if (this.timers.length === 0) return false;
    this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const at = this.timers[0]!.at;
    this.time = Math.max(this.time, at);
    const due = this.timers.filter((t) => t.at <= at);
    this.timers = this.timers.filter((t) => t.at > at);
    for (const t of due) {
      if (t.onAbort) t.signal?.removeEventListener('abort', t.onAbort);
      t.resolve();
    }
    await flush();
    return true;
  }

  /** Runs timers until `done` settles; fails the test rather than spinning forever. */
  async runUntil<T>(done: Promise<T>, maxSteps = 1_000_000): Promise<T> {
    let settled = false;
    const result = done.finally(() => {
      settled = true;
    });
    for (let i = 0; i < maxSteps && !settled; i++) {
      const moved = await this.step();
      if (!moved && !settled) {
        await flush(20);
        if (!settled && this.timers.length === 0)
          throw new Error('Nothing left to run, but the promise has not settled.');
      }
    }
    return result;
  }
}
