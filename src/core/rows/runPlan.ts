// Before a run: which rows will be sent, which will not and why, and what the whole file should cost.
import { estimateCost, MAX_REQUEST_INPUT_TOKENS, MAX_STATE_PLUS_QUESTION_TOKENS } from '../../contract';
import type { Conversation, JsonValue, Question, Questions, State } from '../../contract';
import type { RowMapping } from './mapping';
import { mapRow, rowId } from './mapping';
import type { RowIssue, SourceRow } from './parse';
import type { Pacing } from './pacer';
import type { RowOutcome } from './records';
import { pacedDurationMs } from './pacer';

/** The tokenizer's two counts a plan needs; src/contract/tokens provides them (loaded lazily in the browser). */
export interface TokenCounter {
  stateTokens(state: State): number;
  questionTokens(question: Question): number;
}

/** A row that will be sent: its state and its estimated input tokens (state plus every question). */
export interface PlannedRow {
  number: number;
  line: number;
  id: string;
  state: State;
  tokens: number;
  /** The conversation when the state is its rendering (a column mapped as a conversation). */
  conversation?: Conversation;
  /** Questions of this row when they differ from the run's (a robustness check's reordered options). */
  questions?: Questions;
  /**
   * Set on a request sent deliberately apart from one the stored-answer key cannot tell it from (a robustness
   * check's repeats, reordered options or fields): part of its key, so each is its own stored answer.
   */
  tag?: string;
}

export interface RunPlan {
  rows: PlannedRow[];
  /** Rows left out (severity 'skip') or sent with a caveat ('warn'), in line order. */
  issues: RowIssue[];
  /** Input tokens of every planned row together. */
  totalTokens: number;
  estimatedCost: number;
  /** Tokens of the questions, billed on every row. */
  questionTokens: number;
  maxRowTokens: number;
}

/** Per-request token figures for a state of `stateTokens` tokens. */
export function rowTokens(stateTokens: number, questionTotals: { sum: number; longest: number }) {
  return { total: stateTokens + questionTotals.sum, statePlusLongest: stateTokens + questionTotals.longest };
}

/** Totals of the questions: their sum (billed per row) and the longest (held with the state against 32k). */
export function questionTotals(questions: Questions, counter: Pick<TokenCounter, 'questionTokens'>) {
  let sum = 0;
  let longest = 0;
  for (const q of Object.values(questions)) {
    const n = counter.questionTokens(q);
    sum += n;
    longest = Math.max(longest, n);
  }
  return { sum, longest };
}

/** The chosen target's own context, when it states one: a row longer than it is left out before the run. */
export interface TargetContext {
  tokens: number;
  target: string;
}

/** Why a row of this size would get a 422 for its size, or null when it fits. */
export function tooLargeReason(
  total: number,
  statePlusLongest: number,
  context?: TargetContext,
): string | null {
  if (context && total > context.tokens && context.tokens < MAX_REQUEST_INPUT_TOKENS)
    return `Too large for ${context.target}: ${total} input tokens with the questions; it reads at most ${context.tokens}.`;
  if (total > MAX_REQUEST_INPUT_TOKENS) {
    return `Too large: ${total} input tokens with the questions; the limit is ${MAX_REQUEST_INPUT_TOKENS}.`;
  }
  if (statePlusLongest > MAX_STATE_PLUS_QUESTION_TOKENS) {
    return `Too large: the state plus the longest question hold ${statePlusLongest} tokens; the limit is ${MAX_STATE_PLUS_QUESTION_TOKENS}.`;
  }
  return null;
}

/**
 * Maps every row, counts its tokens and lists every row that will not be sent with its line and reason.
 * `stateTokensOf` may return a cached count for the row (the worker caches per mapping).
 */
