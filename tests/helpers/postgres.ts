// A real PostgreSQL from Debian's packages for tests and the bench: initdb and pg_ctl in a temporary folder, on a free
// port, run as the `postgres` user when this process is root (PostgreSQL refuses to run as root). Stopped by stop().
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPostgres {
  /** A URL to the cluster's `postgres` database; make a database per test with createDatabase. */
  url: string;
  port: number;
  createDatabase(name: string): Promise<string>;
  stop(): void;
}

/** The newest installed PostgreSQL's bin folder, or null when none is installed. */
export function postgresBin(): string | null {
  try {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    return versions.length ? `/usr/lib/postgresql/${versions[0]}/bin` : null;
  } catch {
    return null;
  }
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('No PostgreSQL under /usr/lib/postgresql: apt-get install postgresql.');
  const dir = mkdtempSync(join(tmpdir(), 'workbench-pg-'));
  const data = join(dir, 'data');
  const root = process.getuid?.() === 0;
  const pgUser = root ? 'postgres' : (process.env.USER ?? 'postgres');
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const run = (tool: string, args: string[]) =>
    root
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, tool), args, { stdio: 'pipe' });
  run('initdb', ['-D', data, '-A', 'trust', '-U', pgUser, '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`,
    'start',
  ]);
  const url = `postgresql://${pgUser}@127.0.0.1:${port}/postgres`;
  const pg = (await import('pg')).default;
  return {
    url,
    port,
    createDatabase: async (name) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`CREATE DATABASE "${name}"`);
      await client.end();
      return `postgresql://${pgUser}@127.0.0.1:${port}/${name}`;
    },
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
