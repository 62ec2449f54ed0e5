// What the results tabs show of one run: the rows the filter keeps, the charts' aggregates, the labelled questions and
// the input columns, each memoised on the run's rows snapshot so 100,000 rows are not redone on every render.
import { useDeferredValue, useMemo } from 'react';
import { leftOutColumns } from '../../../core/rows/mapping';
import type { RowRun } from '../../../core/rows/records';
import { aggregate, answerColumns, filterRows } from '../../../core/rows/results';
import type { ResultFilter, ResultRow } from '../../../core/rows/results';

/** The derived data of the results view for the given tab and filter. */
export function useResultsData(
  run: RowRun,
  rows: readonly ResultRow[],
  version: number,
  filter: ResultFilter,
  chartsShown: boolean,
) {
  const columns = useMemo(() => answerColumns(run.questions), [run.questions]);
  // Rows are updated in place: a snapshot per version gives the memos an identity that changes when they do.
  const deferredVersion = useDeferredValue(version);
  const snapshot = useMemo(() => ({ rows, version: deferredVersion }), [rows, deferredVersion]);
  // Filtering 100,000 rows is quick, but not on every keystroke in the search box.
  const deferredFilter = useDeferredValue(filter);
  const visible = useMemo(
    () => filterRows(snapshot.rows, deferredFilter, columns, run.questions),
    [snapshot, deferredFilter, columns, run.questions],
  );
  const aggregates = useMemo(
    () =>
      chartsShown
        ? aggregate(
            visible.map((i) => snapshot.rows[i]!),
            run.questions,
          )
        : [],
    [chartsShown, visible, snapshot, run.questions],
  );
  // Questions with a human label on some row: the table shows it beside the judge's answer.
  const labelled = useMemo(() => {
    const names = new Set<string>();
    for (const r of snapshot.rows) if (r.labels) for (const q of Object.keys(r.labels)) names.add(q);
    return Object.keys(run.questions).filter((q) => names.has(q));
  }, [snapshot, run.questions]);
  return { columns, visible, aggregates, labelled, inputColumns: inputColumnsOf(run) };
}

/** The input as sent: a whole-row state without its id, label and metadata columns (the human label has its own). */
function inputColumnsOf(run: RowRun): string[] {
  const mapping = run.mapping;
  return mapping.mode === 'text' || mapping.mode === 'conversation'
    ? [mapping.column]
    : mapping.mode === 'columns'
      ? mapping.columns
      : run.columns.filter((c) => c !== mapping.idColumn && !leftOutColumns(mapping).has(c));
}
