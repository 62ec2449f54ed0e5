// Label columns of a rows file: the labels one row carries, and which columns never reach the state. The page (through
// core/rows) and the command line read labels through these same functions.
import type { JsonValue, Questions } from '../../contract';
import { isRecord } from '../../contract/guards';
import { readLabel } from './values';
import type { LabelColumn, LabelValue } from './values';

/** One label to set on a stored row of a run, or to clear (null). */
export interface LabelEdit {
  number: number;
  question: string;
  value: LabelValue | null;
}

/** The labels one row's data carries in these label columns, by question; undefined when it has none. */
export function readLabels(
  data: JsonValue,
  columns: readonly LabelColumn[],
  questions: Questions,
): Record<string, LabelValue> | undefined {
  if (!columns.length || !isRecord(data)) return undefined;
  const out: Record<string, LabelValue> = {};
  for (const spec of columns) {
    const question = questions[spec.question];
    if (!question) continue;
    const reading = readLabel(data[spec.column], question, spec);
    if (reading.kind === 'ok') out[spec.question] = reading.value;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Label columns named by question (the command line's `--map label.<question>=<column>`), with no value table. */
export const labelColumnsOf = (byQuestion: Readonly<Record<string, string>>): LabelColumn[] =>
  Object.entries(byQuestion).map(([question, column]) => ({ column, question, levelBase: 0, values: {} }));

/** Columns mapped as labels or metadata: they never reach the state (the id column is left out separately). */
export function excludedColumns(leftOut: {
  labels?: readonly Pick<LabelColumn, 'column'>[];
  metadata?: readonly string[];
}): Set<string> {
  return new Set([...(leftOut.labels ?? []).map((l) => l.column), ...(leftOut.metadata ?? [])]);
}
