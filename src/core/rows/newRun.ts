// The records of a new run, built from a parsed file and its plan: what rowsRepo.createRun stores.
import type { Questions } from '../../contract';
import type { RowMapping } from './mapping';
import type { Pacing } from './pacer';
import type { RowFormat, RowIssue, SourceRow } from './parse';
import { ROWS_SCHEMA_VERSION } from './records';
import type { RowItem, RowRun } from './records';
import type { RunPlan } from './runPlan';
import { sortIssues } from './runPlan';
import { rowLabels } from './labels';

export interface NewRunInput {
  id: string;
  now: number;
  fileName: string;
  format: RowFormat;
  columns: string[];
  sessionId?: string;
  targetId: string;
  model: string;
  questions: Questions;
  mapping: RowMapping;
  pacing: Pacing;
  maxCost: number | null;
  timeoutMs?: number;
  /** Every source row of the file (the plan keeps only what it sends). */
  sources: readonly SourceRow[];
  /** Problems found while parsing (malformed lines, empty rows). */
  parseIssues: readonly RowIssue[];
  plan: RunPlan;
}

/** The run record and one item per planned row; every issue, from parsing and planning, is kept with the run. */
export function buildRun(input: NewRunInput): { run: RowRun; items: RowItem[] } {
  const dataOf = new Map(input.sources.map((s) => [s.number, s.data]));
  const items: RowItem[] = input.plan.rows.map((row) => {
    const data = dataOf.get(row.number) ?? row.state;
    const labels = rowLabels(data, input.mapping, input.questions);
    return {
      runId: input.id,
      number: row.number,
      line: row.line,
      id: row.id,
      data,
      tokens: row.tokens,
      ...labels,
    };
  });
  const run: RowRun = {
    schemaVersion: ROWS_SCHEMA_VERSION,
    id: input.id,
    ...(input.sessionId ? { sessionId: input.sessionId } : {}),
    fileName: input.fileName,
    format: input.format,
    columns: input.columns,
    createdAt: input.now,
    updatedAt: input.now,
    targetId: input.targetId,
    model: input.model,
    questions: input.questions,
    mapping: input.mapping,
    pacing: input.pacing,
    maxCost: input.maxCost,
    ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}),
    rowCount: items.length,
    issues: sortIssues([...input.parseIssues, ...input.plan.issues]),
    totalTokens: input.plan.totalTokens,
    status: 'ready',
    halt: null,
  };
  return { run, items };
}
