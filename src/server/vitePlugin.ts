// `npm run dev`: mounts the same proxy as `npm start` in front of Vite's dev server, so both serve /api alike.
// Loaded by vite.config.ts through Vite's module runner, only for the dev server.
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import type { Plugin } from 'vite';
import { configuredSecrets, isLoopbackHost, loadServerEnv } from './env';
import { createLogger, createWorkbenchProxy, describeTargets, onlyLocal } from './proxy';
import { targetsFromEnv } from './workbench';
import { WorkspaceMount, workspaceSettings } from './workspace';

const isApiPath = (url: string | undefined): boolean =>
  url !== undefined && (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?'));

/** The dev server plugin: binds to HOST/PORT (default 127.0.0.1:5173) and serves /api through the proxy. */
export function workbenchProxy(root: string): Plugin {
  const env = loadServerEnv({ root });
  const logger = createLogger({ secrets: configuredSecrets(env) });
  return {
    name: 'evaluate-workbench-proxy',
    apply: 'serve',
    config: () => ({ server: { host: env.host, port: env.port } }),
    configureServer(server) {
      env.warnings.forEach((w) => logger.warn(`Warning: ${w}`));
      const proxy = createWorkbenchProxy(env, {
        targets: targetsFromEnv(env),
        logger,
        // The port Vite really bound (it moves on when the configured one is busy).
        servedAt: () => {
          const address = server.httpServer?.address();
          return address && typeof address === 'object'
            ? { hostnames: [env.host, address.address], port: address.port }
            : null;
        },
      });
      // A model file loads in the background; a file that cannot be loaded is said once, in the terminal.
      proxy.ready.catch((error: unknown) => logger.error(`[local] ${(error as Error).message}`));
      server.httpServer?.once('close', () => void proxy.close());
      // The team workspace answers /api/workspace as under npm start, before the proxy (which refuses what it does not know).
      const workspace = new WorkspaceMount({
        settings: workspaceSettings(env.raw, root, { loopback: isLoopbackHost(env.host) }),
        logger,
        hostPolicy: proxy.hostPolicy,
      });
      server.httpServer?.once('close', () => void workspace.close());
      const app = new Hono();
      app.all('/api/workspace', (c) => workspace.fetch(c.req.raw, c.env));
      app.all('/api/workspace/*', (c) => workspace.fetch(c.req.raw, c.env));
      app.route('/', proxy.app);
      const listener = getRequestListener(app.fetch);
      // Added before Vite's own middlewares, so /api never reaches the SPA fallback.
      server.middlewares.use((req, res, next) => {
        if (isApiPath(req.url)) void listener(req, res);
        else next();
      });
      server.httpServer?.once('listening', () => {
        logger.info('Workbench targets (through the proxy at /api):');
        describeTargets(proxy.targets).forEach((line) => logger.info(line));
        if (onlyLocal(proxy.targets)) {
          logger.info(
            'Add EVAL_BASE_URL and EVAL_API_KEY to .env.local and restart to add the real service.',
          );
        }
      });
    },
  };
}
