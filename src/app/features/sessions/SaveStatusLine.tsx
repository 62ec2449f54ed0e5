// The save line: saved / saving / waiting, and when saving fails (a full disk above all) what to do, with the
// unsaved change one click from a file. Also whether the browser may evict the sessions.
import type { SaveStatus } from '../../persistence/autosave';
import type { SpaceUse } from '../../persistence/sessionsRepo';
import type { Persistence } from '../../persistence/storageManager';
import { SaveFailedNotice } from './SaveFailedNotice';

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
      <SaveFailedNotice
        save={save}
        storageUse={storageUse}
        freeable={freeable}
        onDeleteSession={onDeleteSession}
        onRetry={onRetry}
        onExportUnsaved={onExportUnsaved}
      />
    );
  }
  if (opening) {
    return (
      <div className="save-status" data-testid="sessions.saveStatus" data-state="opening">
        <span role="status">Opening the session store…</span>
      </div>
    );
  }
  return <SavedLine save={save} persistence={persistence} onAskPersistence={onAskPersistence} />;
}

type SavedLineProps = Pick<SaveStatusLineProps, 'save' | 'persistence' | 'onAskPersistence'>;

/** Saved, saving or waiting, and whether the browser may clear the sessions. */
function SavedLine({ save, persistence, onAskPersistence }: SavedLineProps) {
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
