// Serves a stand-in's Hono app on 127.0.0.1 at a free port, and calls the reference app in-process behind it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { createReferenceApp } from '../../../src/server/reference/app';

/** A running stand-in: its base URL, every body it received, and a close that ends open connections. */
export interface RunningStandin {
  url: string;
  /** Request bodies as received (parsed JSON, or the raw text), in order. */
  received: unknown[];
  close(): Promise<void>;
}

const REFERENCE_KEY = 'standin-internal-key';

/** The reference judge as a stand-in's back end: no rate limits of its own (the stand-in owns its limits). */
export function referenceBackend(): (
  body: unknown,
) => Promise<{ status: number; json: unknown; headers: Headers }> {
  const app = createReferenceApp({ apiKeys: [REFERENCE_KEY], rpm: 1e9, tps: 1e12 });
  return async (body) => {
    const response = await app.fetch(
      new Request('http://reference.invalid/v1/evaluate', {
        method: 'POST',
        headers: { authorization: `Bearer ${REFERENCE_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    return { status: response.status, json: (await response.json()) as unknown, headers: response.headers };
  };
}

/** Listens on a free loopback port. */
export async function listenStandin(app: Hono, received: unknown[]): Promise<RunningStandin> {
  const server = createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A body as JSON, or its text when it is not JSON. */
export async function readBody(request: Request): Promise<{ json: unknown; ok: boolean }> {
  const text = await request.text();
  try {
    return { json: JSON.parse(text) as unknown, ok: true };
  } catch {
    return { json: text, ok: false };
  }
}
