// The open run's results: the table with its filters, the charts per question, the rows left out, and the exports.
import { useDeferredValue, useMemo, useState } from 'react';
import { leftOutColumns } from '../../../core/rows/mapping';
import type { RowRun } from '../../../core/rows/records';
import { aggregate, answerColumns, filterRows } from '../../../core/rows/results';
import type { ResultFilter, ResultRow } from '../../../core/rows/results';
import { SegmentedControl } from '../../components/SegmentedControl';
import { filterOf, useRowsView } from '../../stores/rowsView';
import { AggregateCharts } from './AggregateCharts';
import { IssueList } from './IssueList';
import { ResultsFilters } from './ResultsFilters';
import { ResultsTable } from './ResultsTable';

type Tab = 'table' | 'charts' | 'issues';

export interface ResultsViewProps {
  run: RowRun;
  rows: readonly ResultRow[];
  /** Changes whenever rows change (they are updated in place). */
  version: number;
  /** `leftOut`: the lines never sent come too, so the export has one line per line of the file. */
  onExport: (kind: 'csv' | 'jsonl', options: { leftOut: boolean }) => void;
}

/** Tabs over the results of one run. */
export function ResultsView({ run, rows, version, onExport }: ResultsViewProps) {
  const [tab, setTab] = useState<Tab>('table');
  // Kept in a store, so the alignment screen can open a confusion cell's rows here.
  const filter = useRowsView((s) => filterOf(s, run.id));
  const setFilter = (next: ResultFilter) => useRowsView.getState().setFilter(run.id, next);
  const [withLeftOut, setWithLeftOut] = useState(false);
  const skipped = useMemo(() => run.issues.filter((i) => i.severity === 'skip').length, [run.issues]);
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
      tab === 'charts'
        ? aggregate(
            visible.map((i) => snapshot.rows[i]!),
            run.questions,
          )
        : [],
    [tab, visible, snapshot, run.questions],
  );
  // Questions with a human label on some row: the table shows it beside the judge's answer.
  const labelled = useMemo(() => {
    const names = new Set<string>();
    for (const r of snapshot.rows) if (r.labels) for (const q of Object.keys(r.labels)) names.add(q);
    return Object.keys(run.questions).filter((q) => names.has(q));
  }, [snapshot, run.questions]);
  // The input as sent: a whole-row state without its id, label and metadata columns (the human label has its own).
  const mapping = run.mapping;
  const inputColumns =
    mapping.mode === 'text' || mapping.mode === 'conversation'
      ? [mapping.column]
      : mapping.mode === 'columns'
        ? mapping.columns
        : run.columns.filter((c) => c !== mapping.idColumn && !leftOutColumns(mapping).has(c));
  return (
    <section className="rows-results" aria-label="Results" data-testid="rows.results">
      <div className="rows-results__bar">
        <SegmentedControl
          label="Results view"
          value={tab}
          onChange={setTab}
          testId="rows.tabs"
          options={[
            { value: 'table', label: 'Table' },
            { value: 'charts', label: 'Charts' },
            { value: 'issues', label: `Left out (${run.issues.length})` },
          ]}
        />
        <span className="rows-results__export">
          Export with row ids, model and usage:
          <button
            type="button"
            onClick={() => onExport('csv', { leftOut: withLeftOut })}
            data-testid="rows.export.csv"
          >
            CSV
          </button>
          <button
            type="button"
            onClick={() => onExport('jsonl', { leftOut: withLeftOut })}
            data-testid="rows.export.jsonl"
          >
            JSONL
          </button>
          <label title="Adds a line for each line of the file that was not sent, with its line number and reason, so the export joins back to the file line by line.">
            <input
              type="checkbox"
              checked={withLeftOut}
              disabled={skipped === 0}
              onChange={(e) => setWithLeftOut(e.target.checked)}
              data-testid="rows.export.leftOut"
            />
            with the {skipped} line(s) left out
          </label>
        </span>
      </div>
      {tab !== 'issues' && (
        <ResultsFilters
          filter={filter}
          columns={columns}
          questions={run.questions}
          onChange={setFilter}
          shown={visible.length}
          total={rows.length}
        />
      )}
      {tab === 'table' && (
        <ResultsTable
          rows={rows}
          visible={visible}
          columns={columns}
          inputColumns={inputColumns}
          labelled={labelled}
          questions={run.questions}
        />
      )}
      {tab === 'charts' && <AggregateCharts aggregates={aggregates} />}
      {tab === 'issues' &&
        (run.issues.length ? (
          <IssueList issues={run.issues} title="Lines of the file that were not sent" />
        ) : (
          <p className="muted">Every row of the file was sent.</p>
        ))}
    </section>
  );
}
