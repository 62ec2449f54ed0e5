// With EVAL_BASE_URL and EVAL_API_KEY pointing at a second reference: the direct target appears and answers, and its
// key is visible nowhere in the browser (requests, responses, bundle, storage).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveReference } from '../../src/server/reference/serve';
import type { RunningReference } from '../../src/server/reference/serve';
import { exampleRequest } from '../helpers/fixtures';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { storageSnapshot } from './harness/storage';
import { WorkbenchPage } from './pages/WorkbenchPage';

const KEY = `direct-secret-${Math.random().toString(36).slice(2)}`;
let upstream: RunningReference;
let server: WorkbenchProcess;

beforeAll(async () => {
  upstream = await serveReference({ port: 0, apiKeys: [KEY] });
  server = await startWorkbenchProcess({ EVAL_BASE_URL: upstream.url, EVAL_API_KEY: KEY });
});
afterAll(async () => {
  await server?.stop();
  await upstream?.close();
});

const browser = useBrowser();

it('lists the direct target first, starts a new session on it, answers through it, and never shows its key to the browser', async () => {
  const page = browser.page();
  // Every byte the page sends or receives, bundle included.
  const traffic: string[] = [];
  page.on('request', (request) => {
    traffic.push(
      `${request.method()} ${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ''}`,
    );
  });
  // Responses are read as they arrive; the checks below wait for every read to finish.
  const reads: Promise<void>[] = [];
  page.on('response', (response) => {
    reads.push(
      (async () => {
        const body = await response.body().catch(() => Buffer.alloc(0));
        const headers = await response.allHeaders().catch(() => ({}));
        traffic.push(
          `${response.status()} ${response.url()} ${JSON.stringify(headers)} ${body.toString('utf8')}`,
        );
      })(),
    );
  });

  const workbench = new WorkbenchPage(page, server.url);
  await workbench.open();
  const { shell } = workbench;
  const host = new URL(upstream.url).host;

  expect(await shell.targetOptions()).toEqual([
    { id: 'direct', label: `Evaluation Service (${host})` },
    { id: 'local', label: 'Local reference (not a language model)' },
  ]);
  // A new session starts on the first configured target whose key is present: the real service, not local.
  await expect.poll(() => shell.selectedTarget()).toBe('direct');
  expect(await shell.targetKind.textContent()).toBe(`direct · ${host}`);
  expect(await shell.modelNames()).toEqual(['model-latest', 'model-preview']);
  expect(await shell.banner.count()).toBe(0);

  // An evaluation from the page, as the workbench sends it.
  const answer = await page.evaluate(async (body: string) => {
    const response = await fetch('/api/targets/direct/v1/evaluate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Workbench-Request': '1' },
      body,
    });
    return { status: response.status, body: (await response.json()) as { model: string } };
  }, JSON.stringify(exampleRequest()));
  expect(answer.status).toBe(200);
  expect(answer.body.model).toBe('model-1.13.0');

  await shell.selectTarget('local');
  expect(await shell.targetKind.textContent()).toBe('local');
  await shell.models.first().waitFor();

  await Promise.all(reads);
  expect(traffic.length).toBeGreaterThan(5);
  expect(traffic.some((t) => t.includes('/assets/'))).toBe(true);
  expect(traffic.filter((t) => t.includes(KEY))).toEqual([]);
  expect(await storageSnapshot(page, browser.context())).not.toContain(KEY);
  expect(await page.content()).not.toContain(KEY);
  expect(server.output()).not.toContain(KEY);
  expect(browser.pageErrors()).toEqual([]);
});
