// The session's earlier runs on the main screen: pick one to see it as it was. Comparison columns' runs are compare
// mode's, not listed here.
import type { RunRecord } from '../../../core/session';

export interface RunHistoryProps {
  /** The session's single runs, oldest first. */
  runs: readonly RunRecord[];
  currentId: string | undefined;
  disabled: boolean;
  onShow: (runId: string) => void;
}

/** What a run came to, in a word. */
export const runOutcome = (run: RunRecord): string =>
  run.response ? 'answered' : run.error?.kind === 'cancelled' ? 'cancelled' : 'failed';

const runLabel = (run: RunRecord): string => {
  const at = new Date(run.at);
  const when = Number.isNaN(at.getTime())
    ? run.at
    : at.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
  return `${when} · ${run.request.model} · ${runOutcome(run)}`;
};

/** A select of the runs, newest first; shown once there is more than one. */
export function RunHistory({ runs, currentId, disabled, onShow }: RunHistoryProps) {
  if (runs.length < 2) return null;
  const newestFirst = [...runs].reverse();
  const known = newestFirst.some((r) => r.id === currentId);
  return (
    <label className="run-history">
      <span className="visually-hidden">Run on show</span>
      <select
        value={known ? currentId : ''}
        disabled={disabled}
        onChange={(e) => onShow(e.target.value)}
        data-testid="answers.history"
      >
        {!known && <option value="">Latest attempt (not saved)</option>}
        {newestFirst.map((r, i) => (
          <option key={r.id} value={r.id}>
            {i === 0 ? 'Latest: ' : ''}
            {runLabel(r)}
          </option>
        ))}
      </select>
    </label>
  );
}
