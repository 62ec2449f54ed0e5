// The alignment screen before a run is open: the stored runs to open, and the session's kept report.
import type { AlignmentSummary } from '../../../core/alignment/report';
import type { RowsState } from '../../stores/rows';
import { StoredReport } from './StoredReport';

export interface AlignmentRunPickerProps {
  rows: RowsState;
  /** The open session's kept alignment report, shown below the list. */
  stored: AlignmentSummary | undefined;
}

export function AlignmentRunPicker({ rows, stored }: AlignmentRunPickerProps) {
  return (
    <div className="align-screen" data-testid="align.screen">
      <section className="panel">
        <h2>Alignment with human labels</h2>
        {rows.loadingRun && <p role="status">Opening the run…</p>}
        <p>
          Open a run of rows to measure its answers against people’s labels. Map a label column when you
          import the file on the rows screen, or label rows here.
        </p>
        {rows.runs.length > 0 ? (
          <ul className="align-runs">
            {rows.runs.map((r) => (
              <li key={r.id}>
                <button
                  type="button"
                  onClick={() => void rows.openRunById(r.id)}
                  data-testid="align.run.open"
                >
                  {r.fileName}
                </button>{' '}
                <span className="muted">
                  {r.rowCount} rows · {r.model} · {new Date(r.createdAt).toLocaleString()}
                  {r.variantOf ? ' · variant' : ''}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No run is stored yet.</p>
        )}
      </section>
      {stored && <StoredReport summary={stored} />}
    </div>
  );
}
