// A run's scheduling: which row goes next and when. The queue is read in order; stored answers are looked up ahead in
// chunks; a row whose twin is in flight waits for it; the budget cap, the concurrency gate and the pacer each hold a
// row back. Sending it and settling what comes back are rowSend.ts's and rowSettle.ts's.
import type { LookAhead, LookedUp } from './lookAhead';
import type { Gate, Pacer } from './pacer';
import type { RunBook } from './runBook';
import type { RunBudget } from './runBudget';
import type { RunControl } from './runControl';
import type { PlannedRow } from './runPlan';
import type { RunReuse, TwinRequests } from './runReuse';

/** What the scheduler is handed: the run's parts, and the send that takes a row from it. */
export interface ScheduleParts {
  book: RunBook;
  control: RunControl;
  reuse: RunReuse;
  twins: TwinRequests;
  stored: LookAhead;
  gate: Gate;
  pacer: Pacer;
  budget: RunBudget;
  /** The pinned model rows are looked up under; null when the model is an alias (nothing is reused). */
  pinned: string | null;
  send(row: PlannedRow, looked: LookedUp | undefined): Promise<void>;
}

/** Sends the queue's rows until it is empty, or the run is told to stop. */
export async function dispatch(parts: ScheduleParts, signal: AbortSignal): Promise<void> {
  try {
    await dispatchRows(parts, signal);
  } finally {
    await parts.reuse.drain();
  }
}

async function dispatchRows(parts: ScheduleParts, signal: AbortSignal): Promise<void> {
  const { book, control, stored, pinned } = parts;
  for (;;) {
    if (signal.aborted) return;
    if (book.queue.length === 0) {
      if (book.inFlight.size === 0) return;
      // Rows in flight may come back to the queue (a failure that billed nothing): wait for the next change.
      await control.wake.next();
      continue;
    }
    // The next rows' stored answers are read in one go; those found are reused at once, the rest go on to be sent.
    if (pinned !== null && !stored.has(book.queue[0]!)) {
      await parts.reuse.lookAhead(pinned, signal);
      continue;
    }
    await parts.gate.acquire();
    if ((await placeNext(parts, signal)) === 'stop') return;
  }
}

/** A gate slot released once: by the row's send when it settles, or at once when the row is not sent. */
function slotOf(gate: Gate): () => void {
  let released = false;
  return () => {
    if (!released) {
      released = true;
      gate.release();
    }
  };
}

/**
 * Holding a gate slot, takes the queue's next row: it is sent, joins a twin in flight, goes back to be looked up, or
 * stops the run (aborted, or the budget cap would be passed).
 */
async function placeNext(parts: ScheduleParts, signal: AbortSignal): Promise<'next' | 'stop'> {
  const { book, budget } = parts;
  const release = slotOf(parts.gate);
  try {
    const number = book.queue.shift();
    if (signal.aborted || number === undefined) {
      if (number !== undefined) book.queue.unshift(number);
      release();
      return 'stop';
    }
    const row = book.rows.get(number)!;
    const lookedUp = parts.stored.take(number);
    const key = lookedUp?.key ?? null;
    // Queued in front while the gate was awaited (a requeue), so not looked up yet: the look-ahead does it.
    const notLookedUp = parts.pinned !== null && lookedUp === undefined;
    // Or the same request is in flight for another row: wait for its answer instead of paying twice.
    if (notLookedUp || (key !== null && parts.twins.follow(key, number))) {
      if (notLookedUp) book.queue.unshift(number);
      release();
      return 'next';
    }
    if (budget.wouldPass(row.tokens, book.tally)) {
      book.queue.unshift(number);
      release();
      parts.control.halt({
        reason: 'budget',
        message: `Stopped before the budget cap of ${budget.maxCost} would be passed; raise the cap to send the remaining rows.`,
      });
      return 'stop';
    }
    budget.reserve(row.tokens);
    try {
      await parts.pacer.acquire(row.tokens, signal);
    } catch {
      budget.release(row.tokens);
      book.queue.unshift(number);
      release();
      return 'stop';
    }
    if (key !== null) parts.twins.lead(key);
    void parts.send(row, lookedUp).finally(release);
    return 'next';
  } catch (error) {
    release();
    throw error;
  }
}
