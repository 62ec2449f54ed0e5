// What every stand-in shares: the reference app as the judge behind it, and a socket on a free loopback port. A
// stand-in is not the server it imitates: it differs from the contract exactly as that server's documentation and
// source say (docs/servers.md), and answers with the reference's deterministic judge.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import type { EvaluateResponse } from '../../../src/contract';
import { createReferenceApp } from '../../../src/server/reference/app';

/** A stand-in listening on 127.0.0.1: its base URL, the key it wants (null when keyless) and a close. */
export interface RunningStandin {
  url: string;
  /** The key the stand-in accepts, or null for a keyless local server. */
  key: string | null;
  /** What a workbench.targets.json entry for it says (without baseUrl, which is `url`). */
  entry: Record<string, unknown>;
  /** Every request the stand-in received: method, path with query, headers. */
  seen: { method: string; path: string; headers: Record<string, string> }[];
  close(): Promise<void>;
}

const REFERENCE_KEY = 'standin-reference-key';

/** The reference judge, in-process, with its own key: what a stand-in asks for the answers. */
export function referenceJudge() {
  const app = createReferenceApp({ apiKeys: [REFERENCE_KEY], rpm: 1_000_000, tps: 1_000_000_000 });
  return {
    /** Evaluates a System One body with a reference model id; status and parsed body as the reference answered. */
    async evaluate(
      body: Record<string, unknown>,
    ): Promise<{ status: number; json: unknown; headers: Headers }> {
      const res = await app.fetch(
        new Request('http://reference.invalid/v1/evaluate', {
          method: 'POST',
          headers: { authorization: `Bearer ${REFERENCE_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
      return { status: res.status, json: await res.json(), headers: res.headers };
    },
  };
}

/** The reference's success body, typed: a stand-in renames its model or reshapes it. */
export const asResponse = (json: unknown): EvaluateResponse => json as EvaluateResponse;

/** The one-sentence message of a reference error body, for a stand-in that writes errors its own way. */
export function referenceMessage(json: unknown): string {
  const detail = (json as { detail?: { message?: string; errors?: { msg?: string }[] } }).detail;
  return detail?.errors?.[0]?.msg ?? detail?.message ?? 'invalid request';
}

/** Reads a JSON body, or null when it is not JSON. */
export async function jsonBody(request: Request): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = await request.json();
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Serves a stand-in's Hono app on a free loopback port, recording each request it gets. */
export async function serveStandin(
  app: Hono,
  key: string | null,
  entry: Record<string, unknown>,
): Promise<RunningStandin> {
  const seen: RunningStandin['seen'] = [];
  const server = createAdaptorServer({
    fetch: (request: Request) => {
      const url = new URL(request.url);
      seen.push({
        method: request.method,
        path: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
      });
      return app.fetch(request);
    },
  }) as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    entry,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A random key, so a leak found in output cannot be a coincidence. */
export const standinKey = (name: string): string =>
  `${name}-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
