// The sessions the user keeps, as UI state: the sidebar's list and search, which session is open, the save status
// and storage health, the undo toast, and a share link waiting for confirmation. Storage goes through the repo; the
// open session's content lives in the workbench store and reaches here through a WorkbenchBinding.
import { create } from 'zustand';
import { sessionsEngine } from './sessions/engine';
import { fileActions } from './sessions/files';
import { sessionsKit } from './sessions/kit';
import { lifecycleActions } from './sessions/lifecycle';
import { manageActions } from './sessions/manage';
import type { SessionsState } from './sessions/types';

export { SessionsMessageSchema } from './sessions/types';
export type {
  FileToSave,
  Notice,
  SessionContent,
  SessionSummary,
  SessionsInit,
  SessionsMessage,
  SessionsState,
  ShareOutcome,
  WorkbenchBinding,
} from './sessions/types';
export {
  DELETED_RETENTION_MS,
  OPEN_TIMEOUT_MS,
  mergeRuns,
  untitledName,
  visibleSessions,
} from './sessions/list';

/**
 * Makes a sessions store; the app uses the one below, tests may make their own. Its parts live in stores/sessions/:
 * start-up and the other tabs, the sidebar's actions and the open session's content, files and share links.
 */
export function createSessionsStore() {
  return create<SessionsState>()((set, get) => {
    const kit = sessionsKit(set, get);
    const engine = sessionsEngine(kit);
    return {
      phase: 'idle',
      list: [],
      unreadable: [],
      query: '',
      openId: null,
      restored: false,
      open: null,
      save: { state: 'idle', quota: false },
      persistence: 'unknown',
      freeable: [],
      notice: null,
      incomingShare: null,

      ...lifecycleActions(kit, engine),
      ...manageActions(kit, engine),
      ...fileActions(kit, engine),
    };
  });
}

/** The app's sessions store. */
export const useSessions = createSessionsStore();
export type SessionsStore = ReturnType<typeof createSessionsStore>;
