// The open run's results: the table with its filters, the charts per question, the rows left out, and the exports.
import { useMemo, useState } from 'react';
import type { RowRun } from '../../../core/rows/records';
import type { ResultFilter, ResultRow } from '../../../core/rows/results';
import { SegmentedControl } from '../../components/SegmentedControl';
import { filterOf, useRowsView } from '../../stores/rowsView';
import { AggregateCharts } from './AggregateCharts';
import { IssueList } from './IssueList';
import { ResultsExport } from './ResultsExport';
import { ResultsFilters } from './ResultsFilters';
import { ResultsTable } from './ResultsTable';
import { useResultsData } from './useResultsData';

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
  const skipped = useMemo(() => run.issues.filter((i) => i.severity === 'skip').length, [run.issues]);
  const { columns, visible, aggregates, labelled, inputColumns } = useResultsData(
    run,
    rows,
    version,
    filter,
    tab === 'charts',
  );
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
        <ResultsExport skipped={skipped} onExport={onExport} />
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
