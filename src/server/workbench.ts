// The workbench server, wired: the local reference created and handed to the targets module, the proxy over those
// targets, and the built SPA from dist/ on one port. Binds a socket. A composition root, like start.ts beside it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { TargetInfo } from '../contract';
import { isLoopbackHost } from './env';
import type { RawEnv, ServerEnv } from './env';
import { limitSlowClients } from './http/limits';
import { createWorkbenchProxy } from './proxy';
import type { WorkbenchProxy } from './proxy';
import { proxyError } from './proxy/app';
import type { Logger } from './proxy/log';
import type { HostPolicy, ServedAddress } from './proxy/security';
import { createInProcessReference } from './reference/local';
import { createModelJudge } from './reference/modelJudge/engine';
import { buildTargets, referenceTarget } from './targets/target';
import { WorkspaceMount, workspaceSettings } from './workspace';
import type { ProxyTarget } from './targets/target';

/** The local target of the workbench server: the reference in process, with REFERENCE_MODEL_FILE's model if set. */
export const localTarget = (env: RawEnv): ProxyTarget =>
  referenceTarget(createInProcessReference(env, { modelFile: true, judge: createModelJudge }));

/** Every target the workbench server (and `npm run check-target`) serves, in the configuration's order, local last. */
export const targetsFromEnv = (env: ServerEnv): ProxyTarget[] =>
  buildTargets(env.targets, () =>
    createInProcessReference(env.raw, { modelFile: true, judge: createModelJudge }),
  );

// Vite names every file under assets/ by its content hash: a changed file gets a new name, so caching forever is safe.
const HASHED_ASSETS = 'public, max-age=31536000, immutable';

/** The headers every page and file carries: no framing (a framed workbench could be clicked into spending a key). */
const PAGE_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
};

const acceptsHtml = (accept: string | undefined): boolean => (accept ?? '').includes('text/html');

/** The Hono app of the whole server: Host check, the proxy under /api, then the static SPA with its fallback. */
export function createWorkbenchApp(options: {
  proxy: WorkbenchProxy;
  distDir: string;
  hostPolicy: HostPolicy;
  /** The team workspace, answered before the proxy (whose /api/* refuses what it does not know). */
  workspace?: WorkspaceMount;
}): Hono {
  const { distDir, hostPolicy } = options;
  const app = new Hono();
  app.use('*', async (c, next) => {
    const refusal = hostPolicy.checkHost(c.req.header('host'));
    if (refusal) return proxyError(refusal.status, 'forbidden', refusal.message);
    await next();
    // /api answers are JSON with their own headers; setting these there would cost every proxied call a Headers copy.
    if (!c.req.path.startsWith('/api/')) {
      for (const [name, value] of Object.entries(PAGE_HEADERS)) c.res.headers.set(name, value);
    }
  });
  const workspace = options.workspace;
  if (workspace?.isPublic)
    // Served to a team: the keys the proxy holds are spent by the owner only, never by a labeller or a stranger.
    app.use('/api/*', async (c, next) => {
      if (c.req.path.startsWith('/api/workspace') || (await workspace.fromOwner(c.req.raw))) return next();
      return proxyError(
        403,
        'forbidden',
        "On a workbench served to a team, only the workspace's owner may use its targets.",
      );
    });
  if (workspace) {
    app.all('/api/workspace', (c) => workspace.fetch(c.req.raw, c.env));
    app.all('/api/workspace/*', (c) => workspace.fetch(c.req.raw, c.env));
  }
  app.route('/', options.proxy.app);
  app.use(
    '/assets/*',
    serveStatic({ root: distDir, onFound: (_path, c) => void c.header('Cache-Control', HASHED_ASSETS) }),
  );
  app.use(
    '*',
    serveStatic({ root: distDir, onFound: (_path, c) => void c.header('Cache-Control', 'no-cache') }),
  );
  // A page the SPA routes itself (a reload on a deep link) gets index.html; a missing file stays a 404.
  app.get('*', async (c, next) => {
    if (c.req.path.startsWith('/assets/') || !acceptsHtml(c.req.header('accept'))) return next();
    return serveStatic({
      root: distDir,
      path: 'index.html',
      onFound: (_path, ctx) => void ctx.header('Cache-Control', 'no-cache'),
    })(c, next);
  });
  app.notFound((c) => c.text('Not found.', 404));
  return app;
}

/** A running workbench server. */
export interface WorkbenchServer {
  /** The address to open in a browser, e.g. http://127.0.0.1:5173. */
  url: string;
  port: number;
  targets: TargetInfo[];
  close(): Promise<void>;
}

/** The URL a browser on this machine uses for a bound address (a wildcard bind is reached through 127.0.0.1). */
export function browserUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/** Serves dist/ and the proxy on env.host:env.port (port 0: any free port); resolves once listening. */
export async function serveWorkbench(options: {
  env: ServerEnv;
  distDir: string;
  logger: Logger;
  /** Where `.workbench/workspace` lives (the repository for npm start); beside distDir when not given. */
  root?: string;
}): Promise<WorkbenchServer> {
  const { env, logger } = options;
  let served: ServedAddress | null = null;
  const settings = workspaceSettings(env.raw, options.root ?? join(options.distDir, '..'), {
    loopback: isLoopbackHost(env.host),
  });
  const proxy = createWorkbenchProxy(env, { targets: targetsFromEnv(env), servedAt: () => served, logger });
  // A model file that cannot be loaded stops the start with its sentence, before anything listens.
  try {
    await proxy.ready;
  } catch (error) {
    await proxy.close();
    throw error;
  }
  const workspace = new WorkspaceMount({ settings, logger, hostPolicy: proxy.hostPolicy });
  // A database the code cannot use (newer, unreachable) stops the start with its sentence, before anything listens.
  if (workspace.eager)
    await workspace.open().catch(async (error: unknown) => {
      await proxy.close();
      throw error;
    });
  const app = createWorkbenchApp({
    proxy,
    distDir: options.distDir,
    hostPolicy: proxy.hostPolicy,
    workspace,
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  limitSlowClients(server);
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${env.port} on ${env.host} is already in use: stop the other server or set PORT.`)
          : error,
      );
    };
    server.once('error', onError);
    server.listen(env.port, env.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  served = {
    hostnames: [env.host, address.address],
    port: address.port,
    ...(settings.publicOrigin ? { publicOrigin: settings.publicOrigin } : {}),
  };
  server.on('error', (error) => logger.error(`[server] ${error.message}`));
  await workspace.startAtBoot(browserUrl(env.host, address.port));
  return {
    url: browserUrl(env.host, address.port),
    port: address.port,
    targets: proxy.targets,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections would hold close() open until they time out.
        server.closeAllConnections();
      }).finally(() => Promise.all([proxy.close(), workspace.close()])),
  };
}
