// One imported file, held where it was parsed (the worker, or the page in tests): its rows, its problems, and plans
// against a mapping and questions, with state token counts cached per mapping so re-planning after a question edit
// does not tokenize 100,000 rows again.
import type { Questions, State } from '../../contract';
import type { RowMapping } from './mapping';
import { suggestMapping } from './mapping';
import type { ParseBatch, ParseSummary, RowIssue, SourceRow } from './parse';
import type { RunPlan, TokenCounter } from './runPlan';
import { planRun } from './runPlan';
import type { RowItem } from './records';
import { labelPlans, rowLabels } from './labels';
import type { LabelPlan } from './labels';
import type { TargetContext } from './runPlan';

/** Rows shown before the run. */
export const PREVIEW_ROWS = 20;

/** What the page needs to know about a parsed file. */
export interface ImportSummary extends ParseSummary {
  fileName: string;
  preview: SourceRow[];
  parseIssues: RowIssue[];
  /** True when every row is an object of named fields (CSV, or JSON objects). */
  objectRows: boolean;
  suggested: RowMapping;
}

/** A plan without the rows themselves (they stay where the file was parsed); cheap to post to the page. */
export interface PlanSummary {
  rowCount: number;
  issues: RowIssue[];
  totalTokens: number;
  estimatedCost: number;
  questionTokens: number;
  maxRowTokens: number;
  /** Tokens of each planned row, in order: for a budget cap's row count. */
  tokens: number[];
  /** The mapped state of the first few rows, to show what will be sent. */
  samples: { line: number; id: string; state: State }[];
  /** Each label column's value table over the whole file (absent when no column is mapped as a label). */
  labels?: LabelPlan[];
}

/** State token counts per mapping, so re-planning after a question edit does not tokenize every row again. */
class StateTokenCache {
  private readonly byMapping = new Map<string, Map<number, number>>();

  /** The counts of one mapping's states, by row number. */
  countsFor(mapping: RowMapping): Map<number, number> {
    // Keyed on what shapes the state: editing a label's value table does not count the tokens again.
    const key = JSON.stringify({ ...mapping, labels: (mapping.labels ?? []).map((l) => l.column) });
    let cache = this.byMapping.get(key);
    if (!cache) {
      // One mapping's counts are kept at a time besides the current one: enough for switching back and forth.
      if (this.byMapping.size > 2) this.byMapping.clear();
      cache = new Map();
      this.byMapping.set(key, cache);
    }
    return cache;
  }
}

/** A plan told to the page without its rows. */
function planSummaryOf(
  plan: RunPlan,
  rows: readonly SourceRow[],
  mapping: RowMapping,
  questions: Questions,
): PlanSummary {
  return {
    rowCount: plan.rows.length,
    issues: plan.issues,
    totalTokens: plan.totalTokens,
    estimatedCost: plan.estimatedCost,
    questionTokens: plan.questionTokens,
    maxRowTokens: plan.maxRowTokens,
    tokens: plan.rows.map((r) => r.tokens),
    samples: plan.rows.slice(0, 3).map((r) => ({ line: r.line, id: r.id, state: r.state })),
    ...(mapping.labels?.length ? { labels: labelPlans(rows, mapping, questions) } : {}),
  };
}

/** The planned rows as a run stores them: input, id, line, estimated tokens and the labels they carry. */
function runItems(
  runId: string,
  plan: RunPlan,
  rows: readonly SourceRow[],
  mapping: RowMapping | null,
  questions: Questions | null,
): RowItem[] {
  const dataOf = new Map(rows.map((r) => [r.number, r.data]));
  return plan.rows.map((row) => {
    const data = dataOf.get(row.number) ?? row.state;
    const labels = mapping && questions ? rowLabels(data, mapping, questions) : {};
    return {
      runId,
      number: row.number,
      line: row.line,
      id: row.id,
      data,
      tokens: row.tokens,
      ...labels,
    };
  });
}

export class ImportSession {
  private rows: SourceRow[] = [];
  private parseIssues: RowIssue[] = [];
  private readonly tokenCache = new StateTokenCache();
  private lastPlan: RunPlan | null = null;
  private lastMapping: RowMapping | null = null;
  private lastQuestions: Questions | null = null;

  constructor(readonly fileName: string) {}

  add(batch: ParseBatch): void {
    for (const r of batch.rows) this.rows.push(r);
    for (const i of batch.issues) this.parseIssues.push(i);
  }

  get rowCount(): number {
    return this.rows.length;
  }

  summary(parsed: ParseSummary): ImportSummary {
    const objectRows = this.rows.every(
      (r) => r.data !== null && typeof r.data === 'object' && !Array.isArray(r.data),
    );
    return {
      ...parsed,
      fileName: this.fileName,
      preview: this.rows.slice(0, PREVIEW_ROWS),
      parseIssues: this.parseIssues,
      objectRows,
      suggested: suggestMapping(parsed.columns, objectRows),
    };
  }

  /** Plans every row against a mapping and questions; state tokens are counted once per mapping. */
  plan(
    mapping: RowMapping,
    questions: Questions,
    counter: TokenCounter,
    context?: TargetContext,
  ): PlanSummary {
    const counts = this.tokenCache.countsFor(mapping);
    const stateTokens = (row: SourceRow, state: State): number => {
      let n = counts.get(row.number);
      if (n === undefined) {
        n = counter.stateTokens(state);
        counts.set(row.number, n);
      }
      return n;
    };
    const plan = planRun(this.rows, mapping, questions, counter, stateTokens, context);
    this.lastPlan = plan;
    this.lastMapping = mapping;
    this.lastQuestions = questions;
    return planSummaryOf(plan, this.rows, mapping, questions);
  }

  /** The stored rows of a run from the latest plan: input, id, line and estimated tokens. */
  items(runId: string): RowItem[] {
    if (!this.lastPlan) throw new Error('Plan the run before building its rows.');
    return runItems(runId, this.lastPlan, this.rows, this.lastMapping, this.lastQuestions);
  }
}
