// The book of a run: its rows, what became of each (outcomes and their tallies), the queue still to send, the rows in
// flight, and who listens to every change. The runner's parts read and write it; none of them keeps a second copy.
import type { RowOutcome, StoredAnswer } from './records';
import type { PlannedRow } from './runPlan';
import { RunTally } from './tally';
import type { RowUpdate, RunStore } from './runTypes';

/** A row found `sending` when the run is loaded: the page went away while it was in flight, so it may be billed. */
export function interruptedOutcome(outcome: RowOutcome): RowOutcome {
  return {
    ...outcome,
    status: 'unknown',
    possiblyBilledAttempts: outcome.possiblyBilledAttempts + 1,
    error: {
      kind: 'interrupted',
      message:
        'The page closed while this row was in flight; it may have been evaluated and billed. Retry it on request.',
      fieldErrors: [],
      possiblyBilled: true,
    },
  };
}

/** Rows, outcomes, queue and listeners of one run, kept in step with each other. */
export class RunBook {
  readonly rows = new Map<number, PlannedRow>();
  readonly outcomes = new Map<number, RowOutcome>();
  /** Row numbers still to send, in order; replaced whole when a look-ahead takes reused rows out. */
  queue: number[] = [];
  readonly inFlight = new Map<number, AbortController>();
  /** Rows per status and tokens, kept in step with outcomes. */
  readonly tally = new RunTally();
  /** Rows loaded as `sending`, now unknown: their new outcome is saved when the run starts. */
  readonly interrupted: number[] = [];
  private readonly listeners = new Set<(update: RowUpdate) => void>();

  /** Restores the stored outcomes: a row without one, or pending, is queued; one caught in flight becomes unknown. */
  constructor(rows: readonly PlannedRow[], stored: ReadonlyMap<number, RowOutcome> | undefined) {
    for (const row of rows) this.rows.set(row.number, row);
    for (const row of rows) {
      let outcome = stored?.get(row.number);
      if (outcome?.status === 'sending') {
        // Never resend it silently: it is retried on request only.
        outcome = interruptedOutcome(outcome);
        this.interrupted.push(row.number);
      }
      if (outcome) {
        this.outcomes.set(row.number, outcome);
        this.tally.account(outcome, row.tokens, 1);
      }
      if (!outcome || outcome.status === 'pending') this.queue.push(row.number);
    }
  }

  /** Listens to every row update; returns the unsubscribe function. */
  subscribe(listener: (update: RowUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records a row's new outcome, moves its tallies, and tells the listeners. */
  setOutcome(row: PlannedRow, outcome: RowOutcome, answer?: StoredAnswer): void {
    const previous = this.outcomes.get(row.number);
    if (previous) this.tally.account(previous, row.tokens, -1);
    this.outcomes.set(row.number, outcome);
    this.tally.account(outcome, row.tokens, 1);
    this.emit({ number: row.number, outcome, answer });
  }

  emit(update: RowUpdate): void {
    for (const listener of this.listeners) listener(update);
  }

  /** Rows neither settled nor in flight. */
  get pending(): number {
    return this.rows.size - this.tally.settled - this.inFlight.size;
  }

  /** Rows that ended failed or unknown, by status. */
  retryable(): { failed: number[]; unknown: number[] } {
    const failed: number[] = [];
    const unknown: number[] = [];
    for (const [n, o] of this.outcomes) {
      if (o.status === 'failed') failed.push(n);
      else if (o.status === 'unknown') unknown.push(n);
    }
    return { failed, unknown };
  }
}

/** Saves the rows loaded as `sending` as the unknown rows they now are, before anything else is sent. */
export async function saveInterrupted(book: RunBook, store: RunStore): Promise<void> {
  const { interrupted } = book;
  while (interrupted.length > 0) {
    const n = interrupted[0]!;
    const outcome = book.outcomes.get(n);
    if (outcome) {
      await store.saveOutcome(n, outcome);
      book.emit({ number: n, outcome });
    }
    interrupted.shift();
  }
}

/** Puts these failed or unknown rows back at the end of the queue, saved as pending; returns those it requeued. */
export async function retryRows(
  book: RunBook,
  store: RunStore,
  now: number,
  numbers: readonly number[],
): Promise<number[]> {
  const requeued: number[] = [];
  for (const n of numbers) {
    const outcome = book.outcomes.get(n);
    const row = book.rows.get(n);
    if (!row || !outcome || (outcome.status !== 'failed' && outcome.status !== 'unknown')) continue;
    const next: RowOutcome = { ...outcome, status: 'pending', requeues: 0, at: now };
    await store.saveOutcome(n, next);
    book.setOutcome(row, next);
    book.queue.push(n);
    requeued.push(n);
  }
  return requeued;
}
