import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { SessionsRepo } from '../../../../src/app/persistence/sessionsRepo';
import {
  createSessionsStore,
  mergeRuns,
  untitledName,
  visibleSessions,
} from '../../../../src/app/stores/sessions';
import type { SessionsStore } from '../../../../src/app/stores/sessions';
import { exportFile } from '../../../../src/core/sessionFile';
import { decodeShareFragment, encodeShareFragment } from '../../../../src/core/shareLink';
import { fakeWorkbench } from '../../../helpers/fakeWorkbench';
import type { FakeWorkbench } from '../../../helpers/fakeWorkbench';
import { asStored, sampleSession } from '../../../helpers/sessions';
import { dbWithQuota, freshDbName } from '../persistence/dbHelpers';

let dbName: string;
let db: WorkbenchDb;
let store: SessionsStore;
let bench: FakeWorkbench;

async function start(options: { hash?: string; database?: WorkbenchDb } = {}): Promise<void> {
  store = createSessionsStore();
  bench = fakeWorkbench();
  const cleared: string[] = [];
  await store.getState().init({
    repo: new SessionsRepo(options.database ?? db),
    binding: bench,
    hash: options.hash,
    pageUrl: 'http://127.0.0.1:5173/',
    clearHash: () => cleared.push('cleared'),
    lifecycle: false,
    autosaveDelayMs: 5,
  });
}

/** A page reload: the store goes away after flushing, a new one opens the same database. */
async function reload(): Promise<void> {
  await store.getState().retrySave();
  store.getState().dispose();
  db.close();
  db = new WorkbenchDb(dbName);
  await start();
}

beforeEach(() => {
  dbName = freshDbName();
  db = new WorkbenchDb(dbName);
});
afterEach(async () => {
  store.getState().dispose();
  await db.delete();
});

