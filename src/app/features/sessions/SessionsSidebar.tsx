// The sessions sidebar: new, search, the list with its actions, import and export, sharing, the save line and the
// toast; plus the preview of a share link the page was opened with.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChangeEvent } from 'react';
import { useFileRunTally } from '../../stores/fileRunTally';
import { useSessions, visibleSessions } from '../../stores/sessions';
import type { SessionsStore } from '../../stores/sessions';
import { downloadText, readFileText } from './browserFiles';
import { IncomingShareDialog } from './IncomingShareDialog';
import { NoticeToast } from './NoticeToast';
import { askPersistentStorageAgain } from '../../persistence/storageManager';
import { SaveStatusLine } from './SaveStatusLine';
import { SessionItem } from './SessionItem';
import { useStartSessions } from './connect';
import { ShareDialog } from './ShareDialog';
import './sessions.css';

interface SessionsSidebarProps {
  /** The store to show; the app's by default (started on mount), a fresh one in tests (started by the test). */
  store?: SessionsStore;
}

/** The sidebar. */
const NO_FILE_RUNS: readonly { rowCount: number }[] = [];

export function SessionsSidebar({ store = useSessions }: SessionsSidebarProps) {
  useStartSessions(store === useSessions);
  const phase = store((s) => s.phase);
  const restored = store((s) => s.restored);
  const list = store((s) => s.list);
  const query = store((s) => s.query);
  const openId = store((s) => s.openId);
  const unreadable = store((s) => s.unreadable);
  const fileRuns = useFileRunTally((s) => s.bySession);
  // The stored file runs are read once here; the rows store keeps the tally current after that.
  useEffect(() => {
    void useFileRunTally.getState().refresh();
  }, []);
  const save = store((s) => s.save);
  const persistence = store((s) => s.persistence);
  const storageUse = store((s) => s.storageUse);
  const unavailableMessage = store((s) => s.unavailableMessage);
  const freeable = store((s) => s.freeable);
  const notice = store((s) => s.notice);
  const incomingShare = store((s) => s.incomingShare);
  const actions = store.getState();

  const [sharingId, setSharingId] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const dismissNotice = useCallback(() => store.getState().dismissNotice(), [store]);

  const exportSessions = useCallback(
    async (ids: string[] | 'all'): Promise<void> => {
      const file = await store.getState().exportSessions(ids);
      if (file) downloadText(file.fileName, file.text);
    },
    [store],
  );
  const exportOne = useCallback((id: string) => void exportSessions([id]), [exportSessions]);
  const exportUnsaved = (): void => {
    const file = actions.exportUnsaved();
    if (file) downloadText(file.fileName, file.text);
  };
  const onPickFile = async (event: ChangeEvent<HTMLInputElement>): Promise<void> => {
    const file = event.target.files?.[0];
    event.target.value = ''; // picking the same file again must fire change again
    if (file) await actions.importText(await readFileText(file));
  };

  const shown = visibleSessions(list, query);
  const sharing = sharingId ? list.find((s) => s.id === sharingId) : undefined;
  const searching = query.trim() !== '';

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
      <input
        type="search"
        className="sessions-search"
        placeholder="Search names and content"
        aria-label="Search sessions"
        value={query}
        onChange={(e) => actions.setQuery(e.target.value)}
        data-testid="sessions.search"
      />
      {phase === 'loading' && <p className="muted">Loading sessions…</p>}
      <ul className="sessions-list" aria-label="Saved sessions" data-testid="sessions.list">
        {shown.map(({ session, matched }) => (
          <SessionItem
            key={session.id}
            session={session}
            fileRuns={fileRuns[session.id] ?? NO_FILE_RUNS}
            isOpen={session.id === openId}
            matched={matched}
            searching={searching}
            onOpen={actions.openSession}
            onRename={actions.rename}
            onDuplicate={actions.duplicate}
            onExport={exportOne}
            onShare={setSharingId}
            onDelete={actions.remove}
          />
        ))}
      </ul>
      {searching && shown.length === 0 && (
        <p className="muted" data-testid="sessions.noMatch">
          No session matches “{query.trim()}”.
        </p>
      )}
      {unreadable.length > 0 && (
        <p className="sessions-unreadable" role="note" data-testid="sessions.unreadable">
          {unreadable.length} saved session{unreadable.length === 1 ? '' : 's'} could not be read and{' '}
          {unreadable.length === 1 ? 'is' : 'are'} kept untouched: {unreadable[0]!.message}
        </p>
      )}
      <div className="sessions-files">
        <button type="button" onClick={() => fileInput.current?.click()} data-testid="sessions.import">
          Import…
        </button>
        <button
          type="button"
          onClick={() => void exportSessions('all')}
          disabled={list.length === 0}
          data-testid="sessions.exportAll"
        >
          Export all
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          hidden
          onChange={(e) => void onPickFile(e)}
          data-testid="sessions.importInput"
        />
      </div>
      <SaveStatusLine
        save={save}
        persistence={persistence}
        storageUse={storageUse}
        unavailableMessage={unavailableMessage}
        opening={phase === 'idle' || phase === 'loading'}
        freeable={freeable}
        onDeleteSession={(id) => void actions.remove(id)}
        onRetry={() => void actions.retrySave()}
        onExportUnsaved={exportUnsaved}
        onAskPersistence={() =>
          void askPersistentStorageAgain().then((persistence) => store.setState({ persistence }))
        }
      />
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
