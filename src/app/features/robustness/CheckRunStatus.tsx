// The robustness check's budget before anything is sent, its Run and Cancel, the plan's notes and the run's progress.
import { formatCost } from '../../../contract';
import { LOCAL_COST_WORDS } from '../../../core/words';
import type { ReadyCheck, RobustnessState } from './robustnessStore';

export interface CheckRunStatusProps {
  /** Why there is nothing to check, or null. */
  unavailable: string | null;
  ready: ReadyCheck | null;
  /** Whether the ready plan was made for the screen as it is now (never without a ready plan). */
  current: boolean;
  canRun: boolean;
  running: boolean;
  progress: RobustnessState['progress'];
  onRun: () => void;
  onCancel: () => void;
  targetLabelOf: (id: string) => string;
}

export function CheckRunStatus(props: CheckRunStatusProps) {
  const { unavailable, ready, current, running, progress } = props;
  const total = ready?.plan.rows.length ?? 0;
  const settled = progress
    ? progress.done + progress.reused + progress.failed + progress.invalid + progress.unknown
    : 0;
  return (
    <>
      <div className="robustness-dialog__run">
        <p role="status" aria-live="polite" data-testid="robustness.budget" className="num">
          {unavailable ??
            (!current || !ready
              ? 'Working out the budget…'
              : `${ready.budgetText}${ready.targetId === 'local' ? ` (${LOCAL_COST_WORDS})` : ''}, with ${ready.model} on ${props.targetLabelOf(ready.targetId)}`)}
        </p>
        {running ? (
          <button type="button" onClick={props.onCancel} data-testid="robustness.cancel">
            Cancel
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            onClick={props.onRun}
            disabled={!props.canRun}
            data-testid="robustness.run"
          >
            Run check
          </button>
        )}
      </div>
      {ready && current && ready.notes.length > 0 && !unavailable && (
        <ul className="robustness-dialog__notes muted">
          {ready.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {running && (
        <p data-testid="robustness.progress" className="num">
          {settled} of {total} requests settled
          {ready?.inputPrice === null ? '' : `, about ${formatCost(progress?.cost ?? 0)} so far`}
        </p>
      )}
    </>
  );
}
