// A save that failed: the store's sentence, how much of the browser's room this site uses when it is full, what
// deleting would free, and the two ways out (try again, export the unsaved work).
import type { SaveStatus } from '../../persistence/autosave';
import type { SpaceUse } from '../../persistence/sessionsRepo';

const mb = (bytes: number): string => `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`;

export interface SaveFailedNoticeProps {
  save: SaveStatus;
  storageUse?: { usage: number; quota: number } | undefined;
  freeable: readonly SpaceUse[];
  onDeleteSession?: ((id: string) => void) | undefined;
  onRetry: () => void;
  onExportUnsaved: () => void;
}

export function SaveFailedNotice({ save, storageUse, freeable, ...actions }: SaveFailedNoticeProps) {
  return (
    <div className="save-status is-failed" role="alert" data-testid="sessions.saveStatus" data-state="failed">
      <p>{save.message}</p>
      {save.quota && storageUse && (
        <p className="muted">
          This site uses {mb(storageUse.usage)} of {mb(storageUse.quota)} the browser allows.
        </p>
      )}
      {save.quota && freeable.length > 0 && (
        <FreeableList freeable={freeable} onDeleteSession={actions.onDeleteSession} />
      )}
      <div className="save-status-buttons">
        <button type="button" onClick={actions.onRetry} data-testid="sessions.retrySave">
          Try again
        </button>
        <button type="button" onClick={actions.onExportUnsaved} data-testid="sessions.exportUnsaved">
          Export unsaved work
        </button>
      </div>
    </div>
  );
}

interface FreeableListProps {
  freeable: readonly SpaceUse[];
  onDeleteSession?: ((id: string) => void) | undefined;
}

/** What takes the most room, each session with a button that deletes it. */
function FreeableList({ freeable, onDeleteSession }: FreeableListProps) {
  return (
    <div data-testid="sessions.freeable">
      <p>Deleting one of these frees the most space:</p>
      <ul className="save-status-freeable">
        {freeable.map((f) => (
          <li key={`${f.kind}:${f.id}`}>
            {f.kind === 'session' ? `the session “${f.name}”` : `the run of ${f.name} (rows screen)`}, about{' '}
            {mb(f.bytes)}
            {f.kind === 'session' && onDeleteSession && (
              <>
                {' '}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => onDeleteSession(f.id)}
                  aria-label={`Delete the session ${f.name} to free ${mb(f.bytes)}`}
                >
                  Delete
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
