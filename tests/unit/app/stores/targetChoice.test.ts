// Bug: a target chosen in the top bar while the sessions were being restored was taken back by the session that then
// opened (a first visit's example starts on the first target with a key).
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { SessionsRepo } from '../../../../src/app/persistence/sessionsRepo';
import { createSessionsStore } from '../../../../src/app/stores/sessions';
import { createTargetChooser } from '../../../../src/app/stores/target';
import { fakeWorkbench } from '../../../helpers/fakeWorkbench';
import { freshDbName } from '../persistence/dbHelpers';

const db = new WorkbenchDb(freshDbName());
afterEach(async () => {
  await db.delete();
});

describe('choosing a target', () => {
  it('before the first session exists: the session that opens takes the choice, not the default target', async () => {
    const store = createSessionsStore();
    const bench = fakeWorkbench();
    const choose = createTargetChooser(store, (targetId) => {
      if (bench.content()) bench.edit({ targetId });
    });
    const init = store.getState().init({
      repo: new SessionsRepo(db),
      binding: bench,
      pageUrl: 'http://127.0.0.1:5173/',
      clearHash: () => undefined,
      lifecycle: false,
      autosaveDelayMs: 5,
      defaultTargetId: 'local',
    });
    choose('gateway');
    await init;
    expect(store.getState().restored).toBe(true);
    expect(bench.content()?.doc.targetId).toBe('gateway');
    expect(store.getState().open?.doc.targetId).toBe('gateway');

    // Once restored, a choice is the open session's alone: switching to another session does not carry it over.
    choose('direct');
    expect(store.getState().open?.doc.targetId).toBe('direct');
    const first = store.getState().openId!;
    await store.getState().newSession();
    bench.edit({ targetId: 'local' });
    await store.getState().openSession(first);
    expect(bench.content()?.doc.targetId).toBe('direct');
    store.getState().dispose();
  });
});
