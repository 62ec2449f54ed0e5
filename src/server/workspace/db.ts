// One database interface over PGlite (Postgres in WebAssembly, in process, files in a folder) and a real PostgreSQL
// (`pg`, when DATABASE_URL is set): the same SQL runs on both. Durable writes on PGlite: relaxedDurability is never set.
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** Runs one statement with $1.. parameters and returns its rows. */
export interface Sql {
  query<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs several statements without parameters (a migration). */
  exec(text: string): Promise<void>;
}

export interface Db extends Sql {
  kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction (READ COMMITTED); rolled back when fn throws. PGlite serialises transactions. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** PGlite with its files in dataDir (created when missing), or in memory when dataDir is null (tests of one step). */
export async function openPglite(dataDir: string | null): Promise<Db> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const lite = await PGlite.create(dataDir ? { dataDir } : {});
  type Target = Pick<PGlite, 'query' | 'exec'>;
  const sqlOf = (target: Target): Sql => ({
    query: async <T>(text: string, params?: readonly unknown[]) =>
      (await target.query<T>(text, params ? [...params] : undefined)).rows,
    exec: async (text) => void (await target.exec(text)),
  });
  return {
    kind: 'pglite',
    ...sqlOf(lite),
    transaction: (fn) => lite.transaction((tx) => fn(sqlOf(tx))),
    close: () => lite.close(),
  };
}

/** A pool on a real PostgreSQL. */
export async function openPostgres(url: string, max = 10): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client's error (the server restarted) must not end the process; the next query reconnects.
  pool.on('error', () => undefined);
  const probe = await pool.connect();
  probe.release();
  return {
    kind: 'postgres',
    query: async <T>(text: string, params?: readonly unknown[]) =>
      (await pool.query<T & pg.QueryResultRow>(text, params ? [...params] : undefined)).rows,
    exec: async (text) => void (await pool.query(text)),
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: async <T>(text: string, params?: readonly unknown[]) =>
            (await client.query<T & pg.QueryResultRow>(text, params ? [...params] : undefined)).rows,
          exec: async (text) => void (await client.query(text)),
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** The database the settings name: PostgreSQL at DATABASE_URL, else PGlite in dataDir. */
export const openDb = (settings: { databaseUrl: string | null; dataDir: string }): Promise<Db> =>
  settings.databaseUrl ? openPostgres(settings.databaseUrl) : openPglite(settings.dataDir);
