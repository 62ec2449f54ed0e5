// The save line: saved / saving / waiting, and when saving fails (a full disk above all) what to do, with the
// unsaved change one click from a file. Also whether the browser may evict the sessions.
import type { SaveStatus } from '../../persistence/autosave';
import type { SpaceUse } from '../../persistence/sessionsRepo';
import type { Persistence } from '../../persistence/storageManager';

interface SaveStatusLineProps {
  save: SaveStatus;
  persistence: Persistence | 'unknown';
  storageUse?: { usage: number; quota: number };
  unavailableMessage?: string;
  /** True while the store is still opening: nothing is saved yet, so nothing is claimed. */
  opening?: boolean;
  /** When the store is full: what deleting would free. */
  freeable?: readonly SpaceUse[];
  onDeleteSession?: (id: string) => void;
  onRetry: () => void;
  onExportUnsaved: () => void;
  /** Asks the browser again for persistent storage. */
  onAskPersistence?: () => void;
}

const mb = (bytes: number): string => `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`;
const clock = (iso: string): string => new Date(iso).toLocaleTimeString(undefined, { timeStyle: 'short' });

/** Storage health under the session list. */
export function SaveStatusLine({
  save,
  persistence,
  storageUse,
  unavailableMessage,
  opening = false,
  freeable = [],
  onDeleteSession,
  onRetry,
  onExportUnsaved,
  onAskPersistence,
}: SaveStatusLineProps) {
  if (unavailableMessage) {
    return (
      <div
        className="save-status is-failed"
        role="alert"
        data-testid="sessions.saveStatus"
        data-state="unavailable"
      >
        <p>{unavailableMessage}</p>
        <button type="button" onClick={onExportUnsaved}>
          Export this session
        </button>
      </div>
    );
  }
  if (save.state === 'failed') {
    return (
      <div
        className="save-status is-failed"
        role="alert"
        data-testid="sessions.saveStatus"
        data-state="failed"
      >
        <p>{save.message}</p>
        {save.quota && storageUse && (
          <p className="muted">
            This site uses {mb(storageUse.usage)} of {mb(storageUse.quota)} the browser allows.
          </p>
        )}
        {save.quota && freeable.length > 0 && (
          <div data-testid="sessions.freeable">
            <p>Deleting one of these frees the most space:</p>
            <ul className="save-status-freeable">
              {freeable.map((f) => (
                <li key={`${f.kind}:${f.id}`}>
                  {f.kind === 'session' ? `the session “${f.name}”` : `the run of ${f.name} (rows screen)`},
                  about {mb(f.bytes)}
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
        )}
        <div className="save-status-buttons">
          <button type="button" onClick={onRetry} data-testid="sessions.retrySave">
            Try again
          </button>
          <button type="button" onClick={onExportUnsaved} data-testid="sessions.exportUnsaved">
            Export unsaved work
          </button>
        </div>
      </div>
    );
  }
  if (opening) {
    return (
      <div className="save-status" data-testid="sessions.saveStatus" data-state="opening">
        <span role="status">Opening the session store…</span>
      </div>
    );
  }
  const text =
    save.state === 'saving'
      ? 'Saving…'
      : save.state === 'pending'
        ? 'Unsaved changes…'
        : save.savedAt
          ? `All changes saved (${clock(save.savedAt)})`
          : 'All changes saved';
  return (
    <div className="save-status" data-testid="sessions.saveStatus" data-state={save.state}>
      <span role="status">{text}</span>
      {persistence === 'refused' && (
        // In the open, not in a hover title: keyboard and touch users need the explanation and the action too.
        <details className="save-status-persist" data-testid="sessions.persistence">
          <summary className="muted">Storage not persistent</summary>
          <p className="muted">
            The browser keeps this site&apos;s data on a best-effort basis and may clear it when the disk runs
            low. Export sessions you cannot lose, or ask the browser to keep them.
          </p>
          {onAskPersistence && (
            <button type="button" onClick={onAskPersistence} data-testid="sessions.askPersistence">
              Ask the browser to keep them
            </button>
          )}
        </details>
      )}
    </div>
  );
}
