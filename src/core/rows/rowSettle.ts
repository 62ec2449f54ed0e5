// Settling a sent row: what its answer is stored as (keys, merged per-question answers), its outcome when answered,
// when answered but not stored, and when it failed (failure.ts says what a failure means for the row and the run).
import type { EvaluateResponse, Questions } from '../../contract';
import type { EvaluateResult } from '../../contract/evaluateCall';
import { errorClause as errorText } from '../../contract/text';
import type { AnswerIdentity } from './dedup';
import { classifyFailure } from './failure';
import type { SendBase } from './failure';
import type { LookAhead, LookedUp } from './lookAhead';
import { mergedResponse } from './questionReuse';
import type { RowOutcome, StoredAnswer } from './records';
import type { RunBook } from './runBook';
import type { RunControl } from './runControl';
import type { PlannedRow } from './runPlan';
import type { RunnerDeps, RunnerInput } from './runTypes';

/** What the settler is handed: the run's parts it records into. */
export interface SettleParts {
  input: RunnerInput;
  deps: RunnerDeps;
  book: RunBook;
  control: RunControl;
  stored: LookAhead;
  keyOf: (id: AnswerIdentity) => Promise<string>;
  pinned: string | null;
}

/** The counts a row carries from its earlier attempts into this one. */
export function sendBase(previous: RowOutcome | undefined): SendBase {
  return {
    attempts: previous?.attempts ?? 0,
    possiblyBilledAttempts: previous?.possiblyBilledAttempts ?? 0,
    requeues: previous?.requeues ?? 0,
  };
}

/** What the outcome says of the stored answers taken, whether or not the answer could then be saved. */
const reusedQuestionsOf = (found: ReadonlyMap<string, StoredAnswer>) =>
  found.size > 0 ? { reusedQuestions: [...found.keys()] } : {};

/** The answer to store for `response`, under its dedup key and (where the store reads them) its question keys. */
export async function storedAnswer(
  p: SettleParts,
  row: PlannedRow,
  looked: LookedUp | undefined,
  questions: Questions,
  found: ReadonlyMap<string, StoredAnswer>,
  response: EvaluateResponse,
): Promise<StoredAnswer> {
  const { stored, deps } = p;
  // Answered by the pinned model it was looked up under (the usual case): the same identity, so the same key.
  const asLookedUp = looked !== undefined && response.model === p.pinned;
  const key = asLookedUp ? looked.key : await p.keyOf(stored.identity(row, response.model));
  const questionKeys = !deps.store.findQuestionAnswers
    ? undefined
    : asLookedUp && looked.questionKeys
      ? looked.questionKeys
      : await stored.questionKeysOf(row, response.model);
  return {
    key,
    targetId: p.input.targetId,
    model: response.model,
    // Found answers are the pinned model's, and a pinned (versioned) id answers as itself (contract: `model`).
    response: found.size > 0 ? mergedResponse(questions, found, response, response.model) : response,
    at: deps.clock.now(),
    ...(questionKeys ? { questionKeys: [...questionKeys] } : {}),
  };
}

/** Records what became of each sent row. */
export class RowSettler {
  constructor(private readonly p: SettleParts) {}

  /** The row is answered: its outcome and answer are saved together, and the failing streak ends. */
  async answered(
    row: PlannedRow,
    base: SendBase,
    result: EvaluateResult,
    answer: StoredAnswer,
    found: ReadonlyMap<string, StoredAnswer>,
  ): Promise<void> {
    const response = result.response;
    const outcome: RowOutcome = {
      status: 'done',
      at: answer.at,
      attempts: base.attempts + result.attempts.length,
      possiblyBilledAttempts: base.possiblyBilledAttempts + result.possiblyBilledAttempts,
      requeues: base.requeues,
      latencyMs: result.latencyMs,
      requestId: result.requestId,
      answerKey: answer.key,
      model: response.model,
      inputTokens: response.usage.input_tokens,
      ...reusedQuestionsOf(found),
    };
    this.p.control.resetStreak();
    await this.p.deps.store.saveAnswered(row.number, outcome, answer);
    this.p.stored.answerStored(answer.key);
    this.p.book.setOutcome(row, outcome, answer);
  }

  /** Answered, but the answer could not be stored: kept in memory (results and export still have it) and the run stops. */
  unsaved(
    row: PlannedRow,
    answer: StoredAnswer,
    found: ReadonlyMap<string, StoredAnswer>,
    error: unknown,
  ): void {
    const outcome = this.p.book.outcomes.get(row.number);
    if (outcome?.status === 'sending') {
      this.p.book.setOutcome(
        row,
        {
          ...outcome,
          status: 'done',
          answerKey: answer.key,
          model: answer.model,
          inputTokens: answer.response.usage.input_tokens,
          ...reusedQuestionsOf(found),
        },
        answer,
      );
    }
    this.p.control.halt({
      reason: 'storage',
      message: `An answer could not be saved (${errorText(error)}); the run stopped.`,
    });
  }

  /** The row failed: requeued, settled failed or unknown, or the run halts, as failure.ts's verdict says. */
  async failed(row: PlannedRow, base: SendBase, error: unknown, sent: boolean): Promise<void> {
    const { book, control } = this.p;
    const verdict = classifyFailure(error, base, this.p.deps.clock.now(), sent);
    if (verdict.requeue === 'front') book.queue.unshift(row.number);
    else if (verdict.requeue === 'back') book.queue.push(row.number);
    if (verdict.halt) control.halt(verdict.halt);
    if (verdict.streak === 'reset') control.resetStreak();
    else if (verdict.streak === 'bump') control.bumpStreak(verdict.outcome.error?.message ?? '');
    book.setOutcome(row, verdict.outcome);
    await this.p.deps.store.saveOutcome(row.number, verdict.outcome);
    // A store that failed before the row left stops the run, unless it was stopping anyway.
    if (verdict.notSent && !control.stopping) throw error;
  }
}