describe('sessions store', () => {
  // Bug: the editors showed before the last session was restored, so text typed in that moment was overwritten.
  it('says it is restored only once the open session is in the workbench', async () => {
    store = createSessionsStore();
    bench = fakeWorkbench();
    expect(store.getState().restored).toBe(false);
    const starting = store.getState().init({
      repo: new SessionsRepo(db),
      binding: bench,
      pageUrl: 'http://127.0.0.1:5173/',
      clearHash: () => undefined,
      lifecycle: false,
      autosaveDelayMs: 5,
    });
    expect(store.getState().restored).toBe(false);
    expect(bench.content()).toBeNull();
    await starting;
    expect(store.getState().restored).toBe(true);
    expect(bench.content()?.doc).toEqual(store.getState().open!.doc);
  });

  it('starts a new user on the example session, saved', async () => {
    await start();
    const { list, open } = store.getState();
    expect(list.map((s) => s.name)).toEqual(['Example session']);
    expect(bench.content()?.doc).toEqual(open!.doc);
    expect(JSON.parse(open!.doc.questionsText)).toHaveProperty('is_urgent');
    expect((await new SessionsRepo(db).listAll()).sessions).toHaveLength(1);
  });

  it('saves edits and runs and restores the open session exactly after a reload', async () => {
    await start();
    await store.getState().newSession();
    bench.edit({ stateText: 'Refund please', stateMode: 'text', model: 'model-1.13.0' });
    bench.addRun(sampleSession().runs[0]!);
    const before = store.getState().open!;
    await reload();
    expect(store.getState().openId).toBe(before.id);
    // The stored revision moved on with each write; the content is exactly as it was.
    expect(store.getState().open).toEqual({ ...before, revision: expect.any(Number) });
    expect(bench.content()).toEqual({ doc: before.doc, runs: before.runs });
    expect(store.getState().list.map((s) => s.name)).toEqual(['Untitled session', 'Example session']);
  });

  it('does not count loading a session as an edit', async () => {
    await new SessionsRepo(db).put(sampleSession());
    await start();
    expect(store.getState().open).toEqual(asStored(sampleSession()));
    expect(store.getState().save.state).toBe('idle');
  });

  it('renames, duplicates, deletes with undo, and searches', async () => {
    await new SessionsRepo(db).put(sampleSession());
    await start();
    const s = store.getState();
    await s.rename('session-1', '  Triage v2  ');
    await store.getState().duplicate('session-1');
    const copy = store.getState().open!;
    expect(copy.name).toBe('Triage v2 (copy)');
    expect(copy.runs).toEqual(sampleSession().runs);

    await store.getState().remove(copy.id);
    expect(store.getState().list.map((x) => x.id)).toEqual(['session-1']);
    expect(store.getState().openId).toBe('session-1');
    expect(store.getState().notice).toMatchObject({
      text: 'Deleted “Triage v2 (copy)”.',
      undoDeleteOf: copy.id,
    });
    await store.getState().undoRemove(copy.id);
    expect(
      store
        .getState()
        .list.map((x) => x.id)
        .sort(),
    ).toEqual([copy.id, 'session-1'].sort());
    expect(store.getState().openId).toBe(copy.id);

    bench.edit({ stateText: 'a unique marker: zebra' });
    await store.getState().retrySave();
    expect(visibleSessions(store.getState().list, 'zebra').map((v) => v.session.id)).toEqual([copy.id]);
    expect(visibleSessions(store.getState().list, 'triage').map((v) => v.matched)).toEqual(['name', 'name']);
    await reload();
    expect(
      store
        .getState()
        .list.map((x) => x.name)
        .sort(),
    ).toEqual(['Triage v2', 'Triage v2 (copy)']);
  });

  it('deleting the last session leaves a fresh one open', async () => {
    await start();
    await store.getState().remove(store.getState().openId!);
    expect(store.getState().list.map((s) => s.name)).toEqual(['Untitled session']);
    expect(store.getState().open?.name).toBe('Untitled session');
  });

  it('imports a file (a taken id comes in as a copy) and refuses a corrupt one without touching storage', async () => {
    await new SessionsRepo(db).put(sampleSession());
    await start();
    const file = exportFile([sampleSession(), sampleSession({ id: 'other', name: 'Other' })]);
    await store.getState().importText(file);
    expect(store.getState().notice?.text).toBe('Imported 2 sessions, 1 as a copy (the id was taken).');
    expect(
      store
        .getState()
        .list.map((s) => s.name)
        .sort(),
    ).toEqual(['Other', 'Support triage', 'Support triage (copy)']);

    const before = await new SessionsRepo(db).listAll();
    await store.getState().importText(file.slice(0, 300));
    expect(store.getState().notice).toMatchObject({
      tone: 'error',
      text: expect.stringMatching(/^Nothing was imported\. The file is cut off/),
    });
    expect(await new SessionsRepo(db).listAll()).toEqual(before);
  });

  it('exports the open session with its unsaved edit', async () => {
    await start();
    bench.edit({ stateText: 'typed a moment ago' });
    const file = await store.getState().exportSessions([store.getState().openId!]);
    expect(file!.fileName).toMatch(/^evaluate-workbench-example-session-\d{4}-\d\d-\d\d\.json$/);
    expect(JSON.parse(file!.text).sessions[0].doc.stateText).toBe('typed a moment ago');
  });

  it('shares a link, and falls back to a file when it is too long', async () => {
    await new SessionsRepo(db).put(sampleSession());
    await start();
    const outcome = await store.getState().share('session-1', true);
    if (outcome?.kind !== 'link') throw new Error('expected a link');
    const decoded = decodeShareFragment(new URL(outcome.url).hash);
    expect(decoded).toMatchObject({
      ok: true,
      shared: { name: 'Support triage', runs: sampleSession().runs },
    });

    bench.edit({ stateText: Array.from({ length: 30_000 }, (_, i) => (i * 7919).toString(36)).join(' ') });
    const big = await store.getState().share('session-1', true);
    expect(big).toMatchObject({ kind: 'file', reason: expect.stringMatching(/longer than browsers/) });
  });

  it('previews a share link and imports it on confirm, with replayed runs', async () => {
    const hash = encodeShareFragment(sampleSession({ name: 'Shared triage' }), { includeRuns: true });
    await start({ hash });
    expect(store.getState().incomingShare).toMatchObject({ ok: true, shared: { name: 'Shared triage' } });
    expect(store.getState().list).toEqual([]); // no example created beside a share on a first visit
    await store.getState().acceptShare();
    const open = store.getState().open!;
    expect(open.name).toBe('Shared triage');
    expect(open.id).not.toBe('session-1');
    expect(open.runs.map((r) => r.replayed)).toEqual([true, true]);
    expect(bench.content()?.runs[0]?.response).toEqual(sampleSession().runs[0]!.response);
    await reload();
    expect(store.getState().open?.name).toBe('Shared triage');
  });

  it('dismissing a share link on a first visit opens the example', async () => {
    await start({ hash: encodeShareFragment(sampleSession(), { includeRuns: false }) });
    await store.getState().dismissShare();
    expect(store.getState().incomingShare).toBeNull();
    expect(store.getState().open?.name).toBe('Example session');
  });

  it('shows a full disk, keeps the change, exports it from memory, and saves it when space returns', async () => {
    const { db: quotaDb, setFull } = dbWithQuota(dbName);
    db = quotaDb;
    await start({ database: quotaDb });
    setFull(true);
    bench.edit({ stateText: 'precious words' });
    await store.getState().retrySave();
    expect(store.getState().save).toMatchObject({ state: 'failed', quota: true });
    const file = store.getState().exportUnsaved();
    expect(JSON.parse(file!.text).sessions[0].doc.stateText).toBe('precious words');
    setFull(false);
    await store.getState().retrySave();
    expect(store.getState().save.state).toBe('idle');
    expect((await new SessionsRepo(quotaDb).get(store.getState().openId!))?.doc.stateText).toBe(
      'precious words',
    );
  });

  it('keeps every run of the session when the workbench holds only its latest ones', async () => {
    const run = sampleSession().runs[0]!;
    const many = Array.from({ length: 60 }, (_, i) => ({ ...run, id: `r${i}` }));
    await new SessionsRepo(db).put(sampleSession({ runs: many }));
    await start();
    // The screen keeps the latest 50 and records a new one.
    bench.load({ ...sampleSession(), runs: many.slice(-50) });
    bench.addRun({ ...run, id: 'r60' });
    await store.getState().retrySave();
    const saved = await new SessionsRepo(db).get('session-1');
    expect(saved!.runs.map((r) => r.id)).toEqual([...many.map((r) => r.id), 'r60']);
    expect(mergeRuns(many, many.slice(-50))).toBe(many);
  });

  it('saves the comparison and runs recorded outside the workbench', async () => {
    await new SessionsRepo(db).put(sampleSession({ runs: [] }));
    await start();
    const compare = {
      columns: [
        { id: 'a', targetId: 'local', model: 'model-1.12.0' },
        { id: 'b', targetId: 'local', model: 'model-1.13.0' },
      ],
      threshold: 0.2,
      runIds: { a: 'run-1' },
    };
    store.getState().setCompare(compare);
    store.getState().recordRun(sampleSession().runs[0]!);
    store.getState().recordRun(sampleSession().runs[0]!);
    await reload();
    expect(store.getState().open).toMatchObject({ compare, runs: [sampleSession().runs[0]] });
    store.getState().setCompare(undefined);
    await reload();
    expect(store.getState().open).not.toHaveProperty('compare');
  });

  it('notices a share link pasted into an open tab', async () => {
    await start();
    store.getState().receiveHash('#section');
    expect(store.getState().incomingShare).toBeNull();
    store.getState().receiveHash(encodeShareFragment(sampleSession(), { includeRuns: false }));
    expect(store.getState().incomingShare).toMatchObject({ ok: true, shared: { name: 'Support triage' } });
  });

  it('picks up what another tab changed when it becomes visible again', async () => {
    await new SessionsRepo(db).put(sampleSession());
    await start();
    const otherTab = new SessionsRepo(new WorkbenchDb(dbName));
    await otherTab.put({
      ...sampleSession(),
      name: 'Renamed elsewhere',
      updatedAt: '2030-01-01T00:00:00.000Z',
    });
    await otherTab.put(
      sampleSession({ id: 'added', name: 'Added elsewhere', updatedAt: '2029-01-01T00:00:00.000Z' }),
    );
    await store.getState().refresh();
    expect(store.getState().list.map((s) => s.name)).toEqual(['Renamed elsewhere', 'Added elsewhere']);
    expect(store.getState().open?.name).toBe('Renamed elsewhere');

    await otherTab.remove('session-1');
    await store.getState().refresh();
    expect(store.getState().openId).toBe('added');
    expect(store.getState().notice?.text).toBe('“Renamed elsewhere” was deleted in another tab.');
    otherTab.db.close();
  });

  it('names new sessions without clashing', () => {
    expect(untitledName([])).toBe('Untitled session');
    expect(untitledName([{ name: 'Untitled session' }, { name: 'Untitled session 2' }])).toBe(
      'Untitled session 3',
    );
  });
});
