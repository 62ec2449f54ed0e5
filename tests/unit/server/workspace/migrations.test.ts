// Migrations: a fresh database gets every version, a second start applies nothing, and a database a newer workbench
// migrated is refused with a sentence before anything is touched.
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_VERSION, migrate, MIGRATIONS } from '../../../../src/server/workspace/migrations';
import { freshDb } from './helpers';

const opened: { close(): Promise<void>; drop(): void }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.close();
    o.drop();
  }
});

async function open() {
  const fresh = await freshDb();
  opened.push({ close: () => fresh.db.close(), drop: fresh.drop });
  return fresh.db;
}

describe('workspace migrations', () => {
  it('applies every version to a fresh database, and nothing on a second start', async () => {
    const db = await open();
    expect(await migrate(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(db)).toEqual([]);
    const versions = await db.query<{ version: number }>(
      'SELECT version FROM workspace_schema ORDER BY version',
    );
    expect(versions.map((v) => v.version)).toEqual(MIGRATIONS.map((m) => m.version));
    const tables = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('people', 'labels', 'queue_rows')`,
    );
    expect(tables[0]!.n).toBe(3);
  });

  it('refuses a database a newer workbench migrated, naming both versions', async () => {
    const db = await open();
    await migrate(db);
    await db.query('INSERT INTO workspace_schema (version) VALUES ($1)', [LATEST_VERSION + 1]);
    await expect(migrate(db)).rejects.toThrow(
      `The workspace database is at version ${LATEST_VERSION + 1}, newer than this workbench knows (${LATEST_VERSION})`,
    );
  });

  it('rolls a failing migration back whole: no table of it stays, and its version is not recorded', async () => {
    const db = await open();
    await migrate(db);
    const broken = [
      ...MIGRATIONS,
      { version: LATEST_VERSION + 1, sql: 'CREATE TABLE half (x int); SELECT nonsense_fn();' },
    ];
    await expect(migrate(db, broken)).rejects.toThrow();
    const half = await db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half'`);
    expect(half).toEqual([]);
    expect(await migrate(db)).toEqual([]);
  });
});
