// What a run takes from answers already stored or on their way: the look-ahead that reuses the queue's next rows in
// chunks, and the rows that wait on a twin request in flight (same dedup key) and settle with its answer.
import type { LookAhead, Reuse } from './lookAhead';
import { LOOKUP_CHUNK, LOOKUP_READS, reusedOutcome } from './lookAhead';
import type { StoredAnswer } from './records';
import type { RunBook } from './runBook';
import type { PlannedRow } from './runPlan';
import type { ReusedRow, RunnerDeps } from './runTypes';

/** Reuse of stored and in-flight answers for one runner. */
export class RunReuse {
  /** The outcome writes of the last chunk of reused rows, while they commit. */
  private writing: Promise<void> | null = null;
  /** When this call of run() began: a stored answer older than that comes from an earlier run. */
  startedAt = 0;

  constructor(
    private readonly book: RunBook,
    private readonly stored: LookAhead,
    private readonly deps: RunnerDeps,
  ) {}

  /**
   * Looks up the stored answers of the next rows of the queue (up to LOOKUP_CHUNK x LOOKUP_READS not looked up yet).
   * Rows with an answer are reused together, their outcomes written in one batch; the others keep their key, so
   * sending them needs no second read.
   */
  async lookAhead(model: string, signal: AbortSignal): Promise<void> {
    const rows: PlannedRow[] = [];
    for (const n of this.book.queue) {
      if (rows.length >= LOOKUP_CHUNK * LOOKUP_READS || this.stored.has(n)) break;
      rows.push(this.book.rows.get(n)!);
    }
    const reused = await this.stored.lookUp(rows, model, signal);
    if (reused.length === 0) return;
    const taken = new Set(reused.map(({ row }) => row.number));
    this.book.queue = this.book.queue.filter((n) => !taken.has(n));
    // This chunk's outcomes are written while the next chunk is looked up; at most two chunks are ever writing.
    const writing = this.reuseAll(reused);
    // Awaited below, or by drain(); never left unhandled in between.
    writing.catch(() => undefined);
    const previous = this.writing;
    this.writing = writing;
    if (previous) await previous;
  }

  /** Waits for the last reused chunk: the run is not over (nor its failure known) until it is stored. */
  async drain(): Promise<void> {
    const writing = this.writing;
    this.writing = null;
    if (writing) await writing;
  }

  /**
   * Records a chunk of reused rows in one write; if it cannot be saved, the rows go back to the queue and the error
   * stops the run.
   */
  async reuseAll(reused: readonly Reuse[]): Promise<void> {
    const outcomes: ReusedRow[] = reused.map(({ row, answer, found }) => ({
      number: row.number,
      outcome: reusedOutcome(
        this.book.outcomes.get(row.number),
        answer,
        found,
        this.startedAt,
        this.deps.clock.now(),
      ),
      ...(found ? { answer } : {}),
    }));
    try {
      await this.deps.store.saveReused(outcomes);
    } catch (error) {
      this.book.queue.unshift(...reused.map(({ row }) => row.number));
      throw error;
    }
    reused.forEach(({ row, answer }, i) => this.book.setOutcome(row, outcomes[i]!.outcome, answer));
  }
}

/** Rows waiting on a twin request in flight (the same dedup key), so the same request is never paid for twice. */
export class TwinRequests {
  /** Dedup keys being sent now, and the rows waiting for that answer. */
  private readonly leaders = new Map<string, number[]>();

  constructor(
    private readonly book: RunBook,
    /** Records reused rows (RunReuse.reuseAll): the followers of an answered request. */
    private readonly reuseAll: (reused: readonly Reuse[]) => Promise<void>,
  ) {}

  /** Joins `number` to a twin request in flight under `key`: true when there is one, so the row is not sent. */
  follow(key: string, number: number): boolean {
    const waiting = this.leaders.get(key);
    if (waiting) waiting.push(number);
    return waiting !== undefined;
  }

  /** A row is about to be sent under `key`: its twins queued later wait for it. */
  lead(key: string): void {
    this.leaders.set(key, []);
  }

  /** Rows that waited on the same request: they reuse its answer, or go back to the front of the queue. */
  async settleFollowers(key: string, answer: StoredAnswer | undefined): Promise<void> {
    const followers = this.leaders.get(key) ?? [];
    this.leaders.delete(key);
    if (answer) {
      const rows = followers.flatMap((n) => {
        const row = this.book.rows.get(n);
        return row ? [{ row, answer }] : [];
      });
      // Unsaved followers go back to the queue (reuseAll puts them there); the leader's row is settled either way.
      if (rows.length > 0) await this.reuseAll(rows).catch(() => undefined);
    } else this.book.queue.unshift(...followers);
  }
}
