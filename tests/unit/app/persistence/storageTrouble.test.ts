// Storage in trouble: a full store can be emptied from the app (deleting frees space, later saves go through), and a
// store that never opens ends, within seconds, in the same "sessions cannot be saved here" state as a refused one.
import 'fake-indexeddb/auto';
import { afterEach, expect, it } from 'vitest';
import { Autosave } from '../../../../src/app/persistence/autosave';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { SessionsRepo } from '../../../../src/app/persistence/sessionsRepo';
import { createSessionsStore } from '../../../../src/app/stores/sessions';
import { fakeWorkbench } from '../../../helpers/fakeWorkbench';
import { sampleSession } from '../../../helpers/sessions';
import { dbWithQuota, freshDbName } from './dbHelpers';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

it('a full store: the save line names the biggest records, deleting one frees space, and the failed save then goes through', async () => {
  const { db, setFull } = dbWithQuota();
  cleanup.push(() => db.delete());
  const repo = new SessionsRepo(db);
  const big = sampleSession({ id: 'big', name: 'Big one', updatedAt: '2026-01-01T00:00:00.000Z' });
  await repo.put({ ...big, doc: { ...big.doc, stateText: 'x'.repeat(200_000) } });
  await repo.put(sampleSession({ id: 'small', name: 'Small one', updatedAt: '2026-02-01T00:00:00.000Z' }));
  const store = createSessionsStore();
  const bench = fakeWorkbench();
  await store
    .getState()
    .init({ repo, binding: bench, lifecycle: false, autosaveDelayMs: 5, pageUrl: 'http://x/' });
  cleanup.push(() => store.getState().dispose());
  expect(store.getState().openId).toBe('small');

  setFull(true);
  bench.edit({ stateText: 'typed into a full store' });
  await store.getState().retrySave();
  expect(store.getState().save).toMatchObject({ state: 'failed', quota: true });
  await expect.poll(() => store.getState().freeable.map((f) => f.name)).toEqual(['Big one', 'Small one']);
  expect(store.getState().freeable[0]!.bytes).toBeGreaterThan(400_000);

  // Deleting is not a rewrite: it goes through although nothing can be written, and frees the record's space.
  await store.getState().remove('big');
  expect(store.getState().notice?.text).toBe('Deleted “Big one” for good to free space in the full storage.');
  expect(await db.sessions.get('big')).toBeUndefined();
  expect(store.getState().list.map((s) => s.id)).toEqual(['small']);

  // Space is back: the change that failed is saved at once, and Undo puts the deleted session back from memory.
  setFull(false);
  await store.getState().retrySave();
  expect(store.getState().save.state).toBe('idle');
  expect((await repo.get('small'))?.doc.stateText).toBe('typed into a full store');
  await store.getState().undoRemove('big');
  expect((await repo.get('big'))?.doc.stateText).toHaveLength(200_000);
});

it('one session that cannot be written does not hold back the others', async () => {
  const written: string[] = [];
  const saver = new Autosave<{ id: string }>({
    write: async (v) => {
      if (v.id === 'stuck') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      written.push(v.id);
    },
    keyOf: (v) => v.id,
    delayMs: 1,
    retryMs: 60_000,
  });
  cleanup.push(() => saver.dispose());
  saver.schedule({ id: 'stuck' });
  saver.schedule({ id: 'fine' });
  await saver.flush();
  expect(written).toEqual(['fine']);
  expect(saver.current.state).toBe('failed');
  expect(saver.unsaved()).toEqual([{ id: 'stuck' }]);
});

it('a store that never opens (an old tab blocks the upgrade) ends in "cannot be saved here", and nothing claims a save', async () => {
  const name = freshDbName();
  // Another tab holds the database at an older version and never lets go: the upgrade waits forever.
  const blocker = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  blocker.onversionchange = () => undefined;
  cleanup.push(() => blocker.close());
  const db = new WorkbenchDb(name);
  cleanup.push(() => db.close());
  const store = createSessionsStore();
  cleanup.push(() => store.getState().dispose());
  const started = Date.now();
  await store.getState().init({
    repo: new SessionsRepo(db),
    binding: fakeWorkbench(),
    lifecycle: false,
    pageUrl: 'http://x/',
    openTimeoutMs: 300,
  });
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(store.getState().phase).toBe('unavailable');
  expect(store.getState().unavailableMessage).toMatch(
    /^Sessions cannot be saved in this browser \(The browser's storage did not answer within 0\.3 s\)/,
  );
  expect(store.getState().save.savedAt).toBeUndefined();
  expect(store.getState().restored).toBe(true);
});

it('a page that goes away mid-save leaves its change in the journal, and the next start saves it (merged like any save)', async () => {
  const name = freshDbName();
  const seed = new WorkbenchDb(name);
  await new SessionsRepo(seed).put(sampleSession());
  seed.close();
  const db = new WorkbenchDb(name);
  const repo = new SessionsRepo(db);
  const store = createSessionsStore();
  const bench = fakeWorkbench();
  await store
    .getState()
    .init({ repo, binding: bench, lifecycle: false, autosaveDelayMs: 60_000, pageUrl: 'http://x/' });
  bench.edit({ stateText: 'typed just before the page closed' });
  // What pagehide does first: the synchronous journal write. The ordinary save never runs: the page is gone.
  repo.journalNow([{ session: store.getState().open!, base: { session: sampleSession(), revision: 1 } }]);
  await new Promise((resolve) => setTimeout(resolve, 50));
  store.getState().dispose();
  db.close();

  const again = new WorkbenchDb(name);
  cleanup.push(() => again.delete());
  const next = createSessionsStore();
  const nextBench = fakeWorkbench();
  await next.getState().init({
    repo: new SessionsRepo(again),
    binding: nextBench,
    lifecycle: false,
    pageUrl: 'http://x/',
  });
  cleanup.push(() => next.getState().dispose());
  expect(nextBench.content()?.doc.stateText).toBe('typed just before the page closed');
  expect(await again.meta.where('key').startsWith('unsaved:').count()).toBe(0);
});
