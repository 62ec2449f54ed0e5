// A run's counts kept in step with its outcomes (rows per status, tokens billed and possibly billed), so progress is
// read in constant time instead of walking 100,000 rows.
import type { RowOutcome, RowStatus } from './records';

/** The input tokens an outcome counts as billed, and as possibly billed, for a row of `rowTokens` estimated tokens. */
export function outcomeTokens(
  outcome: Pick<RowOutcome, 'status' | 'inputTokens' | 'possiblyBilledAttempts'>,
  rowTokens: number,
): { billed: number; possiblyBilled: number } {
  return {
    billed: outcome.status === 'done' ? (outcome.inputTokens ?? rowTokens) : 0,
    possiblyBilled: outcome.possiblyBilledAttempts * rowTokens,
  };
}

export class RunTally {
  readonly counts: Record<RowStatus, number> = {
    pending: 0,
    sending: 0,
    done: 0,
    reused: 0,
    invalid: 0,
    failed: 0,
    unknown: 0,
  };
  /** Reused from an answer stored before this run began. */
  reusedEarlier = 0;
  /** Answered with only the questions whose answers were not stored. */
  partlyReused = 0;
  billedTokens = 0;
  possiblyBilledTokens = 0;

  /** Counts an outcome in (sign 1) or out (sign -1, the outcome it replaces). */
  account(outcome: RowOutcome, rowTokens: number, sign: 1 | -1): void {
    this.counts[outcome.status] += sign;
    if (outcome.status === 'reused' && outcome.reusedFrom === 'earlier') this.reusedEarlier += sign;
    if (outcome.status === 'done' && outcome.reusedQuestions?.length) this.partlyReused += sign;
    const tokens = outcomeTokens(outcome, rowTokens);
    this.billedTokens += sign * tokens.billed;
    this.possiblyBilledTokens += sign * tokens.possiblyBilled;
  }

  /** Rows that need nothing more from the run. */
  get settled(): number {
    const c = this.counts;
    return c.done + c.reused + c.invalid + c.failed + c.unknown;
  }
}
