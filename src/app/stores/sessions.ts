// The sessions the user keeps, as UI state: the sidebar's list and search, which session is open, the save status
// and storage health, the undo toast, and a share link waiting for confirmation. Storage goes through the repo; the
// open session's content lives in the workbench store and reaches here through a WorkbenchBinding.
import { z } from 'zod';
import { create } from 'zustand';
import { exampleDoc } from '../../core/example';
import { newId } from '../../core/ids';
import type { Session, SessionDoc } from '../../core/session';
import { describeProblem, exportFile, exportFileName, parseImportFile } from '../../core/sessionFile';
import { matchPlace, matchesSession, queryTerms } from '../../core/sessionSearch';
import { describeConflict } from '../../core/sessionMerge';
import type { SaveBase } from '../../core/sessionMerge';
import { decodeShareFragment, encodeShareLink, sessionFromShared } from '../../core/shareLink';
import type { LabelsLeftOut, SharedSession } from '../../core/shareLink';
import { Autosave } from '../persistence/autosave';
import { EditJournal } from '../persistence/editJournal';
import type { SaveStatus } from '../persistence/autosave';
import { installSaveLifecycle } from '../persistence/lifecycle';
import { copyName, newSession } from '../persistence/sessionsRepo';
import type { SpaceUse, UnreadableRow, SessionsRepo } from '../persistence/sessionsRepo';
import { describeStorageError } from '../persistence/storageErrors';
import { estimateStorage, requestPersistentStorage } from '../persistence/storageManager';
import type { Persistence } from '../persistence/storageManager';
import type { TabChannel } from '../persistence/tabs';
import { plural } from '../../core/words';

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

/** A storage that has not opened after this long is treated as refused: a few seconds, not a spinner forever. */
export const OPEN_TIMEOUT_MS = 4_000;

/** Rejects when `promise` has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Deleted sessions stay recoverable this long; older ones are purged at the next start. */
export const DELETED_RETENTION_MS = 10 * 60_000;
const OPEN_SESSION_KEY = 'openSessionId';

const summaryOf = (s: Session): SessionSummary => ({
  id: s.id,
  name: s.name,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  runCount: s.runs.length,
  robustnessChecks: s.robustness ? 1 : 0,
  doc: s.doc,
});
const newestFirst = (a: SessionSummary, b: SessionSummary): number =>
  a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id.localeCompare(b.id);
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const sameTaxonomy = (a: SessionDoc['taxonomy'], b: SessionDoc['taxonomy']): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.text === b.text &&
    a.format === b.format &&
    a.instructions === b.instructions);
const sameDoc = (a: SessionDoc, b: SessionDoc): boolean =>
  a === b ||
  (a.stateMode === b.stateMode &&
    a.stateText === b.stateText &&
    a.questionsText === b.questionsText &&
    a.targetId === b.targetId &&
    a.model === b.model &&
    sameTaxonomy(a.taxonomy, b.taxonomy));
/**
 * The session's runs plus those the workbench recorded since: runs are immutable and only ever appended, so the union
 * by id, in order, loses none (the workbench keeps only its latest runs in memory). Same array when nothing is new.
 */
export function mergeRuns(saved: Session['runs'], onScreen: Session['runs']): Session['runs'] {
  if (saved === onScreen) return saved;
  const known = new Set(saved.map((r) => r.id));
  const added = onScreen.filter((r) => !known.has(r.id));
  return added.length === 0 ? saved : [...saved, ...added];
}

/** "Untitled session", or "Untitled session 2" when taken. */
export function untitledName(taken: readonly { name: string }[]): string {
  const names = new Set(taken.map((s) => s.name));
  if (!names.has('Untitled session')) return 'Untitled session';
  for (let n = 2; ; n++) if (!names.has(`Untitled session ${n}`)) return `Untitled session ${n}`;
}

