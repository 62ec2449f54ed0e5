import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { SessionsRepo } from '../../../../src/app/persistence/sessionsRepo';
import { RowsRepo, findQuestionAnswers } from '../../../../src/app/persistence/rowsRepo';
import { SessionSchema } from '../../../../src/core/session';
import { migrateSession } from '../../../../src/core/sessionMigrations';
import { v1Records } from '../../../helpers/sessions';
import { freshDbName } from './dbHelpers';

const opened: Dexie[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

/** A database exactly as the first release left it: schema version 1, session records of schema version 1. */
async function seedFirstRelease(name: string, records: unknown[]): Promise<void> {
  const first = new Dexie(name);
  first.version(1).stores({ sessions: 'id' });
  await first.table('sessions').bulkAdd(records);
  first.close();
}

describe('opening a database of the first schema version', () => {
  it('keeps every record, migrated and readable', async () => {
    const name = freshDbName();
    const many = Array.from({ length: 40 }, (_, i) => ({
      ...structuredClone(v1Records[i % 2]!),
      id: `v1-${i}`,
    }));
    await seedFirstRelease(name, many);

    const db = new WorkbenchDb(name);
    opened.push(db);
    const { sessions, unreadable } = await new SessionsRepo(db).listAll();
    expect(unreadable).toEqual([]);
    expect(sessions).toHaveLength(many.length);
    for (const record of many) {
      const session = sessions.find((s) => s.id === record.id);
      expect(session).toEqual(migrateSession(record));
    }
    // The rows themselves were rewritten at the new schema version, so they parse without migrating.
    const rows = await db.sessions.toArray();
    for (const row of rows) expect(SessionSchema.safeParse(row).success).toBe(true);
    expect(db.verno).toBeGreaterThanOrEqual(2);
  });

  it('keeps a record that does not migrate, as it was, and reports it', async () => {
    const name = freshDbName();
    const broken = { schemaVersion: 1, id: 'v1-broken', name: 'Half written', state: 'x' };
    await seedFirstRelease(name, [structuredClone(v1Records[0]!), broken]);

    const db = new WorkbenchDb(name);
    opened.push(db);
    const repo = new SessionsRepo(db);
    const { sessions, unreadable } = await repo.listAll();
    expect(sessions.map((s) => s.id)).toEqual(['v1-alpha']);
    expect(unreadable).toEqual([
      { id: 'v1-broken', message: expect.stringMatching(/^This session \(schema version 1\) is damaged: /) },
    ]);
    expect(await repo.rawRow('v1-broken')).toEqual(broken);
  });

  it('adds the meta table and the indexes the sidebar needs', async () => {
    const name = freshDbName();
    await seedFirstRelease(name, [structuredClone(v1Records[1]!)]);
    const db = new WorkbenchDb(name);
    opened.push(db);
    await db.open();
    expect(db.tables.map((t) => t.name)).toEqual(expect.arrayContaining(['meta', 'sessions']));
    expect(await db.sessions.orderBy('updatedAt').primaryKeys()).toEqual(['v1-beta']);
  });
});

describe('opening a database of schema version 4', () => {
  it('keeps every stored answer, found whole as before, and indexes the question keys of answers stored after', async () => {
    const name = freshDbName();
    const v4 = new Dexie(name);
    v4.version(1).stores({ sessions: 'id' });
    v4.version(2).stores({ sessions: 'id, updatedAt, deletedAt', meta: 'key' });
    v4.version(3).stores({
      rowRuns: 'id, sessionId, updatedAt',
      rowItems: '[runId+number], runId',
      rowAnswers: 'key',
    });
    v4.version(4).stores({ rowReuses: '[runId+chunk], runId' });
    const old = {
      key: 'old',
      targetId: 'local',
      model: 'model-1.13.0',
      at: 1,
      response: {
        model: 'model-1.13.0',
        answers: { q: { type: 'noul' as const, noul: 0.2 } },
        usage: { input_tokens: 9 },
      },
    };
    await v4.table('rowAnswers').add(old);
    v4.close();

    const db = new WorkbenchDb(name);
    opened.push(db);
    const repo = new RowsRepo(db);
    expect(await repo.answers(['old'])).toEqual(new Map([['old', old]]));
    expect(db.verno).toBe(6);
    // Found per question by its own key (one question), and nothing else.
    expect([...(await findQuestionAnswers(db, ['old', 'q']))]).toEqual([['old', old]]);
    const fresh = { ...old, key: 'new', questionKeys: ['qa', 'qb'] };
    await db.rowAnswers.put(fresh);
    expect((await findQuestionAnswers(db, ['qb'])).get('qb')).toEqual(fresh);
  });
});
