// The sessions sidebar: new, search, the list with its actions, import and export, sharing, the save line and the
// toast; plus the preview of a share link the page was opened with.
import { useCallback, useEffect, useState } from 'react';
import { useFileRunTally } from '../../stores/fileRunTally';
import { useSessions } from '../../stores/sessions';
import type { SessionsStore } from '../../stores/sessions';
import { downloadText } from './browserFiles';
import { IncomingShareDialog } from './IncomingShareDialog';
import { NoticeToast } from './NoticeToast';
import { askPersistentStorageAgain } from '../../persistence/storageManager';
import { SaveStatusLine } from './SaveStatusLine';
import { SessionFiles } from './SessionFiles';
import { SessionList } from './SessionList';
import { useStartSessions } from './connect';
import { ShareDialog } from './ShareDialog';
import { useExportSessions } from './useExportSessions';
import './sessions.css';

interface SessionsSidebarProps {
  /** The store to show; the app's by default (started on mount), a fresh one in tests (started by the test). */
  store?: SessionsStore;
}

/** The sidebar. */
export function SessionsSidebar({ store = useSessions }: SessionsSidebarProps) {
  useStartSessions(store === useSessions);
  const phase = store((s) => s.phase);
  const restored = store((s) => s.restored);
  const list = store((s) => s.list);
  // The stored file runs are read once here; the rows store keeps the tally current after that.
  useEffect(() => {
    void useFileRunTally.getState().refresh();
  }, []);
  const notice = store((s) => s.notice);
  const incomingShare = store((s) => s.incomingShare);
  const actions = store.getState();

  const [sharingId, setSharingId] = useState<string | null>(null);
  const dismissNotice = useCallback(() => store.getState().dismissNotice(), [store]);
  const exportSessions = useExportSessions(store);
  const sharing = sharingId ? list.find((s) => s.id === sharingId) : undefined;

  return (
    <aside
      className="sessions-sidebar"
      aria-label="Sessions"
      data-testid="sessions.sidebar"
      data-phase={phase}
      data-restored={restored ? 'true' : 'false'}
    >
      <div className="sessions-header">
        <h2>Sessions</h2>
        <button
          type="button"
          className="primary"
          onClick={() => void actions.newSession()}
          data-testid="sessions.new"
        >
          New
        </button>
      </div>
      <SessionList
        store={store}
        loading={phase === 'loading'}
        onExport={exportSessions}
        onShare={setSharingId}
      />
      <SessionFiles store={store} onExport={exportSessions} />
      <SessionsSaveLine store={store} opening={phase === 'idle' || phase === 'loading'} />
      {notice && (
        <NoticeToast notice={notice} onUndo={(id) => void actions.undoRemove(id)} onClose={dismissNotice} />
      )}
      {sharing && <ShareDialog session={sharing} share={actions.share} onClose={() => setSharingId(null)} />}
      {incomingShare && (
        <IncomingShareDialog
          incoming={incomingShare}
          onImport={() => void actions.acceptShare()}
          onDismiss={() => void actions.dismissShare()}
        />
      )}
    </aside>
  );
}

/** The save line over the store: what is saved, where, how much room is left, and the ways out when it fails. */
function SessionsSaveLine({ store, opening }: { store: SessionsStore; opening: boolean }) {
  const save = store((s) => s.save);
  const persistence = store((s) => s.persistence);
  const storageUse = store((s) => s.storageUse);
  const unavailableMessage = store((s) => s.unavailableMessage);
  const freeable = store((s) => s.freeable);
  const actions = store.getState();
  const exportUnsaved = (): void => {
    const file = actions.exportUnsaved();
    if (file) downloadText(file.fileName, file.text);
  };
  return (
    <SaveStatusLine
      save={save}
      persistence={persistence}
      storageUse={storageUse}
      unavailableMessage={unavailableMessage}
      opening={opening}
      freeable={freeable}
      onDeleteSession={(id) => void actions.remove(id)}
      onRetry={() => void actions.retrySave()}
      onExportUnsaved={exportUnsaved}
      onAskPersistence={() =>
        void askPersistentStorageAgain().then((persistence) => store.setState({ persistence }))
      }
    />
  );
}
