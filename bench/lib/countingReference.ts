// The reference service served over loopback with a tally of what it answered, per row: how many 200s each row id got
// (read from a field of the request's state), so a run can prove that no row was lost and none was answered twice.
// GET /__counts returns the tally, so a bench can read it from a reference running in another process.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { createReferenceApp } from '../../src/server/reference/app';
import type { ReferenceOptions } from '../../src/server/reference/options';

/** What the service did, seen from its side. */
export interface ServerCounts {
  /** 200 answers per row id. */
  answers: Record<string, number>;
  /** Responses per status, over every request. */
  statuses: Record<string, number>;
  requests: number;
  /** POST requests (evaluations asked for), whatever their answer. */
  posts: number;
}

export interface CountingReference {
  url: string;
  counts(): ServerCounts;
  /** The bodies of the evaluations answered (200), in order; kept only with `keepBodies`. */
  bodies(): unknown[];
  close(): Promise<void>;
}

export const COUNTS_PATH = '/__counts';

/** The row id in a request body: `state[field]` when the state is an object. */
const rowIdOf = (body: unknown, field: string): string | null => {
  const state = (body as { state?: unknown } | null)?.state;
  if (state && typeof state === 'object' && !Array.isArray(state)) {
    const v = (state as Record<string, unknown>)[field];
    if (typeof v === 'string' || typeof v === 'number') return String(v);
  }
  return null;
};

/** Serves the reference app on 127.0.0.1 (port 0 picks a free one) and counts answers per `state[idField]`. */
export async function serveCountingReference(
  options: Partial<ReferenceOptions> & { port?: number; idField?: string; keepBodies?: boolean } = {},
): Promise<CountingReference> {
  const { port = 0, idField = 'row_id', keepBodies = false, ...appOptions } = options;
  const app = createReferenceApp(appOptions);
  const tally: ServerCounts = { answers: {}, statuses: {}, requests: 0, posts: 0 };
  const bodies: unknown[] = [];
  const server = createAdaptorServer({
    hostname: '127.0.0.1',
    fetch: async (request: Request) => {
      if (new URL(request.url).pathname === COUNTS_PATH) return Response.json(tally);
      const body = request.method === 'POST' ? await request.clone().text() : '';
      const response = await app.fetch(request);
      tally.requests++;
      if (request.method === 'POST') tally.posts++;
      tally.statuses[response.status] = (tally.statuses[response.status] ?? 0) + 1;
      if (response.status === 200) {
        let id: string | null;
        try {
          const parsed: unknown = JSON.parse(body);
          id = rowIdOf(parsed, idField);
          if (keepBodies) bodies.push(parsed);
        } catch {
          id = null;
        }
        if (id !== null) tally.answers[id] = (tally.answers[id] ?? 0) + 1;
      }
      return response;
    },
  }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${address.port}`,
    counts: () => structuredClone(tally),
    bodies: () => structuredClone(bodies),
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** The counting reference's tally so far. */
export async function fetchCounts(url: string): Promise<ServerCounts> {
  return (await (await fetch(`${url}${COUNTS_PATH}`)).json()) as ServerCounts;
}

/** Sums a tally: rows answered once, more than once, and the ids that were never answered. */
export function tallyRows(counts: ServerCounts, ids: readonly string[]) {
  let once = 0;
  let twice = 0;
  const missing: string[] = [];
  for (const id of ids) {
    const n = counts.answers[id] ?? 0;
    if (n === 0) missing.push(id);
    else if (n === 1) once++;
    else twice++;
  }
  return { once, twice, missing };
}