/** The sidebar's entries for a query, and whether each matched by name or by content. */
export function visibleSessions(
  list: readonly SessionSummary[],
  query: string,
): { session: SessionSummary; matched: 'name' | 'content' }[] {
  const terms = queryTerms(query);
  return list
    .filter((s) => matchesSession(s, terms))
    .map((session) => ({ session, matched: terms.length === 0 ? 'name' : matchPlace(session, terms) }));
}

/** Makes a sessions store; the app uses the one below, tests may make their own. */
export function createSessionsStore() {
  let repo: SessionsRepo | null = null;
  let binding: WorkbenchBinding | undefined;
  let autosave: Autosave<Session> | null = null;
  // Each edit journaled as typed, so a browser closed whole within the debounce keeps it (see editJournal.ts).
  let journal: EditJournal | null = null;
  let teardown: (() => void)[] = [];
  let noticeSeq = 0;
  let options: SessionsInit | null = null;
  // Set while the store itself loads a session into the workbench, so the echo is not taken for an edit.
  let loading = false;
  // For each session edited here: the stored record the content in memory was made from (see core/sessionMerge).
  const bases = new Map<string, SaveBase>();
  let channel: TabChannel<SessionsMessage> | undefined;
  // Sessions deleted for good to free space in a full store: Undo puts them back from here.
  const purged = new Map<string, Session>();
  const announce = (id?: string): void => channel?.post({ type: 'changed', ...(id ? { id } : {}) });

  return create<SessionsState>()((set, get) => {
    const notify = (tone: Notice['tone'], text: string, undoDeleteOf?: string): void => {
      noticeSeq += 1;
      set({ notice: { id: noticeSeq, tone, text, ...(undoDeleteOf ? { undoDeleteOf } : {}) } });
    };

    const upsertSummary = (session: Session): void => {
      const list = get().list.filter((s) => s.id !== session.id);
      list.push(summaryOf(session));
      set({ list: list.sort(newestFirst) });
    };

    /** The latest content of a session: the open one from memory, others from storage. */
    const current = async (id: string): Promise<Session | undefined> => {
      const open = get().open;
      if (open && open.id === id) return open;
      const unsaved = autosave?.unsaved().find((s) => s.id === id);
      if (unsaved) return unsaved;
      const stored = await repo?.get(id);
      // Nothing of it waits here: an edit made now is made from what is stored.
      if (stored) bases.set(id, { session: stored, revision: stored.revision ?? 0 });
      return stored;
    };

    /** Puts a session into the workbench without taking the echo for an edit. */
    const loadIntoWorkbench = (session: Session): void => {
      set({ open: session, openId: session.id });
      loading = true;
      try {
        binding?.load(session);
      } finally {
        loading = false;
      }
    };

    /** Opens a session; `stored` when it is the record as read from storage (it becomes the base of later edits). */
    const show = async (session: Session, stored = true): Promise<void> => {
      if (stored) bases.set(session.id, { session, revision: session.revision ?? 0 });
      loadIntoWorkbench(session);
      try {
        await repo?.setMeta(OPEN_SESSION_KEY, session.id);
      } catch {
        // Remembering the open session is a convenience; the save line reports storage trouble.
      }
    };

    const createAndShow = async (doc: SessionDoc, name: string): Promise<void> => {
      const session = newSession(doc, name);
      upsertSummary(session);
      await show(session, false);
      if (!repo) return;
      autosave?.schedule(session);
      await autosave?.flush();
    };

    /** A user's change to the open session: kept in memory at once, saved after the debounce. */
    const change = (next: Session): void => {
      const changed = { ...next, updatedAt: new Date().toISOString() };
      set({ open: changed });
      upsertSummary(changed);
      autosave?.schedule(changed);
      journal?.note({ session: changed, base: bases.get(changed.id) ?? null });
    };

    const templateDoc = async (): Promise<SessionDoc> => {
      const preferred = options?.defaultTargetId;
      const id = typeof preferred === 'function' ? await preferred().catch(() => undefined) : preferred;
      const doc = exampleDoc(id ?? get().open?.doc.targetId ?? 'local');
      const model = await options?.defaultModel?.(doc.targetId).catch(() => undefined);
      return model ? { ...doc, model } : doc;
    };

    /**
     * The autosave's write: saved against the record this content was made from, so a newer revision stored by
     * another tab is merged, not overwritten. Then this tab shows what was stored when nothing was typed meanwhile.
     */
    const writeSession = async (sent: Session): Promise<void> => {
      if (!repo) throw new Error('The session store is not open.');
      const out = await repo.save(sent, bases.get(sent.id) ?? null);
      const stored = out.record;
      const open = get().open;
      const movedOn =
        (open?.id === sent.id && open !== sent) ||
        (autosave?.unsaved().some((s) => s.id === sent.id && s !== sent) ?? false);
      if (movedOn) {
        // Newer content was made from what was sent: merge it against that at its own save.
        bases.set(sent.id, { session: sent, revision: out.merged ? -1 : stored.revision! });
      } else {
        bases.set(sent.id, { session: stored, revision: stored.revision! });
        if (open?.id === sent.id) {
          if (out.merged && !out.deleted) loadIntoWorkbench(stored);
          else set({ open: stored });
        }
      }
      if (out.deleted) {
        upsertSummaryRemoved(sent.id);
        // Not awaited: opening the next session may save it, which waits for this write to end.
        if (get().openId === sent.id) void closeDeletedElsewhere(sent);
      } else upsertSummary(stored);
      if (out.copy) {
        upsertSummary(out.copy);
        notify('info', describeConflict(stored.name, out.conflicts, out.copy.name));
      }
      announce(sent.id);
    };

    const upsertSummaryRemoved = (id: string): void => {
      set({ list: get().list.filter((s) => s.id !== id) });
    };

    /** The open session was deleted in another tab: close it here, with Undo (which brings back this tab's edits too). */
    const closeDeletedElsewhere = async (session: Session): Promise<void> => {
      notify('info', `“${session.name}” was deleted in another tab.`, session.id);
      const list = get().list.filter((s) => s.id !== session.id);
      set({ list });
      const next = list[0] ? await current(list[0].id).catch(() => undefined) : undefined;
      if (next) await show(next);
      else await createAndShow(await templateDoc(), untitledName(list));
    };

    const refreshStorageUse = async (): Promise<void> => {
      const use = await estimateStorage();
      if (use) set({ storageUse: use });
      const freeable = await repo?.largestRecords().catch(() => undefined);
      if (freeable) set({ freeable });
    };

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

      async init(init) {
        if (get().phase !== 'idle') return;
        options = init;
        repo = init.repo;
        binding = init.binding;
        set({ phase: 'loading' });
        channel = init.channel;
        if (channel) teardown.push(channel.subscribe(() => void get().refresh()));
        autosave = new Autosave<Session>({
          write: writeSession,
          keyOf: (s) => s.id,
          delayMs: init.autosaveDelayMs ?? 400,
          onStatus: (save) => {
            set({ save });
            if (save.quota) void refreshStorageUse();
          },
        });
        if (init.lifecycle !== false && typeof window !== 'undefined') {
          journal = new EditJournal((entries) => init.repo.journalNow(entries));
          const saver = autosave;
          teardown.push(
            installSaveLifecycle({
              flush: () => saver.flush(),
              hasUnsaved: () => saver.unsaved().length > 0,
              writeNow: () =>
                void init.repo.journalNow(
                  saver.unsaved().map((session) => ({ session, base: bases.get(session.id) ?? null })),
                ),
            }),
          );
        }
        if (binding) {
          teardown.push(
            binding.subscribe((content) => {
              if (!loading) get().contentChanged(content);
            }),
          );
        }
        if (init.hash) get().receiveHash(init.hash);

        let listing;
        try {
          listing = await within(
            init.repo
              .purgeDeleted(DELETED_RETENTION_MS)
              // What a page closed mid-save left in the journal is saved first (merged like any save).
              .then(() => init.repo.replayJournal())
              .then(() => init.repo.listAll()),
            init.openTimeoutMs ?? OPEN_TIMEOUT_MS,
            "The browser's storage",
          );
        } catch (error) {
          // No IndexedDB (a locked-down profile, a failed upgrade): the workbench still runs, unsaved.
          repo = null;
          autosave.dispose();
          autosave = null;
          journal?.dispose();
          journal = null;
          set({
            phase: 'unavailable',
            unavailableMessage: `Sessions cannot be saved in this browser (${errorText(error).replace(/\.$/, '')}); export your work to keep it.`,
          });
          await show(newSession(await templateDoc(), 'Untitled session'));
          set({ restored: true });
          return;
        }
        set({ list: listing.sessions.map(summaryOf), unreadable: listing.unreadable, phase: 'ready' });
        void requestPersistentStorage().then((persistence) => set({ persistence }));

        const lastOpen = await init.repo.getMeta(OPEN_SESSION_KEY, z.string()).catch(() => undefined);
        const first = listing.sessions.find((s) => s.id === lastOpen) ?? listing.sessions[0];
        if (first) await show(first);
        // A first visit through a share link opens the shared session on confirm, not an example beside it.
        else if (!get().incomingShare?.ok) await createAndShow(await templateDoc(), 'Example session');
        set({ restored: true });
      },

      dispose() {
        for (const off of teardown) off();
        teardown = [];
        autosave?.dispose();
        autosave = null;
        journal?.dispose();
        journal = null;
        repo = null;
        binding = undefined;
        options = null;
      },

      setQuery(query) {
        set({ query });
      },

      async newSession() {
        await autosave?.flush();
        await createAndShow(await templateDoc(), untitledName(get().list));
      },

      async openNewSession(doc, name, notice) {
        await autosave?.flush();
        await createAndShow(doc, name);
        notify('info', notice);
      },

      async openSession(id) {
        if (get().openId === id) return;
        await autosave?.flush();
        try {
          const session = await current(id);
          if (!session) {
            notify('error', 'That session is no longer stored; it may have been deleted in another tab.');
            set({ list: get().list.filter((s) => s.id !== id) });
            return;
          }
          await show(session);
        } catch (error) {
          notify('error', `This session could not be opened: ${errorText(error)}`);
        }
      },

      async rename(id, rawName) {
        const name = rawName.trim();
        if (name === '') return;
        const session = await current(id);
        if (!session || session.name === name) return;
        const renamed = { ...session, name, updatedAt: new Date().toISOString() };
        if (get().openId === id) set({ open: renamed });
        upsertSummary(renamed);
        autosave?.schedule(renamed);
        await autosave?.flush();
      },

      async duplicate(id) {
        await autosave?.flush();
        const session = await current(id);
        if (!session) return;
        const at = new Date().toISOString();
        const copy: Session = {
          ...session,
          id: newId(),
          name: copyName(session.name),
          createdAt: at,
          updatedAt: at,
        };
        upsertSummary(copy);
        await show(copy, false);
        autosave?.schedule(copy);
        await autosave?.flush();
      },

      async remove(id) {
        const summary = get().list.find((s) => s.id === id);
        if (!summary) return;
        await autosave?.flush();
        // Kept in memory before a delete that may have to be for good (a full store), so Undo still works.
        const before = await current(id).catch(() => undefined);
        autosave?.forget(id);
        let freed: boolean;
        try {
          freed = (await repo?.remove(id))?.freed ?? false;
        } catch (error) {
          notify('error', `“${summary.name}” could not be deleted: ${describeStorageError(error)}`);
          return;
        }
        announce(id);
        const list = get().list.filter((s) => s.id !== id);
        set({ list, freeable: get().freeable.filter((f) => f.id !== id) });
        if (freed && before) {
          purged.set(id, before);
          notify('info', `Deleted “${summary.name}” for good to free space in the full storage.`, id);
        } else notify('info', `Deleted “${summary.name}”.`, id);
        // Space may have come back: what failed to save is tried again now, not after the retry delay.
        if (get().save.state === 'failed') void autosave?.flush();
        if (get().openId === id) {
          const next = list[0] ? await current(list[0].id) : undefined;
          if (next) await show(next);
          else await createAndShow(await templateDoc(), untitledName(list));
        }
      },

      async undoRemove(id) {
        const kept = purged.get(id);
        try {
          const session = kept ? await repo?.put(kept) : await repo?.undoRemove(id);
          purged.delete(id);
          if (!session) {
            notify('error', 'That session can no longer be restored.');
            return;
          }
          announce(id);
          upsertSummary(session);
          set({ notice: null });
          await show(session);
        } catch (error) {
          notify('error', `The session could not be restored: ${describeStorageError(error)}`);
        }
      },

      dismissNotice() {
        set({ notice: null });
      },

      contentChanged(content) {
        const open = get().open;
        if (!open) return;
        const runs = mergeRuns(open.runs, content.runs);
        if (sameDoc(open.doc, content.doc) && runs === open.runs) return;
        change({ ...open, doc: content.doc, runs });
      },

      setCompare(compare) {
        const open = get().open;
        if (!open || open.compare === compare) return;
        const { compare: _previous, ...rest } = open;
        change(compare ? { ...rest, compare } : rest);
      },

      setRobustness(report) {
        const open = get().open;
        if (!open || open.robustness === report) return;
        const { robustness: _previous, ...rest } = open;
        change(report ? { ...rest, robustness: report } : rest);
      },

      setAlignment(alignment) {
        const open = get().open;
        if (!open || open.alignment === alignment) return;
        const { alignment: _previous, ...rest } = open;
        change(alignment ? { ...rest, alignment } : rest);
      },

      recordRun(run) {
        const open = get().open;
        if (!open || open.runs.some((r) => r.id === run.id)) return;
        change({ ...open, runs: [...open.runs, run] });
      },

      receiveHash(hash) {
        const decoded = decodeShareFragment(hash);
        if (decoded) set({ incomingShare: decoded });
      },

      async refresh() {
        if (!repo || get().phase !== 'ready') return;
        let listing;
        try {
          listing = await repo.listAll();
        } catch {
          return; // the save line reports storage trouble when the next write fails
        }
        const unsaved = new Set(autosave?.unsaved().map((s) => s.id));
        // Sessions with changes not yet written here keep this tab's version.
        const fromHere = get().list.filter((s) => unsaved.has(s.id));
        const list = [...listing.sessions.filter((s) => !unsaved.has(s.id)).map(summaryOf), ...fromHere];
        set({ list: list.sort(newestFirst), unreadable: listing.unreadable });
        const open = get().open;
        if (!open || unsaved.has(open.id)) return;
        // Typed into meanwhile, or opened another: that content wins, merged at its save.
        if (get().open !== open || autosave?.unsaved().some((s) => s.id === open.id)) return;
        const stored = listing.sessions.find((s) => s.id === open.id);
        const base = bases.get(open.id);
        if (!stored) {
          // Not stored at all yet (created here, first save pending) is not a deletion.
          if (base) await closeDeletedElsewhere(open);
        } else if ((stored.revision ?? 0) > (base?.revision ?? -1)) {
          await show(stored); // changed in another tab since this one last saved: follow it
        }
      },

      async retrySave() {
        await autosave?.flush();
      },

      async exportSessions(ids) {
        await autosave?.flush();
        const wanted = ids === 'all' ? get().list.map((s) => s.id) : ids;
        const sessions: Session[] = [];
        for (const id of wanted) {
          const session = await current(id).catch(() => undefined);
          if (session) sessions.push(session);
        }
        if (sessions.length === 0) {
          notify('error', 'There is no session to export.');
          return null;
        }
        return { fileName: exportFileName(sessions), text: exportFile(sessions) };
      },

      exportUnsaved() {
        const unsaved = autosave?.unsaved() ?? [];
        const open = get().open;
        const sessions = unsaved.length > 0 ? unsaved : open ? [open] : [];
        if (sessions.length === 0) return null;
        return { fileName: exportFileName(sessions), text: exportFile(sessions) };
      },

      async importText(text) {
        const parsed = parseImportFile(text);
        if (!parsed.ok) {
          notify('error', `Nothing was imported. ${parsed.message}`);
          return;
        }
        if (!repo) {
          notify('error', get().unavailableMessage ?? 'Sessions cannot be stored in this browser.');
          return;
        }
        let result;
        try {
          result = await repo.importSessions(parsed.sessions);
        } catch (error) {
          notify('error', `Nothing was imported: ${describeStorageError(error)}`);
          return;
        }
        for (const session of result.sessions) upsertSummary(session);
        announce();
        const parts = [`Imported ${plural(result.sessions.length, 'session')}`];
        if (result.copies > 0)
          parts.push(`${result.copies} as ${result.copies === 1 ? 'a copy' : 'copies'} (the id was taken)`);
        let message = `${parts.join(', ')}.`;
        if (parsed.problems.length > 0) {
          const first = parsed.problems[0]!;
          message += ` ${plural(parsed.problems.length, 'session')} could not be read: ${describeProblem(first)}: ${first.message}`;
        }
        notify(parsed.problems.length > 0 ? 'error' : 'info', message);
        const firstImported = result.sessions[0];
        if (firstImported) {
          await autosave?.flush();
          await show(firstImported);
        }
      },

      async share(id, includeRuns) {
        await autosave?.flush();
        const session = await current(id);
        if (!session) return null;
        const pageUrl = (): string =>
          options?.pageUrl ?? (typeof location !== 'undefined' ? location.href : 'http://localhost/');
        const link = encodeShareLink(session, { pageUrl: pageUrl(), includeRuns });
        if (link.ok)
          return {
            kind: 'link',
            url: link.url,
            ...(link.labelsLeftOut && { labelsLeftOut: link.labelsLeftOut }),
          };
        const bare =
          includeRuns && session.runs.length > 0
            ? encodeShareLink(session, { pageUrl: pageUrl(), includeRuns: false })
            : null;
        return {
          kind: 'file',
          file: { fileName: exportFileName([session]), text: exportFile([session]) },
          reason: link.reason,
          length: link.length,
          ...(bare && { withoutRuns: { length: bare.length, fits: bare.ok } }),
        };
      },

      async acceptShare() {
        const incoming = get().incomingShare;
        if (!incoming?.ok) return;
        const session = sessionFromShared(incoming.shared, newId());
        set({ incomingShare: null });
        options?.clearHash?.();
        if (repo) {
          try {
            await repo.importSessions([session]);
            announce(session.id);
          } catch (error) {
            notify(
              'error',
              `The shared session is open but could not be saved: ${describeStorageError(error)}`,
            );
          }
        }
        await autosave?.flush();
        upsertSummary(session);
        await show(session);
        const runs = session.runs.length;
        notify(
          'info',
          `Imported the shared session “${session.name}”${runs > 0 ? ` with ${plural(runs, 'stored run')} (shown as sent, not run again)` : ''}.`,
        );
      },

      async dismissShare() {
        set({ incomingShare: null });
        options?.clearHash?.();
        if (!get().open) await createAndShow(await templateDoc(), 'Example session');
      },
    };
  });
}

/** The app's sessions store. */
export const useSessions = createSessionsStore();
export type SessionsStore = ReturnType<typeof createSessionsStore>;
