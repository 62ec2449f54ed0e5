// Child process for the workspace bench: the workspace app alone on loopback, on PGlite in BENCH_WORKSPACE_DIR or on
// PostgreSQL at DATABASE_URL. Prints `READY <url>` when listening; killed by the bench (SIGKILL in the fault phase).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createLogger } from '../../src/server/proxy/log';
import { HostPolicy } from '../../src/server/proxy/security';
import type { ServedAddress } from '../../src/server/proxy/security';
import { createWorkspaceApp } from '../../src/server/workspace/app';
import { openDb } from '../../src/server/workspace/db';
import { migrate } from '../../src/server/workspace/migrations';

const db = await openDb({
  databaseUrl: process.env.DATABASE_URL ?? null,
  dataDir: process.env.BENCH_WORKSPACE_DIR ?? '',
});
await migrate(db);
let served: ServedAddress | null = null;
const { app } = createWorkspaceApp({
  db,
  logger: createLogger({ secrets: [], write: () => undefined }),
  hostPolicy: new HostPolicy(() => served),
  publicOrigin: null,
});
const server = createAdaptorServer({ fetch: app.fetch }) as Server;
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.BENCH_PORT ?? 0), '127.0.0.1', () => {
  const port = (server.address() as AddressInfo).port;
  served = { hostnames: ['127.0.0.1'], port };
  process.stdout.write(`READY http://127.0.0.1:${port}\n`);
});
