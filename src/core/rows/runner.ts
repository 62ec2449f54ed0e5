// The run engine: sends one request per row, paced, and records every outcome as it arrives. Pure orchestration over
// an injected evaluate, clock and store, so tests drive it with a manual clock or the real client and a real server.
// The runner wires its parts and answers the page: the book of rows and outcomes (runBook.ts), phase and halts
// (runControl.ts), the budget cap (runBudget.ts), scheduling (runSchedule.ts: look-ahead reuse and twin requests in
// runReuse.ts, the gate, the pacer), sending (rowSend.ts) and settling (rowSettle.ts; what a failure means is
// failure.ts's).
import { errorClause as errorText } from '../../contract/text';
import { dedupKey, pinnedModel } from './dedup';
import { LookAhead } from './lookAhead';
import { Gate, Pacer, RateMeter } from './pacer';
import type { Pacing } from './pacer';
import type { Halt, RowOutcome } from './records';
import { RunBook, retryRows, saveInterrupted } from './runBook';
import { RunBudget } from './runBudget';
import { RunControl } from './runControl';
import { runProgress } from './runProgress';
import { RunReuse, TwinRequests } from './runReuse';
import { dispatch } from './runSchedule';
import type { ScheduleParts } from './runSchedule';
import { RowSender } from './rowSend';
import { RowSettler } from './rowSettle';
import type { RowUpdate, RunnerDeps, RunnerInput, RunProgress, RunStore } from './runTypes';

export { FAILING_STREAK } from './runControl';

const PAUSED: Halt = { reason: 'paused', message: 'Paused: resume to send the remaining rows.' };
const CANCELLED: Halt = {
  reason: 'cancelled',
  message: 'Cancelled: rows that were in flight may have been billed.',
};

/** A runner's parts, wired together once. */
interface RunParts extends ScheduleParts {
  meter: RateMeter;
  sender: RowSender;
  store: RunStore;
  now: () => number;
}

/** Builds a run's parts over its input and what it is handed. */
function wire(input: RunnerInput, deps: RunnerDeps): RunParts {
  const book = new RunBook(input.rows, input.outcomes);
  const control = new RunControl();
  const keyOf = deps.keyOf ?? dedupKey;
  const now = () => deps.clock.now();
  const stored = new LookAhead({
    targetId: input.targetId,
    questions: input.questions,
    questionReuse: input.questionReuse !== false,
    store: deps.store,
    keyOf,
    now,
  });
  const reuse = new RunReuse(book, stored, deps);
  const twins = new TwinRequests(book, (rows) => reuse.reuseAll(rows));
  const pacer = deps.pacer ?? new Pacer(input.pacing, deps.clock);
  const meter = new RateMeter();
  const budget = new RunBudget(input.maxCost, input.inputPrice);
  const pinned = pinnedModel(input.model);
  const settleParts = { input, deps, book, control, stored, keyOf, pinned };
  const settle = new RowSettler(settleParts);
  const sender = new RowSender({ ...settleParts, twins, pacer, meter, budget, settle });
  const gate = new Gate(input.pacing.concurrency);
  const send = sender.send.bind(sender);
  return {
    book,
    control,
    reuse,
    twins,
    stored,
    gate,
    pacer,
    budget,
    pinned,
    send,
    meter,
    sender,
    store: deps.store,
    now,
  };
}

/** Drives one run of rows. Create it with the stored outcomes, call `run()`, and `run()` again after a halt. */
export class RowRunner {
  private readonly p: RunParts;

  constructor(input: RunnerInput, deps: RunnerDeps) {
    this.p = wire(input, deps);
  }

  /** Listens to every row update; returns the unsubscribe function. */
  subscribe(listener: (update: RowUpdate) => void): () => void {
    return this.p.book.subscribe(listener);
  }

  outcome(number: number): RowOutcome | undefined {
    return this.p.book.outcomes.get(number);
  }

  get pacing(): Pacing {
    return this.p.pacer.settings;
  }

  setPacing(pacing: Pacing): void {
    this.p.pacer.update(pacing);
    this.p.gate.setLimit(pacing.concurrency);
  }

  setBudget(maxCost: number | null): void {
    this.p.budget.maxCost = maxCost;
  }

  /** Stops sending new rows; rows in flight finish and are recorded. `run()` resolves once they have. */
  pause(): void {
    this.p.control.requestStop('pausing', PAUSED);
  }

  /** Stops now: rows in flight are aborted and, since they may have been evaluated, marked unknown. */
  cancel(): void {
    this.p.control.requestStop('cancelling', CANCELLED);
    for (const controller of this.p.book.inFlight.values())
      controller.abort(new DOMException('Run cancelled.', 'AbortError'));
  }

  /** Puts failed or unknown rows back in the queue, on the user's request (an unknown row may be billed again). */
  async retry(numbers: readonly number[]): Promise<number[]> {
    const requeued = await retryRows(this.p.book, this.p.store, this.p.now(), numbers);
    this.p.control.wake.poke();
    return requeued;
  }

  /** Rows that ended failed or unknown, by status. */
  retryable(): { failed: number[]; unknown: number[] } {
    return this.p.book.retryable();
  }

  progress(): RunProgress {
    return runProgress(this.p, this.p.sender.serviceHoldUntil, this.p.now());
  }

  /** Sends every pending row; resolves when none is left, or after a halt once the rows in flight have settled. */
  async run(): Promise<RunProgress> {
    const { book, control } = this.p;
    const signal = control.begin();
    this.p.reuse.startedAt = this.p.now();
    // Answers may have been stored since the last call (another tab, another run): look every row up afresh.
    this.p.stored.clear();
    try {
      await saveInterrupted(book, this.p.store);
      await dispatch(this.p, signal);
    } catch (error) {
      control.halt({
        reason: 'storage',
        message: `Progress could not be saved (${errorText(error)}); nothing more was sent.`,
      });
    }
    while (book.inFlight.size > 0) await control.wake.next();
    control.end(book.queue.length === 0);
    return this.progress();
  }
}
