// One session in the sidebar: open on click, rename in place, and a menu of the other actions.
import { memo, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { sessionWorkText } from '../../../core/sessionWork';
import type { SessionSummary } from '../../stores/sessions';

export interface SessionItemActions {
  onOpen: (id: string) => void;
  onRename: (id: string, name: string) => void;
  onDuplicate: (id: string) => void;
  onExport: (id: string) => void;
  onShare: (id: string) => void;
  onDelete: (id: string) => void;
}

interface SessionItemProps extends SessionItemActions {
  session: SessionSummary;
  /** Row counts of the session's runs of a file. */
  fileRuns: readonly { rowCount: number }[];
  isOpen: boolean;
  matched: 'name' | 'content';
  searching: boolean;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : timeFormat.format(date);
};

/** A sidebar row with its actions. Memoised: typing in the open session must not re-render every other row. */
export const SessionItem = memo(function SessionItem({
  session,
  fileRuns,
  isOpen,
  matched,
  searching,
  ...actions
}: SessionItemProps) {
  const [renaming, setRenaming] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [draft, setDraft] = useState(session.name);
  const menuButton = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (renaming) input.current?.select();
  }, [renaming]);

  useEffect(() => {
    if (!menuOpen) return;
    menu.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const close = (event: MouseEvent): void => {
      if (!menu.current?.contains(event.target as Node) && event.target !== menuButton.current)
        setMenuOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [menuOpen]);

  const startRename = (): void => {
    setDraft(session.name);
    setRenaming(true);
    setMenuOpen(false);
  };
  const commitRename = (): void => {
    setRenaming(false);
    if (draft.trim() !== '' && draft.trim() !== session.name) actions.onRename(session.id, draft);
  };
  const onRenameKey = (event: KeyboardEvent<HTMLInputElement>): void => {
    if (event.key === 'Enter') commitRename();
    if (event.key === 'Escape') setRenaming(false);
  };
  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>): void => {
    const items = [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      setMenuOpen(false);
      menuButton.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    }
  };
  const run = (action: (id: string) => void) => () => {
    setMenuOpen(false);
    // The menu item is about to go: a dialog the action opens returns focus to ⋯ when it closes.
    menuButton.current?.focus();
    action(session.id);
  };

  return (
    <li
      className={`session-item${isOpen ? ' is-open' : ''}`}
      data-testid="sessions.item"
      data-session-id={session.id}
    >
      {renaming ? (
        <input
          ref={input}
          className="session-rename"
          aria-label={`New name for ${session.name}`}
          data-testid="sessions.renameInput"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onRenameKey}
          onBlur={commitRename}
        />
      ) : (
        <button
          type="button"
          className="session-open"
          aria-current={isOpen ? 'true' : undefined}
          onClick={() => actions.onOpen(session.id)}
          onDoubleClick={startRename}
          data-testid="sessions.open"
        >
          <span className="session-name" data-testid="sessions.name">
            {session.name || 'Unnamed session'}
          </span>
          <span className="session-meta">
            {when(session.updatedAt)} ·{' '}
            <span data-testid="sessions.work">
              {sessionWorkText({
                runs: session.runCount,
                fileRuns,
                robustnessChecks: session.robustnessChecks,
              })}
            </span>
            {searching && matched === 'content' ? ' · matched in content' : ''}
          </span>
        </button>
      )}
      <button
        ref={menuButton}
        type="button"
        className="session-menu-button"
        aria-label={`Actions for ${session.name}`}
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        onClick={() => setMenuOpen((open) => !open)}
        data-testid="sessions.menu"
      >
        ⋯
      </button>
      {menuOpen && (
        <div
          ref={menu}
          role="menu"
          className="session-menu"
          aria-label={`Actions for ${session.name}`}
          onKeyDown={onMenuKey}
        >
          <button type="button" role="menuitem" onClick={startRename}>
            Rename
          </button>
          <button type="button" role="menuitem" onClick={run(actions.onDuplicate)}>
            Duplicate
          </button>
          <button type="button" role="menuitem" onClick={run(actions.onExport)}>
            Export to file
          </button>
          <button type="button" role="menuitem" onClick={run(actions.onShare)}>
            Share link…
          </button>
          <button type="button" role="menuitem" className="danger" onClick={run(actions.onDelete)}>
            Delete
          </button>
        </div>
      )}
    </li>
  );
});
