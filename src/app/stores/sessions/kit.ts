// What the sessions store's parts share: zustand's get and set, and what it holds outside React state (the repo, the
// autosave and journal, the workbench binding, the other tabs' channel, the save bases), so each part is a plain
// function of it.
import type { StoreApi } from 'zustand';
import type { Session } from '../../../core/session';
import type { SaveBase } from '../../../core/sessionMerge';
import type { Autosave } from '../../persistence/autosave';
import type { EditJournal } from '../../persistence/editJournal';
import type { SessionsRepo } from '../../persistence/sessionsRepo';
import type { TabChannel } from '../../persistence/tabs';
import type { SessionsInit, SessionsMessage, SessionsState, WorkbenchBinding } from './types';

export interface SessionsLive {
  repo: SessionsRepo | null;
  binding: WorkbenchBinding | undefined;
  autosave: Autosave<Session> | null;
  // Each edit journaled as typed, so a browser closed whole within the debounce keeps it (see editJournal.ts).
  journal: EditJournal | null;
  teardown: (() => void)[];
  noticeSeq: number;
  options: SessionsInit | null;
  // Set while the store itself loads a session into the workbench, so the echo is not taken for an edit.
  loading: boolean;
  // For each session edited here: the stored record the content in memory was made from (see core/sessionMerge).
  bases: Map<string, SaveBase>;
  channel: TabChannel<SessionsMessage> | undefined;
  // Sessions deleted for good to free space in a full store: Undo puts them back from here.
  purged: Map<string, Session>;
}

export interface SessionsKit {
  set: StoreApi<SessionsState>['setState'];
  get: StoreApi<SessionsState>['getState'];
  live: SessionsLive;
  /** Tells the other tabs a session changed. */
  announce: (id?: string) => void;
}

export function sessionsKit(set: SessionsKit['set'], get: SessionsKit['get']): SessionsKit {
  const live: SessionsLive = {
    repo: null,
    binding: undefined,
    autosave: null,
    journal: null,
    teardown: [],
    noticeSeq: 0,
    options: null,
    loading: false,
    bases: new Map(),
    channel: undefined,
    purged: new Map(),
  };
  return {
    set,
    get,
    live,
    announce: (id) => live.channel?.post({ type: 'changed', ...(id ? { id } : {}) }),
  };
}
