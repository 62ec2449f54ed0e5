// Helpers of the proxy tests: a workbench server on a free port, raw HTTP requests, and a recording upstream.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerResponse, IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configuredSecrets, parseServerEnv } from '../../../../src/server/env';
import { readTargetsFile } from '../../../../src/server/targets/config';
import type { RawEnv } from '../../../../src/server/env';
import { createLogger } from '../../../../src/server/proxy/log';
import type { LogLevel } from '../../../../src/server/proxy/log';
import { serveWorkbench } from '../../../../src/server/workbench';
import type { ReferenceOptions } from '../../../../src/server/reference/options';
import { serveReference } from '../../../../src/server/reference/serve';
import type { WorkbenchServer } from '../../../../src/server/workbench';

/** A tiny built site: what the static half of the server serves in these tests. */
export function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><title>Evaluate Workbench</title><div id="root"></div>',
  );
  writeFileSync(join(dir, 'assets', 'index-AbC123.js'), 'console.log("app");');
  writeFileSync(join(dir, 'assets', 'index-AbC123.css'), 'body{margin:0}');
  return dir;
}

/** A workbench server on a free loopback port, with every log line kept. */
export interface TestWorkbench extends WorkbenchServer {
  logs: { level: LogLevel; line: string }[];
  /** host:port as the browser sends it in Host. */
  hostHeader: string;
}

/**
 * Runs `use` against a workbench whose `direct` target is a fresh reference started with `reference` options and
 * `key`; closes both afterwards, whatever happens.
 */
export async function withDirectTarget(
  reference: Partial<ReferenceOptions>,
  vars: RawEnv & { EVAL_API_KEY: string },
  use: (wb: TestWorkbench) => Promise<void>,
  upstreamKey = vars.EVAL_API_KEY,
): Promise<void> {
  const upstream = await serveReference({ port: 0, apiKeys: [upstreamKey], ...reference });
  const wb = await startWorkbench({ EVAL_BASE_URL: upstream.url, ...vars });
  try {
    await use(wb);
  } finally {
    await wb.close();
    await upstream.close();
  }
}

/** Starts the real workbench server (proxy + static) with these variables and no .env file. */
export async function startWorkbench(vars: RawEnv = {}, distDir = fakeDist()): Promise<TestWorkbench> {
  const raw = { PORT: '0', HOST: '127.0.0.1', ...vars };
  // A targets file only when the test names one (WORKBENCH_TARGETS_FILE): never the repository's own.
  const env = parseServerEnv(raw, vars.WORKBENCH_TARGETS_FILE ? readTargetsFile(tmpdir(), raw) : null);
  const logs: { level: LogLevel; line: string }[] = [];
  const logger = createLogger({
    secrets: configuredSecrets(env),
    write: (level, line) => logs.push({ level, line }),
  });
  const server = await serveWorkbench({ env, distDir, logger });
  return { ...server, logs, hostHeader: `127.0.0.1:${server.port}` };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP request with full control over its headers (fetch forbids setting Host). Sends `body` with a
 * Content-Length, or chunked when `chunked` is set.
 */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    path: string;
    headers?: OutgoingHttpHeaders;
    body?: string | Buffer;
    chunked?: boolean;
  },
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname,
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) {
      if (options.chunked) {
        // Two writes without a Content-Length: Node sends Transfer-Encoding: chunked.
        const body = Buffer.from(options.body);
        req.write(body.subarray(0, body.length >> 1));
        req.write(body.subarray(body.length >> 1));
      } else {
        req.setHeader('content-length', Buffer.byteLength(options.body));
        req.write(options.body);
      }
    }
    req.end();
  });
}

/** What a recording upstream saw. */
export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP server that records each request and answers with `reply`: for checks the reference cannot show. */
export async function recordingUpstream(
  reply: (req: Recorded, res: ServerResponse<IncomingMessage>) => void,
): Promise<{ url: string; seen: Recorded[]; close(): Promise<void> }> {
  const seen: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(recorded);
      reply(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Headers a same-origin fetch from the workbench page carries. */
export const pageHeaders = (host: string): Record<string, string> => ({
  host,
  origin: `http://${host}`,
  'sec-fetch-site': 'same-origin',
  'x-workbench-request': '1',
  'content-type': 'application/json',
  accept: 'application/json',
});

/** A unique marker, so a leak found in output cannot be a coincidence. */
export const uniqueSecret = (name: string): string =>
  `${name}-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
