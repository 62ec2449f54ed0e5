// Starting the store (storage opened within a few seconds or declared unavailable, the journal replayed, the last
// session reopened), ending it, following the other tabs, and saving now.
import { z } from 'zod';
import { Autosave } from '../../persistence/autosave';
import { EditJournal } from '../../persistence/editJournal';
import { installSaveLifecycle } from '../../persistence/lifecycle';
import { newSession } from '../../persistence/sessionsRepo';
import { requestPersistentStorage } from '../../persistence/storageManager';
import type { Session } from '../../../core/session';
import type { SessionsEngine } from './engine';
import type { SessionsKit } from './kit';
import {
  DELETED_RETENTION_MS,
  OPEN_SESSION_KEY,
  OPEN_TIMEOUT_MS,
  errorText,
  newestFirst,
  summaryOf,
  within,
} from './list';
import type { SessionsInit, SessionsState } from './types';

/** The autosave, the journal a closing page writes, the page's save lifecycle, and the workbench's edits followed. */
function wireSaving(
  { set, get, live }: SessionsKit,
  init: SessionsInit,
  { writeSession, refreshStorageUse }: SessionsEngine,
): void {
  const autosave = new Autosave<Session>({
    write: writeSession,
    keyOf: (s) => s.id,
    delayMs: init.autosaveDelayMs ?? 400,
    onStatus: (save) => {
      set({ save });
      if (save.quota) void refreshStorageUse();
    },
  });
  live.autosave = autosave;
  if (init.lifecycle !== false && typeof window !== 'undefined') {
    live.journal = new EditJournal((entries) => init.repo.journalNow(entries));
    const saver = autosave;
    live.teardown.push(
      installSaveLifecycle({
        flush: () => saver.flush(),
        hasUnsaved: () => saver.unsaved().length > 0,
        writeNow: () =>
          void init.repo.journalNow(
            saver.unsaved().map((session) => ({ session, base: live.bases.get(session.id) ?? null })),
          ),
      }),
    );
  }
  if (live.binding) {
    live.teardown.push(
      live.binding.subscribe((content) => {
        if (!live.loading) get().contentChanged(content);
      }),
    );
  }
}

/** The stored sessions, once deleted ones past retention are purged and the journal replayed; throws within the timeout. */
function openStorage(init: SessionsInit) {
  return within(
    init.repo
      .purgeDeleted(DELETED_RETENTION_MS)
      // What a page closed mid-save left in the journal is saved first (merged like any save).
      .then(() => init.repo.replayJournal())
      .then(() => init.repo.listAll()),
    init.openTimeoutMs ?? OPEN_TIMEOUT_MS,
    "The browser's storage",
  );
}

/** No IndexedDB (a locked-down profile, a failed upgrade): the workbench still runs, unsaved. */
async function workUnsaved(
  { set, live }: SessionsKit,
  error: unknown,
  { show, templateDoc }: SessionsEngine,
): Promise<void> {
  live.repo = null;
  live.autosave?.dispose();
  live.autosave = null;
  live.journal?.dispose();
  live.journal = null;
  set({
    phase: 'unavailable',
    unavailableMessage: `Sessions cannot be saved in this browser (${errorText(error).replace(/\.$/, '')}); export your work to keep it.`,
  });
  await show(newSession(await templateDoc(), 'Untitled session'));
  set({ restored: true });
}

/** Follows the other tabs: the list re-read, and the open session followed when it changed or was deleted there. */
async function followOtherTabs(
  { set, get, live }: SessionsKit,
  { show, closeDeletedElsewhere }: SessionsEngine,
) {
  if (!live.repo || get().phase !== 'ready') return;
  let listing;
  try {
    listing = await live.repo.listAll();
  } catch {
    return; // the save line reports storage trouble when the next write fails
  }
  const unsaved = new Set(live.autosave?.unsaved().map((s) => s.id));
  // Sessions with changes not yet written here keep this tab's version.
  const fromHere = get().list.filter((s) => unsaved.has(s.id));
  const list = [...listing.sessions.filter((s) => !unsaved.has(s.id)).map(summaryOf), ...fromHere];
  set({ list: list.sort(newestFirst), unreadable: listing.unreadable });
  const open = get().open;
  if (!open || unsaved.has(open.id)) return;
  // Typed into meanwhile, or opened another: that content wins, merged at its save.
  if (get().open !== open || live.autosave?.unsaved().some((s) => s.id === open.id)) return;
  const stored = listing.sessions.find((s) => s.id === open.id);
  const base = live.bases.get(open.id);
  if (!stored) {
    // Not stored at all yet (created here, first save pending) is not a deletion.
    if (base) await closeDeletedElsewhere(open);
  } else if ((stored.revision ?? 0) > (base?.revision ?? -1)) {
    await show(stored); // changed in another tab since this one last saved: follow it
  }
}

export function lifecycleActions(
  kit: SessionsKit,
  engine: SessionsEngine,
): Pick<SessionsState, 'init' | 'dispose' | 'refresh' | 'retrySave'> {
  const { set, get, live } = kit;
  const { show, createAndShow, templateDoc } = engine;
  return {
    async init(init) {
      if (get().phase !== 'idle') return;
      live.options = init;
      live.repo = init.repo;
      live.binding = init.binding;
      set({ phase: 'loading' });
      live.channel = init.channel;
      if (live.channel) live.teardown.push(live.channel.subscribe(() => void get().refresh()));
      wireSaving(kit, init, engine);
      if (init.hash) get().receiveHash(init.hash);

      let listing;
      try {
        listing = await openStorage(init);
      } catch (error) {
        await workUnsaved(kit, error, engine);
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
      for (const off of live.teardown) off();
      live.teardown = [];
      live.autosave?.dispose();
      live.autosave = null;
      live.journal?.dispose();
      live.journal = null;
      live.repo = null;
      live.binding = undefined;
      live.options = null;
    },

    refresh: () => followOtherTabs(kit, engine),

    async retrySave() {
      await live.autosave?.flush();
    },
  };
}
