// The sidebar's search and list: every stored session (or those the search finds), with their actions, and a line for
// sessions that could not be read.
import { useCallback } from 'react';
import { useFileRunTally } from '../../stores/fileRunTally';
import { visibleSessions } from '../../stores/sessions';
import type { SessionsStore } from '../../stores/sessions';
import { SessionItem } from './SessionItem';

const NO_FILE_RUNS: readonly { rowCount: number }[] = [];

export interface SessionListProps {
  store: SessionsStore;
  loading: boolean;
  onExport: (ids: string[]) => Promise<void>;
  onShare: (id: string) => void;
}

export function SessionList({ store, loading, onExport, onShare }: SessionListProps) {
  const list = store((s) => s.list);
  const query = store((s) => s.query);
  const openId = store((s) => s.openId);
  const unreadable = store((s) => s.unreadable);
  const fileRuns = useFileRunTally((s) => s.bySession);
  const actions = store.getState();
  const exportOne = useCallback((id: string) => void onExport([id]), [onExport]);
  const shown = visibleSessions(list, query);
  const searching = query.trim() !== '';
  return (
    <>
      <input
        type="search"
        className="sessions-search"
        placeholder="Search names and content"
        aria-label="Search sessions"
        value={query}
        onChange={(e) => actions.setQuery(e.target.value)}
        data-testid="sessions.search"
      />
      {loading && <p className="muted">Loading sessions…</p>}
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
            onShare={onShare}
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
    </>
  );
}
