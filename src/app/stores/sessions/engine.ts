// The sessions store's shared steps: the notice, the list's summaries, reading a session's latest content, putting one
// into the workbench, a change to the open one, and the autosave's write (merged against what another tab stored).
import { exampleDoc } from '../../../core/example';
import type { Session, SessionDoc } from '../../../core/session';
import { describeConflict } from '../../../core/sessionMerge';
import { newSession } from '../../persistence/sessionsRepo';
import { estimateStorage } from '../../persistence/storageManager';
import type { SessionsKit } from './kit';
import { OPEN_SESSION_KEY, newestFirst, summaryOf, untitledName } from './list';
import type { Notice } from './types';

export function sessionsEngine({ set, get, live, announce }: SessionsKit) {
  const notify = (tone: Notice['tone'], text: string, undoDeleteOf?: string): void => {
    live.noticeSeq += 1;
    set({ notice: { id: live.noticeSeq, tone, text, ...(undoDeleteOf ? { undoDeleteOf } : {}) } });
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
    const unsaved = live.autosave?.unsaved().find((s) => s.id === id);
    if (unsaved) return unsaved;
    const stored = await live.repo?.get(id);
    // Nothing of it waits here: an edit made now is made from what is stored.
    if (stored) live.bases.set(id, { session: stored, revision: stored.revision ?? 0 });
    return stored;
  };

  /** Puts a session into the workbench without taking the echo for an edit. */
  const loadIntoWorkbench = (session: Session): void => {
    set({ open: session, openId: session.id });
    live.loading = true;
    try {
      live.binding?.load(session);
    } finally {
      live.loading = false;
    }
  };

  /** Opens a session; `stored` when it is the record as read from storage (it becomes the base of later edits). */
  const show = async (session: Session, stored = true): Promise<void> => {
    if (stored) live.bases.set(session.id, { session, revision: session.revision ?? 0 });
    loadIntoWorkbench(session);
    try {
      await live.repo?.setMeta(OPEN_SESSION_KEY, session.id);
    } catch {
      // Remembering the open session is a convenience; the save line reports storage trouble.
    }
  };

  const createAndShow = async (doc: SessionDoc, name: string): Promise<void> => {
    const session = newSession(doc, name);
    upsertSummary(session);
    await show(session, false);
    if (!live.repo) return;
    live.autosave?.schedule(session);
    await live.autosave?.flush();
  };

  /** A user's change to the open session: kept in memory at once, saved after the debounce. */
  const change = (next: Session): void => {
    const changed = { ...next, updatedAt: new Date().toISOString() };
    set({ open: changed });
    upsertSummary(changed);
    live.autosave?.schedule(changed);
    live.journal?.note({ session: changed, base: live.bases.get(changed.id) ?? null });
  };

  const templateDoc = async (): Promise<SessionDoc> => {
    const preferred = live.options?.defaultTargetId;
    const id = typeof preferred === 'function' ? await preferred().catch(() => undefined) : preferred;
    const doc = exampleDoc(id ?? get().open?.doc.targetId ?? 'local');
    const model = await live.options?.defaultModel?.(doc.targetId).catch(() => undefined);
    return model ? { ...doc, model } : doc;
  };

  /**
   * The autosave's write: saved against the record this content was made from, so a newer revision stored by
   * another tab is merged, not overwritten. Then this tab shows what was stored when nothing was typed meanwhile.
   */
  const writeSession = async (sent: Session): Promise<void> => {
    if (!live.repo) throw new Error('The session store is not open.');
    const out = await live.repo.save(sent, live.bases.get(sent.id) ?? null);
    const stored = out.record;
    const open = get().open;
    const movedOn =
      (open?.id === sent.id && open !== sent) ||
      (live.autosave?.unsaved().some((s) => s.id === sent.id && s !== sent) ?? false);
    if (movedOn) {
      // Newer content was made from what was sent: merge it against that at its own save.
      live.bases.set(sent.id, { session: sent, revision: out.merged ? -1 : stored.revision! });
    } else {
      live.bases.set(sent.id, { session: stored, revision: stored.revision! });
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
    const freeable = await live.repo?.largestRecords().catch(() => undefined);
    if (freeable) set({ freeable });
  };

  return {
    notify,
    upsertSummary,
    upsertSummaryRemoved,
    current,
    loadIntoWorkbench,
    show,
    createAndShow,
    change,
    templateDoc,
    writeSession,
    closeDeletedElsewhere,
    refreshStorageUse,
  };
}

export type SessionsEngine = ReturnType<typeof sessionsEngine>;
