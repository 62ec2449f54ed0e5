// The sessions store's shared steps: the notice, the list's summaries, reading a session's latest content, putting one
// into the workbench, a change to the open one, and the autosave's write (merged against what another tab stored).
import { exampleDoc } from '../../../core/example';
import type { Session, SessionDoc } from '../../../core/session';
import { newSession } from '../../persistence/sessionsRepo';
import { estimateStorage } from '../../persistence/storageManager';
import type { SessionsKit } from './kit';
import { OPEN_SESSION_KEY, newestFirst, summaryOf } from './list';
import { saveSteps } from './save';
import type { Notice } from './types';

/** The notice and the list's summaries. */
function listSteps({ set, get, live }: SessionsKit) {
  const notify = (tone: Notice['tone'], text: string, undoDeleteOf?: string): void => {
    live.noticeSeq += 1;
    set({ notice: { id: live.noticeSeq, tone, text, ...(undoDeleteOf ? { undoDeleteOf } : {}) } });
  };

  const upsertSummary = (session: Session): void => {
    const list = get().list.filter((s) => s.id !== session.id);
    list.push(summaryOf(session));
    set({ list: list.sort(newestFirst) });
  };

  return { notify, upsertSummary };
}

/** Reading a session's latest content, putting one into the workbench, a new one, and a change to the open one. */
function openSteps({ set, get, live }: SessionsKit, { upsertSummary }: ReturnType<typeof listSteps>) {
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

  return { current, loadIntoWorkbench, show, createAndShow, change, templateDoc };
}

/** How much storage is used, and the largest records a person could delete to free it. */
async function refreshStorageUse({ set, live }: SessionsKit): Promise<void> {
  const use = await estimateStorage();
  if (use) set({ storageUse: use });
  const freeable = await live.repo?.largestRecords().catch(() => undefined);
  if (freeable) set({ freeable });
}

/** The sessions store's shared steps, by concern. */
export function sessionsEngine(kit: SessionsKit) {
  const list = listSteps(kit);
  const open = openSteps(kit, list);
  return {
    ...list,
    ...open,
    ...saveSteps(kit, { ...list, ...open }),
    refreshStorageUse: () => refreshStorageUse(kit),
  };
}

export type SessionsEngine = ReturnType<typeof sessionsEngine>;
