// The lines above a labeller's row: progress, the labels this browser keeps until the workspace acknowledges them, and
// the ones it refused, each with a way to drop it.
import { useStore } from 'zustand';
import type { StoreApi, UseBoundStore } from 'zustand';
import { plural } from '../../../contract/text';
import type { OutboxState } from '../../stores/workspaceOutbox';

export interface LabellerStatusProps {
  outbox: UseBoundStore<StoreApi<OutboxState>>;
  /** The queue's progress as a sentence, once known. */
  progress: string | undefined;
}

export function LabellerStatus({ outbox, progress }: LabellerStatusProps) {
  const pending = useStore(outbox, (o) => o.pending);
  const problem = useStore(outbox, (o) => o.problem);
  const refused = useStore(outbox, (o) => o.refused);
  return (
    <>
      <p className="label-card__progress" role="status" data-testid="workspace.label.progress">
        {progress ?? 'Finding your next row…'}
      </p>
      {pending > 0 && (
        <p className="muted" role="status" data-testid="workspace.label.pending">
          {plural(pending, 'label')} kept in this browser until the workspace acknowledges{' '}
          {pending === 1 ? 'it' : 'them'}.{problem ? ` ${problem}` : ''}
        </p>
      )}
      {refused.length > 0 && (
        <ul className="error" data-testid="workspace.label.refused">
          {refused.map((r) => (
            <li key={r.clientId}>
              Row {r.label.row + 1}, {r.label.question}: {r.refusal}{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => void outbox.getState().discard(r.clientId)}
              >
                Drop this label
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
