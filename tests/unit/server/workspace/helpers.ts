// A workspace served over loopback HTTP for the tests: PGlite in a temporary folder by default, or a fresh database
// on a real PostgreSQL when WORKSPACE_TEST_POSTGRES=1 (tests/helpers/postgres.ts, one cluster per test file).
import type { Server } from 'node:http';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { createLogger } from '../../../../src/server/proxy/log';
import type { LogLevel } from '../../../../src/server/proxy/log';
import { HostPolicy } from '../../../../src/server/proxy/security';
import type { ServedAddress } from '../../../../src/server/proxy/security';
import { createWorkspaceApp } from '../../../../src/server/workspace/app';
import { Backoff, BACKOFF_DEFAULTS } from '../../../../src/server/workspace/backoff';
import type { BackoffOptions } from '../../../../src/server/workspace/backoff';
import { openDb } from '../../../../src/server/workspace/db';
import type { Db } from '../../../../src/server/workspace/db';
import type { WorkspaceEvents } from '../../../../src/server/workspace/events';
import { migrate } from '../../../../src/server/workspace/migrations';
import { startPostgres } from '../../../helpers/postgres';
import type { TestPostgres } from '../../../helpers/postgres';

export const ON_POSTGRES = process.env.WORKSPACE_TEST_POSTGRES === '1';

let cluster: Promise<TestPostgres> | null = null;
// Registered while the test file is collected: a hook added later, inside a test, would never run and the cluster
// would outlive the run. It is registered once per module load, so the PostgreSQL pass runs each file with its own
// modules (`vitest run --isolate`, as .ci/run does); npm test shares modules between files and uses PGlite.
afterAll(async () => {
  const stopping = cluster;
  cluster = null;
  await (await stopping)?.stop();
});
let template: Promise<string> | null = null;

/**
 * An initialised, empty PGlite folder shared by every test file: initdb in WebAssembly takes seconds, a copy of its
 * result a fraction of one. Made once per machine (a rename publishes it whole), copied per test.
 */
export function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const version = (
      JSON.parse(
        readFileSync(join(process.cwd(), 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
      ) as {
        version: string;
      }
    ).version;
    const dir = join(tmpdir(), `workbench-pglite-template-${version}`);
    if (existsSync(join(dir, 'PG_VERSION'))) return dir;
    const building = mkdtempSync(join(tmpdir(), 'workbench-pglite-building-'));
    const lite = await PGlite.create({ dataDir: building });
    await lite.close();
    try {
      renameSync(building, dir);
    } catch {
      // Another test file published it first: theirs is as good.
      rmSync(building, { recursive: true, force: true });
    }
    return dir;
  })();
  return template;
}
let databases = 0;

/** A fresh, empty database: a PGlite folder, or a new database on this file's PostgreSQL. */
export async function freshDb(): Promise<{
  db: Db;
  settings: { databaseUrl: string | null; dataDir: string };
  drop(): void;
}> {
  if (ON_POSTGRES) {
    if (!cluster) {
      cluster = startPostgres();
    }
    const url = await (await cluster).createDatabase(`ws_${process.pid}_${++databases}`);
    const settings = { databaseUrl: url, dataDir: '' };
    return { db: await openDb(settings), settings, drop: () => undefined };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'workspace-test-'));
  cpSync(await pgliteTemplate(), dataDir, { recursive: true });
  const settings = { databaseUrl: null, dataDir };
  return {
    db: await openDb(settings),
    settings,
    drop: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

export interface Reply {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
  cookie: string | null;
}

export interface TestWorkspace {
  url: string;
  db: Db;
  events: WorkspaceEvents;
  logs: { level: LogLevel; line: string }[];
  /** A request as a browser of this workspace sends it (the workbench header, the cookie given). */
  call(
    method: string,
    path: string,
    options?: { body?: unknown; raw?: string; cookie?: string | null; headers?: Record<string, string> },
  ): Promise<Reply>;
  close(): Promise<void>;
}

export async function startWorkspace(
  options: { backoff?: Partial<BackoffOptions>; publicOrigin?: string } = {},
): Promise<TestWorkspace> {
  const { db, drop } = await freshDb();
  await migrate(db);
  const logs: { level: LogLevel; line: string }[] = [];
  const logger = createLogger({ secrets: [], write: (level, line) => logs.push({ level, line }) });
  let served: ServedAddress | null = null;
  const { app, events } = createWorkspaceApp({
    db,
    logger,
    hostPolicy: new HostPolicy(() => served),
    publicOrigin: options.publicOrigin ?? null,
    backoff: new Backoff({ ...BACKOFF_DEFAULTS, stepMs: 1, maxDelayMs: 5, ...options.backoff }),
    heartbeatSeconds: 1,
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  served = {
    hostnames: ['127.0.0.1'],
    port,
    ...(options.publicOrigin ? { publicOrigin: options.publicOrigin } : {}),
  };
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    db,
    events,
    logs,
    call: async (method, path, o = {}) => {
      const headers: Record<string, string> = { 'x-workbench-request': '1', ...o.headers };
      if (o.cookie) headers.cookie = o.cookie;
      if (o.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${url}${path}`, {
        method,
        headers,
        body: o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body)),
      });
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      const set = response.headers.get('set-cookie');
      return {
        status: response.status,
        body,
        text,
        headers: response.headers,
        cookie: set ? set.split(';')[0]! : null,
      };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
      drop();
    },
  };
}

/** A started workspace with its owner's cookie, and labellers joined by invites. */
export async function withTeam(ws: TestWorkspace, labellers: string[]) {
  const start = await ws.call('POST', '/api/workspace/start', { body: { name: 'Olive' } });
  if (start.status !== 200) throw new Error(`start: ${start.status} ${start.text}`);
  const owner = start.cookie!;
  const people: { name: string; cookie: string; id: string }[] = [];
  for (const name of labellers) {
    const invite = await ws.call('POST', '/api/workspace/invites', { body: {}, cookie: owner });
    const token = new URL((invite.body as { link: string }).link).hash.split('=')[1]!;
    const joined = await ws.call('POST', '/api/workspace/join', { body: { invite: token, name } });
    people.push({ name, cookie: joined.cookie!, id: (joined.body as { me: { id: string } }).me.id });
  }
  return { owner, ownerLink: (start.body as { ownerLink: string }).ownerLink, people };
}
