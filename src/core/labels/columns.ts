// Label columns of a rows file: the labels one row carries, and which columns never reach the state. The page (through
// core/rows) and the command line read labels through these same functions.
import type { LabelColumn, LabelValue } from './values';

/** One label to set on a stored row of a run, or to clear (null). */
export interface LabelEdit {
  number: number;
  question: string;
  value: LabelValue | null;
  /** The labeller, when labels are kept per annotator; absent for the row's one label. */
  annotator?: string;
}

/**
 * Label columns named by question (the command line's `--map label.<question>=<column>`, repeated for several
 * annotators), with no value table: one column per annotator, named by its column.
 */
export const labelColumnsOf = (
  byQuestion: Readonly<Record<string, string | readonly string[]>>,
): LabelColumn[] =>
  Object.entries(byQuestion).flatMap(([question, columns]) =>
    (typeof columns === 'string' ? [columns] : columns).map((column) => ({
      column,
      question,
      levelBase: 0 as const,
      values: {},
    })),
  );

/** Columns mapped as labels or metadata: they never reach the state (the id column is left out separately). */
export function excludedColumns(leftOut: {
  labels?: readonly Pick<LabelColumn, 'column'>[];
  metadata?: readonly string[];
}): Set<string> {
  return new Set([...(leftOut.labels ?? []).map((l) => l.column), ...(leftOut.metadata ?? [])]);
}
