// The autosave's write of a session, merged against what another tab stored meanwhile, and what follows from it: the
// open session shown as stored, a merge's conflict copy announced, a session deleted elsewhere closed here with Undo.
import type { Session, SessionDoc } from '../../../core/session';
import { describeConflict } from '../../../core/sessionMerge';
import type { SessionsKit } from './kit';
import { untitledName } from './list';
import type { Notice } from './types';

/** The engine's steps a save leans on. */
export interface SaveSteps {
  notify(tone: Notice['tone'], text: string, undoDeleteOf?: string): void;
  upsertSummary(session: Session): void;
  loadIntoWorkbench(session: Session): void;
  current(id: string): Promise<Session | undefined>;
  show(session: Session, stored?: boolean): Promise<void>;
  createAndShow(doc: SessionDoc, name: string): Promise<void>;
  templateDoc(): Promise<SessionDoc>;
}

/** The save steps of a sessions store over its kit and the engine's other steps. */
export function saveSteps({ set, get, live, announce }: SessionsKit, steps: SaveSteps) {
  const { notify, upsertSummary, loadIntoWorkbench, current, show, createAndShow, templateDoc } = steps;
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

  return { writeSession, upsertSummaryRemoved, closeDeletedElsewhere };
}
