import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { SessionsRepo } from '../../../../src/app/persistence/sessionsRepo';
import { isQuotaError } from '../../../../src/app/persistence/storageErrors';
import { asStored, sampleSession } from '../../../helpers/sessions';
import { dbWithQuota, freshDbName } from './dbHelpers';

let db: WorkbenchDb;
let repo: SessionsRepo;
beforeEach(() => {
  db = new WorkbenchDb(freshDbName());
  repo = new SessionsRepo(db);
});
afterEach(async () => {
  await db.delete();
});

const triage = sampleSession();
const refunds = sampleSession({
  id: 'session-2',
  name: 'Refund wording',
  updatedAt: '2026-03-02T00:00:00.000Z',
  doc: { ...triage.doc, stateText: 'I want my money back for order 1234', stateMode: 'text' },
  runs: [],
});

describe('SessionsRepo', () => {
  it('stores and reads sessions exactly, newest change first', async () => {
    await repo.put(triage);
    await repo.put(refunds);
    expect(await repo.get(triage.id)).toEqual(asStored(triage));
    const { sessions, unreadable } = await repo.listAll();
    expect(sessions.map((s) => s.id)).toEqual(['session-2', 'session-1']);
    expect(sessions[1]).toEqual(asStored(triage));
    expect(unreadable).toEqual([]);
  });

  it('searches names and content', async () => {
    await repo.put(triage);
    await repo.put(refunds);
    expect((await repo.search('wording')).map((s) => s.id)).toEqual(['session-2']);
    expect((await repo.search('money ORDER')).map((s) => s.id)).toEqual(['session-2']);
    expect((await repo.search('payouts')).map((s) => s.id)).toEqual(['session-1']);
    expect((await repo.search('model-latest')).map((s) => s.id)).toEqual(['session-2', 'session-1']);
    expect(await repo.search('nothing like this')).toEqual([]);
  });

  it('creates, renames and duplicates', async () => {
    const created = await repo.create(triage.doc, 'Untitled', new Date('2026-05-01T00:00:00Z'));
    expect(created.runs).toEqual([]);
    const renamed = await repo.rename(created.id, 'Tone', new Date('2026-05-02T00:00:00Z'));
    expect(renamed).toMatchObject({ name: 'Tone', updatedAt: '2026-05-02T00:00:00.000Z' });
    await repo.put(triage);
    const copy = await repo.duplicate(triage.id, new Date('2026-05-03T00:00:00Z'));
    expect(copy!.id).not.toBe(triage.id);
    expect(copy).toMatchObject({ name: 'Support triage (copy)', doc: triage.doc, runs: triage.runs });
    expect(await repo.get(triage.id)).toEqual(asStored(triage));
    expect((await repo.listAll()).sessions).toHaveLength(3);
  });

  it('deletes with undo, and a late autosave does not bring a deleted session back', async () => {
    await repo.put(triage);
    await repo.remove(triage.id);
    expect(await repo.get(triage.id)).toBeUndefined();
    expect((await repo.listAll()).sessions).toEqual([]);
    await repo.put({ ...triage, name: 'typed after delete' });
    expect((await repo.listAll()).sessions).toEqual([]);
    const back = await repo.undoRemove(triage.id);
    expect(back).toEqual(asStored({ ...triage, name: 'typed after delete' }));
    expect((await repo.listAll()).sessions).toHaveLength(1);
  });

  it('purges only sessions deleted long enough ago', async () => {
    await repo.put(triage);
    await repo.put(refunds);
    await repo.remove(triage.id, new Date('2026-01-01T00:00:00Z'));
    await repo.remove(refunds.id, new Date('2026-01-01T00:09:00Z'));
    expect(await repo.purgeDeleted(10 * 60_000, new Date('2026-01-01T00:15:00Z'))).toBe(1);
    expect(await repo.rawRow(triage.id)).toBeUndefined();
    expect(await repo.undoRemove(refunds.id)).toEqual(asStored(refunds));
  });

  it('imports as copies the sessions whose id is already stored, all in one transaction', async () => {
    await repo.put(triage);
    const result = await repo.importSessions([triage, refunds, refunds]);
    expect(result.copies).toBe(2);
    expect(result.sessions.map((s) => s.name)).toEqual([
      'Support triage (copy)',
      'Refund wording',
      'Refund wording (copy)',
    ]);
    expect(new Set(result.sessions.map((s) => s.id)).size).toBe(3);
    expect(await repo.get(triage.id)).toEqual(asStored(triage));
    expect((await repo.listAll()).sessions).toHaveLength(4);
  });

  it('reports an unreadable row and keeps it untouched', async () => {
    const damaged = { schemaVersion: 2, id: 'broken', name: 'x', doc: 'not a doc' };
    await repo.put(triage);
    await db.sessions.put(damaged as never);
    const { sessions, unreadable } = await repo.listAll();
    expect(sessions.map((s) => s.id)).toEqual([triage.id]);
    expect(unreadable).toEqual([
      { id: 'broken', message: expect.stringMatching(/^This session is damaged: /) },
    ]);
    expect(await repo.rawRow('broken')).toEqual(damaged);
    await expect(repo.get('broken')).rejects.toThrow(/damaged/);
  });

  it('keeps meta values, parsed on read', async () => {
    const { z } = await import('zod');
    await repo.setMeta('openSessionId', triage.id);
    await repo.setMeta('layout', { left: 40 });
    expect(await repo.getMeta('openSessionId', z.string())).toBe(triage.id);
    expect(await repo.getMeta('layout', z.string())).toBeUndefined();
    expect(await repo.getMeta('missing', z.string())).toBeUndefined();
  });

  it('rejects with a quota error when the disk is full, and an import changes nothing', async () => {
    const { db: fullDb, setFull } = dbWithQuota();
    const fullRepo = new SessionsRepo(fullDb);
    await fullRepo.put(triage);
    setFull(true);
    const error = await fullRepo.importSessions([refunds]).catch((e: unknown) => e);
    expect(isQuotaError(error)).toBe(true);
    setFull(false);
    expect((await fullRepo.listAll()).sessions.map((s) => s.id)).toEqual([triage.id]);
    await fullDb.delete();
  });
});
