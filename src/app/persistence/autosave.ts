// Debounced saving with a lifecycle: changes wait `delayMs` before being written, one write at a time, the latest value
// per key wins, a failed write keeps its value in memory and is retried, and flush() writes everything now (page hide).
import { describeStorageError, isQuotaError } from './storageErrors';

/** What the save line shows. */
export interface SaveStatus {
  /** idle: nothing to save; pending: a change waits; saving: a write is running; failed: the last write failed. */
  state: 'idle' | 'pending' | 'saving' | 'failed';
  /** True when the last failure was the storage quota. */
  quota: boolean;
  /** One sentence about the last failure. */
  message?: string;
  /** When the last write succeeded (ISO). */
  savedAt?: string;
}

export interface AutosaveOptions<T> {
  /** Writes one value; rejects with the storage error. */
  write: (value: T) => Promise<unknown>;
  /** The key values are kept under: a newer value replaces an unsaved older one with the same key. */
  keyOf: (value: T) => string;
  onStatus?: (status: SaveStatus) => void;
  /** Wait after the latest change before writing. 400 ms: a pause in typing, not a keystroke. */
  delayMs?: number;
  /** Wait before retrying after a failure (space may have been freed meanwhile). */
  retryMs?: number;
  now?: () => Date;
}

/** Saves values a while after they stop changing; nothing scheduled is dropped. */
/** A one-shot timer: each arm replaces the last; once stopped it never fires again. */
class Rearm {
  private timer: ReturnType<typeof setTimeout> | undefined;
  stopped = false;

  constructor(private readonly fire: () => void) {}

  arm(ms: number): void {
    this.clear();
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.fire();
    }, ms);
  }

  clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }
}

/**
 * Writes every pending value, newest per key, and clears those written; every key is tried, so one session that cannot
 * be written does not hold back the others. Returns whether any failed, and the last error.
 */
async function writeEach<T>(
  pending: Map<string, T>,
  write: (value: T) => Promise<unknown>,
): Promise<{ failed: boolean; failure: unknown }> {
  let failure: unknown;
  let failed = false;
  for (const [key, value] of [...pending]) {
    try {
      await write(value);
      // A newer value may have arrived during the write: only clear the key if it still holds this one.
      if (pending.get(key) === value) pending.delete(key);
    } catch (error) {
      failed = true;
      failure = error;
    }
  }
  return { failed, failure };
}

export class Autosave<T> {
  private readonly pending = new Map<string, T>();
  private readonly timer = new Rearm(() => void this.flush());
  private running: Promise<void> = Promise.resolve();
  private status: SaveStatus = { state: 'idle', quota: false };
  private readonly delayMs: number;
  private readonly retryMs: number;

  constructor(private readonly options: AutosaveOptions<T>) {
    this.delayMs = options.delayMs ?? 400;
    this.retryMs = options.retryMs ?? 10_000;
  }

  /** The current save status. */
  get current(): SaveStatus {
    return this.status;
  }

  /** Values not yet written (waiting, or kept after a failure), newest state per key. */
  unsaved(): T[] {
    return [...this.pending.values()];
  }

  /** Records a change, to be written after the debounce delay. */
  schedule(value: T): void {
    if (this.timer.stopped) return;
    this.pending.set(this.options.keyOf(value), value);
    // After a failure the line keeps saying so until a write succeeds; the change itself is kept either way.
    if (this.status.state === 'idle') this.setStatus({ state: 'pending' });
    this.timer.arm(this.delayMs);
  }

  /** Writes everything waiting now; resolves when done (or failed: the values stay pending). */
  flush(): Promise<void> {
    this.timer.clear();
    this.running = this.running.then(() => this.writeAll());
    return this.running;
  }

  /** Drops a waiting value (its session was deleted) so it is not written back. */
  forget(key: string): void {
    this.pending.delete(key);
    if (this.pending.size === 0 && this.status.state !== 'saving') this.setStatus({ state: 'idle' });
  }

  /** Stops the timers; values still pending stay readable through unsaved(). */
  dispose(): void {
    this.timer.stop();
  }

  private async writeAll(): Promise<void> {
    if (this.pending.size === 0) return;
    this.setStatus({ state: 'saving' });
    const { failed, failure } = await writeEach(this.pending, (value) => this.options.write(value));
    if (failed) {
      this.setStatus({
        state: 'failed',
        quota: isQuotaError(failure),
        message: describeStorageError(failure),
      });
      this.timer.arm(this.retryMs);
      return;
    }
    const savedAt = (this.options.now?.() ?? new Date()).toISOString();
    if (this.pending.size > 0) {
      this.setStatus({ state: 'pending', savedAt });
      this.timer.arm(this.delayMs);
    } else {
      this.setStatus({ state: 'idle', savedAt });
    }
  }

  private setStatus(next: Omit<SaveStatus, 'quota'> & { quota?: boolean }): void {
    this.status = { quota: false, ...next, savedAt: next.savedAt ?? this.status.savedAt };
    this.options.onStatus?.(this.status);
  }
}
