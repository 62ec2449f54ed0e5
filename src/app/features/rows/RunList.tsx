// Stored runs: open one to see its results or resume it, delete one (its answers stay, for reuse).
import type { RowRun } from '../../../core/rows/records';
import { formatCount, formatWhen } from './format';

const STATUS: Record<RowRun['status'], string> = {
  ready: 'not started',
  running: 'interrupted',
  halted: 'stopped',
  finished: 'finished',
};

export interface RunListProps {
  runs: readonly RowRun[];
  openId: string | null;
  /** True while this tab drives the open run (its stored status says running, but it is not interrupted). */
  running: boolean;
  /** Runs another tab drives now: running there, not interrupted; they cannot be deleted from here meanwhile. */
  heldElsewhere?: readonly string[];
  busy: boolean;
  onOpen: (id: string) => void;
  onDelete: (id: string) => void;
}

/** The list of stored runs, newest first. */
export function RunList({ runs, openId, running, heldElsewhere = [], busy, onOpen, onDelete }: RunListProps) {
  if (runs.length === 0) return null;
  const elsewhere = new Set(heldElsewhere);
  return (
    <section className="rows-runs panel" aria-label="Stored runs" data-testid="rows.runs">
      <h2>Runs</h2>
      <ul>
        {runs.map((r) => (
          <li
            key={r.id}
            className={r.id === openId ? 'rows-run rows-run--open' : 'rows-run'}
            data-testid="rows.run"
          >
            <button
              type="button"
              className="link-button"
              disabled={busy || r.id === openId}
              onClick={() => onOpen(r.id)}
            >
              {r.fileName}
            </button>
            <span className="muted">
              {formatCount(r.rowCount)} rows · {r.model} · {formatWhen(r.createdAt)} ·{' '}
              <span data-testid="rows.run.status">
                {running && r.id === openId
                  ? 'running'
                  : elsewhere.has(r.id)
                    ? 'running in another tab'
                    : r.status === 'halted' && r.halt
                      ? r.halt.reason
                      : STATUS[r.status]}
              </span>
            </span>
            <button
              type="button"
              className="link-button"
              aria-label={`Delete the run of ${r.fileName}`}
              disabled={(busy && r.id === openId) || elsewhere.has(r.id)}
              onClick={() => {
                if (window.confirm(`Delete the run of ${r.fileName}? Its answers stay stored for reuse.`))
                  onDelete(r.id);
              }}
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
