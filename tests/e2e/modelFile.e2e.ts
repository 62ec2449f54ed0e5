// A new user with a GGUF file on disk: one command (REFERENCE_MODEL_FILE=... npm start) and the workbench answers from
// that model; the banner says so, the answers say which judge gave them, and the choice card shows the model's own
// distribution (the same numbers the model gives for that request through the proxy).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EvaluateResponseSchema } from '../../src/contract';
import type { EvaluateRequest } from '../../src/contract';
import { writeTinyGguf } from '../helpers/tinyGguf';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { WorkbenchPage } from './pages/WorkbenchPage';

let server: WorkbenchProcess;

beforeAll(async () => {
  server = await startWorkbenchProcess({
    REFERENCE_MODEL_FILE: writeTinyGguf({ seed: 11 }, 'e2e-tiny.gguf'),
    REFERENCE_MODEL_THREADS: '1',
  });
});
afterAll(async () => {
  await server?.stop();
});

const browser = useBrowser();

it("answers from the model file after one click, and the choice card is the model's distribution", async () => {
  const page = browser.page();
  await page.setViewportSize({ width: 1440, height: 1000 });
  const sent: EvaluateRequest[] = [];
  const received: unknown[] = [];
  page.on('response', (response) => {
    if (!/\/api\/targets\/local\/v1\/evaluate$/.test(new URL(response.url()).pathname)) return;
    sent.push(response.request().postDataJSON() as EvaluateRequest);
    void response.json().then((body: unknown) => received.push(body));
  });
  const workbench = new WorkbenchPage(page, server.url);
  await workbench.open();
  const { shell, editor, answers } = workbench;

  expect(await shell.targetOptions()).toEqual([
    { id: 'local', label: 'Local reference (e2e-tiny.gguf, and the lexical judge)' },
  ]);
  expect(await shell.modelNames()).toEqual(['local-e2e-tiny', 'model-latest', 'model-preview']);
  await shell.banner.waitFor();
  expect(await page.getByTestId('shell.bannerModel').textContent()).toContain(
    'It answers from e2e-tiny.gguf',
  );

  await editor.waitReady();
  await page.getByTestId('workbench.useModelFile').click();
  expect(await page.getByTestId('workbench.model').inputValue()).toBe('local-e2e-tiny');
  await answers.pane.getByTestId('answers.empty').click();
  await page.keyboard.press('Control+Enter');
  await answers.waitAnswered();
  expect(await answers.target.textContent()).toBe('local: e2e-tiny.gguf');
  for (let i = 0; i < 50 && received.length < 1; i++) await page.waitForTimeout(100);
  const response = EvaluateResponseSchema.parse(received[0]);
  expect(response.model).toMatch(/^local-e2e-tiny@[0-9a-f]{12}$/);
  expect(await answers.fact('resolvedModel')).toBe(`local-e2e-tiny → ${response.model}`);

  // The same request, sent again through the proxy from outside the page, gets the same distribution from the model.
  const again = await page.request.post(`${server.url}/api/targets/local/v1/evaluate`, {
    headers: { 'X-Workbench-Request': '1', 'Content-Type': 'application/json' },
    data: sent[0],
  });
  expect(again.status()).toBe(200);
  const model = EvaluateResponseSchema.parse(await again.json());
  const department = model.answers.department!;
  if (department.type !== 'choice') throw new Error('department is a choice question');
  const shown = await answers.tableRows('department');
  expect(Object.fromEntries(shown.map(([label, p]) => [label!.replace(' (chosen)', ''), Number(p)]))).toEqual(
    department.probabilities,
  );
  expect(shown.find(([label]) => label!.endsWith('(chosen)'))?.[0]).toBe(`${department.choice} (chosen)`);
  expect(browser.pageErrors()).toEqual([]);
});
