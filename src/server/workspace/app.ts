// The workspace's Hono app under /api/workspace: checks every request (Host, Origin, the workbench header), answers
// refusals and errors as one JSON shape with a sentence, and never a token.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { WORKSPACE_BASE, WORKSPACE_PATHS } from '../../contract/workspace';
import type { Logger } from '../proxy/log';
import type { HostPolicy } from '../proxy/security';
import { Access } from './access';
import { Backoff } from './backoff';
import type { Db } from './db';
import { WorkspaceEvents } from './events';
import { WorkspaceFault } from './fault';
import { peopleRoutes } from './routesPeople';
import { queueRoutes } from './routesQueues';

export interface WorkspaceAppOptions {
  db: Db;
  logger: Logger;
  hostPolicy: HostPolicy;
  publicOrigin: string | null;
  backoff?: Backoff;
  events?: WorkspaceEvents;
  heartbeatSeconds?: number;
}

const fault = (c: Context, f: WorkspaceFault) =>
  c.json({ error: { type: f.type, message: f.message } }, f.status, { 'cache-control': 'no-store' });

const isEvents = (path: string): boolean => /^\/api\/workspace\/queues\/[^/]+\/events$/.test(path);

export function createWorkspaceApp(o: WorkspaceAppOptions): { app: Hono; events: WorkspaceEvents } {
  const events = o.events ?? new WorkspaceEvents();
  const access = new Access({
    db: o.db,
    logger: o.logger,
    hostPolicy: o.hostPolicy,
    backoff: o.backoff ?? new Backoff(),
  });
  const app = new Hono();
  app.use(`${WORKSPACE_BASE}/*`, async (c, next) => {
    access.checkRequest(c, c.req.method === 'GET' && isEvents(c.req.path));
    await next();
    c.header('cache-control', 'no-store');
  });
  peopleRoutes(app, { db: o.db, access, logger: o.logger, publicOrigin: o.publicOrigin });
  queueRoutes(app, { db: o.db, access, events, heartbeatSeconds: o.heartbeatSeconds });
  app.all(`${WORKSPACE_BASE}/*`, (c) => {
    const known = Object.values(WORKSPACE_PATHS).map((p) => new RegExp(`^${p.replace(':id', '[^/]+')}$`));
    const f = known.some((r) => r.test(c.req.path))
      ? new WorkspaceFault(404, 'method', `${c.req.method} is not a method of ${c.req.path}.`)
      : new WorkspaceFault(404, 'not_found', `The workspace has no ${c.req.path}.`);
    return fault(c, f);
  });
  app.onError((error, c) => {
    if (error instanceof WorkspaceFault) return fault(c, error);
    // The database's own message may quote a value: the log keeps it, the answer gets a plain sentence.
    o.logger.error(`[workspace] ${c.req.method} ${c.req.path} failed: ${error.message}`);
    return c.json(
      {
        error: { type: 'server_error', message: 'The workspace failed to answer; the server log says why.' },
      },
      500,
    );
  });
  return { app, events };
}
