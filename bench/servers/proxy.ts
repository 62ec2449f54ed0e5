// Child process for the proxy bench: the workbench server with a direct target at BENCH_UPSTREAM (the standalone
// reference) and its in-process local target, limits out of the way, no static files worth serving.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseServerEnv } from '../../src/server/env';
import { createLogger } from '../../src/server/proxy/log';
import { serveWorkbench } from '../../src/server/workbench';
import { reportReady } from '../lib/child';

const upstream = process.env.BENCH_UPSTREAM;
if (!upstream) throw new Error('BENCH_UPSTREAM must name the reference to forward to.');
const dist = mkdtempSync(join(tmpdir(), 'bench-dist-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html>');

const env = parseServerEnv({
  PORT: '0',
  HOST: '127.0.0.1',
  EVAL_BASE_URL: upstream,
  EVAL_API_KEY: 'local-dev-key',
  // The bench measures the proxy, not the limiter: budgets far above what loopback can send.
  REFERENCE_RPM: '1000000000',
  REFERENCE_TPS: '1000000000000',
  REFERENCE_MAX_INFLIGHT: '1000000',
});
const server = await serveWorkbench({
  env,
  distDir: dist,
  logger: createLogger({ secrets: ['local-dev-key'] }),
});
reportReady(server.url, () => server.close());