export function planRun(
  rows: readonly SourceRow[],
  mapping: RowMapping,
  questions: Questions,
  counter: TokenCounter,
  stateTokensOf: (row: SourceRow, state: State) => number = (_row, state) => counter.stateTokens(state),
  context?: TargetContext,
): RunPlan {
  const q = questionTotals(questions, counter);
  const planned: PlannedRow[] = [];
  const issues: RowIssue[] = [];
  const firstLineOfId = new Map<string, number>();
  let totalTokens = 0;
  let maxRowTokens = 0;
  for (const row of rows) {
    const mapped = mapRow(row.data, mapping);
    if (!mapped.ok) {
      issues.push({
        line: row.line,
        number: row.number,
        kind: 'unmappable',
        severity: 'skip',
        reason: mapped.reason,
      });
      continue;
    }
    const t = rowTokens(stateTokensOf(row, mapped.state), q);
    const tooLarge = tooLargeReason(t.total, t.statePlusLongest, context);
    if (tooLarge) {
      issues.push({
        line: row.line,
        number: row.number,
        kind: 'too_large',
        severity: 'skip',
        reason: tooLarge,
      });
      continue;
    }
    const id = rowId(row, mapping);
    const seenAt = firstLineOfId.get(id);
    if (seenAt !== undefined) {
      issues.push({
        line: row.line,
        number: row.number,
        kind: 'duplicate_id',
        severity: 'warn',
        reason: `The id "${id}" was already used on line ${seenAt}; both rows run, the export tells them apart by line.`,
      });
    } else firstLineOfId.set(id, row.line);
    planned.push({
      number: row.number,
      line: row.line,
      id,
      state: mapped.state,
      tokens: t.total,
      ...(mapped.conversation ? { conversation: mapped.conversation } : {}),
    });
    totalTokens += t.total;
    maxRowTokens = Math.max(maxRowTokens, t.total);
  }
  return {
    rows: planned,
    issues,
    totalTokens,
    estimatedCost: estimateCost(totalTokens),
    questionTokens: q.sum,
    maxRowTokens,
  };
}

/** What a budget cap allows: how many rows (in order, by their estimated tokens) fit, and whether the whole plan does. */
export function budgetFit(tokens: readonly number[], maxCost: number | null) {
  if (maxCost === null) return { rowsWithin: tokens.length, fitsAll: true };
  let spent = 0;
  let i = 0;
  for (; i < tokens.length; i++) {
    const next = spent + estimateCost(tokens[i]!);
    if (next > maxCost) break;
    spent = next;
  }
  return { rowsWithin: i, fitsAll: i === tokens.length };
}

/** The expected duration of `rowCount` rows holding `totalTokens` input tokens at a pacing (ms), ignoring latency. */
export const planDurationMs = (plan: { rowCount: number; totalTokens: number }, pacing: Pacing): number =>
  pacedDurationMs(plan.rowCount, plan.rowCount === 0 ? 0 : plan.totalTokens / plan.rowCount, pacing);

/** Issues sorted by line, then record number, for listing before the run. */
export const sortIssues = (issues: readonly RowIssue[]): RowIssue[] =>
  [...issues].sort((a, b) => a.line - b.line || (a.number ?? 0) - (b.number ?? 0));

/** Rows and stored outcomes of a run, as the runner takes them, from its stored items and mapping (resume). */
export function plannedFromItems(
  items: readonly {
    number: number;
    line: number;
    id: string;
    data: JsonValue;
    tokens: number;
    outcome?: RowOutcome;
  }[],
  mapping: RowMapping,
): { rows: PlannedRow[]; outcomes: Map<number, RowOutcome>; unmappable: number[] } {
  const rows: PlannedRow[] = [];
  const outcomes = new Map<number, RowOutcome>();
  const unmappable: number[] = [];
  for (const item of items) {
    const mapped = mapRow(item.data, mapping);
    // The mapping is pure and stored with the run, so this only fails for a record edited by hand.
    if (!mapped.ok) {
      unmappable.push(item.number);
      continue;
    }
    rows.push({
      number: item.number,
      line: item.line,
      id: item.id,
      state: mapped.state,
      tokens: item.tokens,
      ...(mapped.conversation ? { conversation: mapped.conversation } : {}),
    });
    if (item.outcome) outcomes.set(item.number, item.outcome);
  }
  return { rows, outcomes, unmappable };
}
