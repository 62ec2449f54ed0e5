// The workspace's outbox in IndexedDB (fake-indexeddb): a database of schema version 5 opens at version 6 with its
// data kept and an empty outbox; labels are kept oldest first, forgotten once acknowledged, kept with the server's
// sentence once refused; a record a newer build wrote, or a damaged one, is reported and never deleted.
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { OutboxRepo } from '../../../../src/app/persistence/outbox';
import { OUTBOX_SCHEMA_VERSION, readOutboxRecord } from '../../../../src/app/persistence/outboxRecord';
import type { LabelInput } from '../../../../src/contract/workspace';
import { freshDbName } from './dbHelpers';

const opened: Dexie[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

const open = (name = freshDbName()): WorkbenchDb => {
  const db = new WorkbenchDb(name);
  opened.push(db);
  return db;
};

const label = (row: number, clientId: string, value: LabelInput['value'] = 'billing'): LabelInput => ({
  row,
  question: 'department',
  value,
  clientId,
});

describe('the outbox table', () => {
  it('comes with schema version 6, and a version 5 database keeps its data when it opens', async () => {
    const name = freshDbName();
    const before = new Dexie(name);
    before.version(5).stores({
      sessions: 'id, updatedAt, deletedAt',
      meta: 'key',
      rowRuns: 'id, sessionId, updatedAt',
      rowItems: '[runId+number], runId',
      rowAnswers: 'key, *questionKeys',
      rowReuses: '[runId+chunk], runId',
    });
    await before.table('meta').put({ key: 'open-session', value: 's1' });
    before.close();

    const db = open(name);
    const repo = new OutboxRepo(db);
    expect(await db.meta.get('open-session')).toEqual({ key: 'open-session', value: 's1' });
    expect(db.verno).toBe(6);
    expect(await repo.contents()).toEqual({ records: [], unreadable: [] });
  });

  it('keeps labels oldest first and forgets only the acknowledged ones', async () => {
    const repo = new OutboxRepo(open());
    await repo.keep('q1', label(2, 'c-late'), '2026-01-01T00:00:02.000Z');
    await repo.keep('q1', label(1, 'c-early'), '2026-01-01T00:00:01.000Z');
    await repo.keep('q2', label(1, 'c-other'), '2026-01-01T00:00:03.000Z');
    const kept = await repo.contents();
    expect(kept.records.map((r) => r.clientId)).toEqual(['c-early', 'c-late', 'c-other']);
    expect(kept.records[0]).toMatchObject({ schemaVersion: OUTBOX_SCHEMA_VERSION, queueId: 'q1' });

    await repo.acknowledged(['c-early', 'c-other']);
    expect((await repo.contents()).records.map((r) => r.clientId)).toEqual(['c-late']);
  });

  it('replaces a kept label given again under the same client id, so it is sent once', async () => {
    const repo = new OutboxRepo(open());
    await repo.keep('q1', label(1, 'c1', 'billing'), '2026-01-01T00:00:01.000Z');
    await repo.keep('q1', label(1, 'c1', 'sales'), '2026-01-01T00:00:02.000Z');
    const { records } = await repo.contents();
    expect(records).toHaveLength(1);
    expect(records[0]!.label.value).toBe('sales');
  });

  it('keeps a refused label with the server’s sentence', async () => {
    const repo = new OutboxRepo(open());
    await repo.keep('q1', label(1, 'c1'), '2026-01-01T00:00:01.000Z');
    await repo.refused(['c1'], 'This row is not yours to label (403).');
    const { records } = await repo.contents();
    expect(records[0]!.refusal).toBe('This row is not yours to label (403).');
    await repo.discard('c1');
    expect((await repo.contents()).records).toEqual([]);
  });

  it('reports a record of a newer version or a damaged one, and leaves both stored', async () => {
    const db = open();
    await db.outbox.bulkPut([
      { clientId: 'c-new', queueId: 'q1', createdAt: '2026-01-01T00:00:01.000Z', schemaVersion: 2 },
      { clientId: 'c-bad', queueId: 'q1', createdAt: '2026-01-01T00:00:02.000Z', schemaVersion: 1 },
    ]);
    const { records, unreadable } = await new OutboxRepo(db).contents();
    expect(records).toEqual([]);
    expect(unreadable).toEqual([
      {
        clientId: 'c-new',
        message: expect.stringMatching(/newer version of the workbench \(record version 2\)/),
      },
      {
        clientId: 'c-bad',
        message: expect.stringMatching(/^A label kept in this browser is damaged \(label: /),
      },
    ]);
    expect(await db.outbox.count()).toBe(2);
  });

  it('reads a record of the present version as it was written', () => {
    const record = {
      schemaVersion: 1,
      clientId: 'c1',
      queueId: 'q1',
      label: label(0, 'c1', true),
      createdAt: '2026-01-01T00:00:01.000Z',
    };
    expect(readOutboxRecord(record)).toEqual({ ok: true, record });
  });
});
