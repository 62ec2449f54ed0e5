// Sending one row: it is marked `sending` and saved before it leaves (so a crash leaves it unknown, never re-sent
// silently), asked of the service with only the questions no stored answer holds, paced on every retry, and handed to
// the settler with whatever came back. A 429 holds every send, not just this row's.
import { CONVERSATION_FIELD } from '../../contract';
import type { Questions } from '../../contract';
import type { EvaluateResult } from '../../contract/evaluateCall';
import type { SendBase } from './failure';
import type { LookedUp } from './lookAhead';
import { NOTHING_FOUND } from './lookAhead';
import type { Pacer, RateMeter } from './pacer';
import { questionsLeft } from './questionReuse';
import type { RowOutcome, StoredAnswer } from './records';
import type { RunBudget } from './runBudget';
import type { PlannedRow } from './runPlan';
import type { TwinRequests } from './runReuse';
import type { RowSettler, SettleParts } from './rowSettle';
import { sendBase, storedAnswer } from './rowSettle';
import { errorClause as errorText } from '../../contract/text';

/** What the sender is handed: the run's parts, and the settler that records what came back. */
export interface SendParts extends SettleParts {
  twins: TwinRequests;
  pacer: Pacer;
  meter: RateMeter;
  budget: RunBudget;
  settle: RowSettler;
}

/** Sends rows, one request each, and settles them. */
export class RowSender {
  /** Until when the service asked us to wait (epoch ms of the latest 429's Retry-After). */
  serviceHoldUntil = 0;

  constructor(private readonly p: SendParts) {}

  /** Sends `row` (its stored answers looked up as `looked`) and settles it, its twins waiting on it too. */
  async send(row: PlannedRow, looked: LookedUp | undefined): Promise<void> {
    const { book, settle } = this.p;
    const questions = this.p.stored.questionsOf(row);
    const found = looked?.found ?? NOTHING_FOUND;
    const controller = new AbortController();
    book.inFlight.set(row.number, controller);
    const base = sendBase(book.outcomes.get(row.number));
    let answer: StoredAnswer | undefined;
    let sent = false;
    try {
      await this.markSending(row, base, controller.signal);
      this.p.meter.record(this.p.deps.clock.now());
      sent = true;
      const hold = (until: number) => (this.serviceHoldUntil = Math.max(this.serviceHoldUntil, until));
      const result = await askService(this.p, row, questions, found, controller.signal, hold);
      answer = await storedAnswer(this.p, row, looked, questions, found, result.response);
      await settle.answered(row, base, result, answer, found);
    } catch (error) {
      if (answer) settle.unsaved(row, answer, found, error);
      else
        await settle.failed(row, base, error, sent).catch((storeError: unknown) => {
          this.p.control.halt({
            reason: 'storage',
            message: `Progress could not be saved (${errorText(storeError)}); the run stopped.`,
          });
        });
    } finally {
      this.p.budget.release(row.tokens);
      if (looked !== undefined) await this.p.twins.settleFollowers(looked.key, answer);
      // Deleted last: run() ends when nothing is in flight, and the followers above must be settled by then.
      book.inFlight.delete(row.number);
      this.p.control.wake.poke();
    }
  }

  /** Saves the row as `sending` before it leaves; throws if the run was cancelled meanwhile. */
  private async markSending(row: PlannedRow, base: SendBase, signal: AbortSignal): Promise<void> {
    const sending: RowOutcome = { ...base, status: 'sending', at: this.p.deps.clock.now() };
    await this.p.deps.store.saveOutcome(row.number, sending);
    this.p.book.setOutcome(row, sending);
    if (signal.aborted) throw signal.reason;
  }
}

/** The service's answer to the row's questions that no stored answer holds; `onHold` hears of every 429's wait. */
export function askService(
  p: SendParts,
  row: PlannedRow,
  questions: Questions,
  found: ReadonlyMap<string, StoredAnswer>,
  signal: AbortSignal,
  onHold: (until: number) => void,
): Promise<EvaluateResult> {
  const { deps, input, pacer } = p;
  return deps.evaluate(
    input.target,
    {
      state: row.state,
      model: input.model,
      // Only the questions with no stored answer: the service bills what it is sent.
      questions: found.size > 0 ? questionsLeft(questions, found) : questions,
      // A Decisions target reads the conversation itself; the proxy removes it for every other target.
      ...(row.conversation ? { [CONVERSATION_FIELD]: row.conversation } : {}),
    },
    {
      signal,
      timeoutMs: input.timeoutMs,
      now: () => deps.clock.now(),
      random: deps.random,
      // A 429 means the key's budget is spent for every row, not just this one: hold all sends until it refills.
      onAttempt: (attempt) => {
        if (attempt.outcome === 429 && attempt.retryInMs !== undefined) {
          const until = deps.clock.now() + attempt.retryInMs;
          pacer.holdUntil(until);
          onHold(until);
        }
      },
      // A retry is a request too: it waits for its backoff, then for a paced slot like any other send.
      sleep: async (ms, sleepSignal) => {
        await deps.clock.sleep(ms, sleepSignal);
        await pacer.acquire(row.tokens, sleepSignal);
      },
    },
  );
}
