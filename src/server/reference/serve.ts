// Serves the reference app over HTTP on a port (0 picks a free one); used by main.ts, the tests and the bench.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { limitSlowClients } from '../http/limits';
import { createReference } from './app';
import { isEvaluateRoute, serveEvaluate } from './nodeRoute';
import type { ReferenceOptions } from './options';

/** A running reference service: its base URL and a close that ends open connections too. */
export interface RunningReference {
  url: string;
  close(): Promise<void>;
  /** The Node server underneath, for callers that measure or inspect connections (the bench does). */
  server: Server;
}

const urlHost = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/** Starts the reference service; binds 127.0.0.1 unless `host` says otherwise. */
export async function serveReference(
  options: Partial<ReferenceOptions> & { port?: number; host?: string } = {},
): Promise<RunningReference> {
  const { port = 0, host = '127.0.0.1', ...appOptions } = options;
  const { app, evaluate } = createReference(appOptions);
  const viaHono = getRequestListener(app.fetch, { hostname: host });
  // The evaluate route is served from node:http directly (nodeRoute.ts); the rest through Hono's adapter.
  const server = createServer((req, res) => {
    if (isEvaluateRoute(req)) void serveEvaluate(evaluate, req, res);
    else void viaHono(req, res);
  });
  limitSlowClients(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost(host)}:${address.port}`,
    server,
    close() {
      // Held (injected timeout) requests would keep close() waiting: drop every connection, which aborts them.
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
