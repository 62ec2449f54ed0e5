// Two tabs on one session: two sessions stores over two connections to one IndexedDB (fake-indexeddb) and a real
// BroadcastChannel between them. Edits made in both are all kept; a tab follows the other's saves live; a session
// deleted in one tab closes in the other with Undo, which brings back what was typed there.
import 'fake-indexeddb/auto';
import { afterEach, expect, it, vi } from 'vitest';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { SessionsRepo } from '../../../../src/app/persistence/sessionsRepo';
import { openChannel } from '../../../../src/app/persistence/tabs';
import { createSessionsStore, SessionsMessageSchema } from '../../../../src/app/stores/sessions';
import { fakeWorkbench } from '../../../helpers/fakeWorkbench';
import { sampleSession } from '../../../helpers/sessions';
import { freshDbName } from '../persistence/dbHelpers';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function twoTabs() {
  const dbName = freshDbName();
  const seed = new WorkbenchDb(dbName);
  await new SessionsRepo(seed).put(sampleSession());
  seed.close();
  const tab = async () => {
    const db = new WorkbenchDb(dbName);
    const channel = openChannel(`sessions-${dbName}`, SessionsMessageSchema)!;
    const store = createSessionsStore();
    const bench = fakeWorkbench();
    await store.getState().init({
      repo: new SessionsRepo(db),
      binding: bench,
      pageUrl: 'http://127.0.0.1:5173/',
      lifecycle: false,
      autosaveDelayMs: 5,
      channel,
    });
    cleanup.push(
      () => store.getState().dispose(),
      () => channel.close(),
      () => db.close(),
    );
    return { store, bench, repo: new SessionsRepo(db) };
  };
  const a = await tab();
  const b = await tab();
  cleanup.push(async () => {
    const db = new WorkbenchDb(dbName);
    await db.delete();
  });
  return { a, b };
}

it('keeps edits of different fields made in two tabs, and each tab follows the other live', async () => {
  const { a, b } = await twoTabs();
  a.bench.edit({ stateText: 'typed in A' });
  b.bench.edit({ questionsText: '{"typed_in_b": {"type": "noul", "instructions": "B?"}}' });
  await a.store.getState().retrySave();
  await b.store.getState().retrySave();
  const stored = (await a.repo.get('session-1'))!;
  expect(stored.doc.stateText).toBe('typed in A');
  expect(stored.doc.questionsText).toContain('typed_in_b');
  // No conflict copy: the changes were disjoint.
  expect((await a.repo.listAll()).sessions).toHaveLength(1);
  // A follows B's save without being focused: both editors show both edits.
  await vi.waitFor(() => expect(a.bench.content()?.doc.questionsText).toContain('typed_in_b'));
  expect(a.bench.content()?.doc.stateText).toBe('typed in A');
  expect(b.bench.content()?.doc.stateText).toBe('typed in A');
  expect(a.store.getState().save.state).toBe('idle');
});

it('a run pressed in each tab keeps both runs', async () => {
  const { a, b } = await twoTabs();
  const [run] = sampleSession().runs;
  a.bench.addRun({ ...run!, id: 'run-in-a' });
  b.bench.addRun({ ...run!, id: 'run-in-b' });
  await a.store.getState().retrySave();
  await b.store.getState().retrySave();
  const stored = (await a.repo.get('session-1'))!;
  expect(stored.runs.map((r) => r.id)).toEqual([
    ...sampleSession().runs.map((r) => r.id),
    'run-in-a',
    'run-in-b',
  ]);
});

it('the same field changed in both tabs keeps both versions and says so', async () => {
  const { a, b } = await twoTabs();
  a.bench.edit({ stateText: 'version A' });
  b.bench.edit({ stateText: 'version B' });
  await a.store.getState().retrySave();
  await b.store.getState().retrySave();
  const { sessions } = await a.repo.listAll();
  const texts = sessions.map((s) => [s.name, s.doc.stateText]).sort();
  expect(texts).toEqual([
    ["Support triage (other tab's version)", 'version A'],
    ['Support triage', 'version B'],
  ]);
  expect(b.store.getState().notice?.text).toMatch(/also changed in another tab \(the state\)/);
  // A lists the copy too, and shows the record as stored now.
  await vi.waitFor(() => expect(a.store.getState().list).toHaveLength(2));
  await vi.waitFor(() => expect(a.bench.content()?.doc.stateText).toBe('version B'));
});

it('a session deleted in one tab closes in the other with Undo, and Undo brings back what was typed there', async () => {
  const { a, b } = await twoTabs();
  a.bench.edit({ stateText: 'typed in A while B deletes' });
  await b.store.getState().remove('session-1');
  await a.store.getState().retrySave();
  await vi.waitFor(() =>
    expect(a.store.getState().notice?.text).toBe('“Support triage” was deleted in another tab.'),
  );
  expect(a.store.getState().notice?.undoDeleteOf).toBe('session-1');
  expect(a.store.getState().openId).not.toBe('session-1');
  expect(await a.repo.get('session-1')).toBeUndefined();

  await a.store.getState().undoRemove('session-1');
  expect(a.store.getState().openId).toBe('session-1');
  expect(a.bench.content()?.doc.stateText).toBe('typed in A while B deletes');
  await vi.waitFor(() => expect(b.store.getState().list.map((s) => s.id)).toContain('session-1'));
});
