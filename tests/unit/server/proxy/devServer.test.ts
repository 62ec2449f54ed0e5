// `npm run dev`: Vite's dev server with the proxy plugin serves /api exactly as `npm start` does.
import { resolve } from 'node:path';
import { createServer } from 'vite';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { evaluate } from '../../../../src/client';
import { listTargets, proxyClientTarget } from '../../../../src/client/workbenchApi';
import { workbenchProxy } from '../../../../src/server/vitePlugin';
import { exampleRequest } from '../../../helpers/fixtures';
import { rawRequest } from './helpers';

const ROOT = resolve(__dirname, '../../../..');
let server: ViteDevServer;
let url: string;

beforeAll(async () => {
  // The plugin reads PORT/HOST like npm start; 0 picks a free port, and no .env.local is read.
  const saved = { PORT: process.env.PORT, WORKBENCH_ENV_FILE: process.env.WORKBENCH_ENV_FILE };
  process.env.PORT = '0';
  process.env.WORKBENCH_ENV_FILE = '';
  try {
    server = await createServer({
      root: ROOT,
      configFile: false,
      logLevel: 'silent',
      plugins: [workbenchProxy(ROOT)],
      server: { hmr: false, watch: null },
    });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  await server.listen();
  url = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
}, 60_000);
afterAll(() => server?.close());

it('binds 127.0.0.1 and lists the targets through the proxy', async () => {
  expect(new URL(url).hostname).toBe('127.0.0.1');
  expect((await listTargets({ origin: url })).map((t) => t.id)).toEqual(['local']);
});

it('answers an evaluation through the same proxy code', async () => {
  const result = await evaluate(proxyClientTarget('local', url), exampleRequest());
  expect(result.response.model).toBe('model-1.13.0');
});

it('refuses /api requests without the workbench header, and foreign hosts', async () => {
  const host = new URL(url).host;
  expect((await rawRequest(url, { path: '/api/targets', headers: { host } })).status).toBe(403);
  const foreign = await rawRequest(url, {
    path: '/api/targets',
    headers: { host: 'attacker.example', 'x-workbench-request': '1' },
  });
  expect(foreign.status).toBe(403);
});

it('answers unknown /api paths with JSON 404 instead of the SPA', async () => {
  const res = await rawRequest(url, {
    path: '/api/nothing',
    headers: { host: new URL(url).host, 'x-workbench-request': '1', accept: 'text/html' },
  });
  expect(res.status).toBe(404);
  expect(res.headers['content-type']).toMatch(/application\/json/);
});
