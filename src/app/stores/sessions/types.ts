// The sessions store's shape: what a tab tells the others, how it talks to the workbench, and its state and actions.
import { z } from 'zod';
import type { Session, SessionDoc } from '../../../core/session';
import type { VariantLedger } from '../../../core/alignment/ledger';
import type { LabelsLeftOut, SharedSession } from '../../../core/shareLink';
import type { SaveStatus } from '../../persistence/autosave';
import type { SpaceUse, UnreadableRow, SessionsRepo } from '../../persistence/sessionsRepo';
import type { Persistence } from '../../persistence/storageManager';
import type { TabChannel } from '../../persistence/tabs';

/** What a tab tells the others: a session was written, deleted or restored, so they re-read it (parsed on arrival). */
export const SessionsMessageSchema = z.object({ type: z.literal('changed'), id: z.string().optional() });
export type SessionsMessage = z.infer<typeof SessionsMessageSchema>;

/**
 * What the workbench holds of a session: the editors' document and the runs it has on screen. The workbench may keep
 * only the latest runs in memory; the session keeps every run it ever recorded.
 */
export type SessionContent = Pick<Session, 'doc' | 'runs'>;

/** How the sessions store talks to the main screen, without importing it. */
export interface WorkbenchBinding {
  /** Shows this session in the workbench: its editors' text, its runs' answers, its comparison. */
  load(session: Session): void;
  /** Calls back whenever the user changes the content; returns the unsubscribe function. */
  subscribe(onChange: (content: SessionContent) => void): () => void;
}

/** A sidebar entry: what the list shows and searches, without the runs. */
export interface SessionSummary {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  runCount: number;
  /** Robustness checks kept with the session (the latest one, or none). */
  robustnessChecks: number;
  doc: SessionDoc;
}

/** The one toast: what happened, optionally with Undo. */
export interface Notice {
  id: number;
  tone: 'info' | 'error';
  text: string;
  undoDeleteOf?: string;
}

/** A file the UI should hand to the user (download). */
export interface FileToSave {
  fileName: string;
  text: string;
}

/** What sharing produced: a link to copy, or a file to save instead (with why). */
export type ShareOutcome =
  | { kind: 'link'; url: string; labelsLeftOut?: LabelsLeftOut }
  | {
      kind: 'file';
      file: FileToSave;
      reason: string;
      /** The link's length, over MAX_SHARE_URL_LENGTH. */
      length: number;
      /** With runs asked for: the link's length without them, and whether that fits. */
      withoutRuns?: { length: number; fits: boolean };
    };

export interface SessionsInit {
  repo: SessionsRepo;
  binding?: WorkbenchBinding;
  /** location.hash at start, for share links. */
  hash?: string;
  /** The page URL links are made from (without fragment). */
  pageUrl?: string;
  /** Removes the share fragment from the address bar once handled. */
  clearHash?: () => void;
  /**
   * The target a new session starts on: the first configured target whose key is present. A function is asked each
   * time (the target list may arrive after start-up); an open session keeps its own target.
   */
  defaultTargetId?: string | (() => Promise<string>);
  /**
   * The model a new session on `targetId` starts with when the example's model is not one that target offers (the
   * hosted service names its models jev-*, llama.cpp by file): undefined keeps the example's.
   */
  defaultModel?: (targetId: string) => Promise<string | undefined>;
  /** Installs page-hide flushing (off in component tests). */
  lifecycle?: boolean;
  /** The other tabs: each write is announced, and their announcements make this tab re-read (follow live). */
  channel?: TabChannel<SessionsMessage>;
  autosaveDelayMs?: number;
  /** How long opening the store may take before sessions are declared unavailable here (a storage that never answers). */
  openTimeoutMs?: number;
}

export interface SessionsState {
  phase: 'idle' | 'loading' | 'ready' | 'unavailable';
  /** True once start-up has put the last open session (or the example) into the workbench, so edits are safe. */
  restored: boolean;
  /** Why sessions cannot be stored in this browser (phase 'unavailable'). */
  unavailableMessage?: string;
  list: SessionSummary[];
  unreadable: UnreadableRow[];
  query: string;
  openId: string | null;
  /** The open session as last known here (content mirrored from the workbench). */
  open: Session | null;
  save: SaveStatus;
  persistence: Persistence | 'unknown';
  storageUse?: { usage: number; quota: number };
  /** When the store is full: the biggest records, whose deletion frees the most space. */
  freeable: SpaceUse[];
  notice: Notice | null;
  /** A share link opened with the page, waiting for the user to import it or not. */
  incomingShare: { ok: true; shared: SharedSession } | { ok: false; message: string } | null;

  init(options: SessionsInit): Promise<void>;
  dispose(): void;
  setQuery(query: string): void;
  newSession(): Promise<void>;
  /**
   * Opens a new session holding `doc` (the session open until now stays in the list, untouched) and says so in the
   * notice: what the alignment screen's "Open in the main screen" does, so nothing the user had is replaced.
   */
  openNewSession(doc: SessionDoc, name: string, notice: string): Promise<void>;
  openSession(id: string): Promise<void>;
  rename(id: string, name: string): Promise<void>;
  duplicate(id: string): Promise<void>;
  remove(id: string): Promise<void>;
  undoRemove(id: string): Promise<void>;
  dismissNotice(): void;
  /** The open session's content changed in the workbench. */
  contentChanged(content: SessionContent): void;
  /** Replaces the open session's comparison (the comparison view saves through this). */
  setCompare(compare: Session['compare']): void;
  /** Replaces the open session's robustness report (the robustness check saves through this). */
  setRobustness(report: Session['robustness']): void;
  /** Keeps an alignment report with the open session (the alignment screen saves through this). */
  setAlignment(alignment: Session['alignment']): void;
  /**
   * Changes the open session's variant ledger (a variant counted, a set sealed); the update gets the ledger as stored,
   * and returning it unchanged saves nothing. Entries are only ever added: deleting a run keeps its count.
   */
  updateLedger(update: (ledger: VariantLedger) => VariantLedger): void;
  /** Adds a run to the open session's history (runs made outside the workbench store, e.g. comparison columns). */
  recordRun(run: Session['runs'][number]): void;
  /** The address's fragment changed (a share link pasted into an open tab). */
  receiveHash(hash: string): void;
  /** Re-reads storage (the tab became visible: another tab may have changed sessions meanwhile). */
  refresh(): Promise<void>;
  /** Writes pending changes now (the Retry button). */
  retrySave(): Promise<void>;
  exportSessions(ids: readonly string[] | 'all'): Promise<FileToSave | null>;
  /** The sessions with unsaved changes, from memory, as a file (when storage is full). */
  exportUnsaved(): FileToSave | null;
  importText(text: string): Promise<void>;
  share(id: string, includeRuns: boolean): Promise<ShareOutcome | null>;
  acceptShare(): Promise<void>;
  dismissShare(): Promise<void>;
}
