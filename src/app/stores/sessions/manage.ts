// The sidebar's actions on sessions: search, new, open, rename, duplicate, delete with Undo; and the open session's
// content as the workbench, the comparison, the robustness check and the alignment screen change it.
import { EMPTY_LEDGER } from '../../../core/alignment/ledger';
import { newId } from '../../../core/ids';
import type { Session } from '../../../core/session';
import { copyName } from '../../persistence/sessionsRepo';
import { describeStorageError } from '../../persistence/storageErrors';
import type { SessionsEngine } from './engine';
import type { SessionsKit } from './kit';
import { errorText, mergeRuns, sameDoc, untitledName } from './list';
import type { SessionsState } from './types';

/** The sidebar's actions on the list: search, new, open, rename, duplicate, and the notice. */
function listActions(
  { set, get, live }: SessionsKit,
  { notify, upsertSummary, current, show, createAndShow, templateDoc }: SessionsEngine,
): Pick<
  SessionsState,
  'setQuery' | 'newSession' | 'openNewSession' | 'openSession' | 'rename' | 'duplicate' | 'dismissNotice'
> {
  return {
    setQuery(query) {
      set({ query });
    },

    async newSession() {
      await live.autosave?.flush();
      await createAndShow(await templateDoc(), untitledName(get().list));
    },

    async openNewSession(doc, name, notice) {
      await live.autosave?.flush();
      await createAndShow(doc, name);
      notify('info', notice);
    },

    async openSession(id) {
      if (get().openId === id) return;
      await live.autosave?.flush();
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
      live.autosave?.schedule(renamed);
      await live.autosave?.flush();
    },

    async duplicate(id) {
      await live.autosave?.flush();
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
      live.autosave?.schedule(copy);
      await live.autosave?.flush();
    },

    dismissNotice() {
      set({ notice: null });
    },
  };
}

/** Delete with Undo: a session is marked deleted (or, in a full store, deleted for good and kept in memory for Undo). */
function deleteActions(
  { set, get, live, announce }: SessionsKit,
  { notify, upsertSummary, current, show, createAndShow, templateDoc }: SessionsEngine,
): Pick<SessionsState, 'remove' | 'undoRemove'> {
  return {
    async remove(id) {
      const summary = get().list.find((s) => s.id === id);
      if (!summary) return;
      await live.autosave?.flush();
      // Kept in memory before a delete that may have to be for good (a full store), so Undo still works.
      const before = await current(id).catch(() => undefined);
      live.autosave?.forget(id);
      let freed: boolean;
      try {
        freed = (await live.repo?.remove(id))?.freed ?? false;
      } catch (error) {
        notify('error', `“${summary.name}” could not be deleted: ${describeStorageError(error)}`);
        return;
      }
      announce(id);
      const list = get().list.filter((s) => s.id !== id);
      set({ list, freeable: get().freeable.filter((f) => f.id !== id) });
      if (freed && before) {
        live.purged.set(id, before);
        notify('info', `Deleted “${summary.name}” for good to free space in the full storage.`, id);
      } else notify('info', `Deleted “${summary.name}”.`, id);
      // Space may have come back: what failed to save is tried again now, not after the retry delay.
      if (get().save.state === 'failed') void live.autosave?.flush();
      if (get().openId === id) {
        const next = list[0] ? await current(list[0].id) : undefined;
        if (next) await show(next);
        else await createAndShow(await templateDoc(), untitledName(list));
      }
    },

    async undoRemove(id) {
      const kept = live.purged.get(id);
      try {
        const session = kept ? await live.repo?.put(kept) : await live.repo?.undoRemove(id);
        live.purged.delete(id);
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
  };
}

/** The open session's content as the workbench, the comparison, the robustness check and the alignment change it. */
function contentActions(
  { get }: SessionsKit,
  { change }: SessionsEngine,
): Pick<
  SessionsState,
  'contentChanged' | 'setCompare' | 'setRobustness' | 'setAlignment' | 'updateLedger' | 'recordRun'
> {
  return {
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

    updateLedger(update) {
      const open = get().open;
      if (!open) return;
      const ledger = update(open.ledger ?? EMPTY_LEDGER);
      // An unchanged ledger (a run already counted) saves nothing.
      if (ledger !== (open.ledger ?? EMPTY_LEDGER)) change({ ...open, ledger });
    },

    recordRun(run) {
      const open = get().open;
      if (!open || open.runs.some((r) => r.id === run.id)) return;
      change({ ...open, runs: [...open.runs, run] });
    },
  };
}

/** Every action of the sidebar and the open session, by concern. */
export function manageActions(kit: SessionsKit, engine: SessionsEngine) {
  return { ...listActions(kit, engine), ...deleteActions(kit, engine), ...contentActions(kit, engine) };
}
