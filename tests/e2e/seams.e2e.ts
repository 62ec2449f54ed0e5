// Where two features meet, as a user meets them (issue 29): the robustness check on a priced, rate-limited target
// (its price in the plan and the report, its limit in the pacing, the plan naming the target and never running for
// the one before). The target is the hosted service's stand-in (tests/helpers/standins, docs/servers.md).
import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvaluateResponseSchema, estimateCost, formatCost } from '../../src/contract';
import { serveHosted, standinKey, targetsFileFor } from '../helpers/standins';
import type { RunningStandin } from '../helpers/standins';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { RobustnessArea } from './pages/RobustnessArea';
import { SessionsArea } from './pages/SessionsArea';
import { WorkbenchPage } from './pages/WorkbenchPage';

const PRICE = 5;
const RPM = 30;
let hosted: RunningStandin;
let server: WorkbenchProcess;

beforeAll(async () => {
  const standin = await serveHosted(standinKey('hosted'));
  hosted = {
    ...standin,
    entry: { ...standin.entry, label: 'Priced hosted', inputPrice: PRICE, requestsPerMinute: RPM },
  };
  const { vars } = targetsFileFor({ priced: hosted });
  // Beside it: a server that is down, and an entry with a bad field (skipped, and said on the page).
  const file = JSON.parse(readFileSync(vars.WORKBENCH_TARGETS_FILE!, 'utf8')) as { targets: unknown[] };
  file.targets.push(
    { id: 'down', preset: 'llamacpp', label: 'Kev-4B on llama.cpp', baseUrl: 'http://127.0.0.1:9' },
    { id: 'bad', preset: 'hosted', requestsPerMinute: 'fast' },
  );
  writeFileSync(vars.WORKBENCH_TARGETS_FILE!, JSON.stringify(file));
  server = await startWorkbenchProcess(vars);
});
afterAll(async () => {
  await server?.stop();
  await hosted?.close();
});

const browser = useBrowser();

/** When the page sent each evaluation to a target, in order, and the input tokens each answer billed. */
function traffic(
  page: Page,
  targetId: string,
): { times: number[]; tokens: number[]; reads: Promise<void>[] } {
  const times: number[] = [];
  const tokens: number[] = [];
  const reads: Promise<void>[] = [];
  const path = `/api/targets/${targetId}/v1/evaluate`;
  page.on('response', (r) => {
    if (r.request().method() !== 'POST' || new URL(r.url()).pathname !== path) return;
    // The browser's own stamp of when the request started: the moment the page's pacing controls. (The time the test
    // hears of a request comes later by however busy the machine is, and narrows a gap that was 2 s in the page.)
    times.push(r.request().timing().startTime);
    reads.push(
      r.json().then((body: unknown) => {
        tokens.push(EvaluateResponseSchema.parse(body).usage.input_tokens);
      }),
    );
  });
  return { times, tokens, reads };
}

describe('the robustness check on a priced, rate-limited target', () => {
  it("costs at the target's price, paces at its limit, names it, and never runs the previous target's plan", async () => {
    const page = browser.page();
    const workbench = new WorkbenchPage(page, server.url);
    await workbench.open();
    await new SessionsArea(page).waitReady();
    await workbench.editor.waitReady();
    // The example on the local target first: a plan is made there.
    await workbench.shell.selectTarget('local');
    await workbench.editor.model.fill('model-latest');
    await workbench.editor.model.press('Tab');
    await workbench.editor.run.click();
    await workbench.answers.waitAnswered();
    const check = new RobustnessArea(page);
    expect(await check.open()).toMatch(/, with model-1\.13\.0 on Local reference \(not a language model\)$/);
    await check.repeats.fill('1');
    await check.repeats.press('Enter');
    await check.close.click();

    // Another target: the plan made for local must not run there, not even for a moment.
    await workbench.shell.selectTarget('priced');
    await workbench.editor.model.fill('jev-1.13.0');
    await workbench.editor.model.press('Tab');
    await check.openButton.click();
    await check.dialog.waitFor();
    expect(await check.runButton.isDisabled()).toBe(true);
    expect(await check.budget.textContent()).toBe('Working out the budget…');
    await page.locator('[data-testid="robustness.run"]:not([disabled])').waitFor();
    const budget = (await check.budget.textContent()) ?? '';
    expect(budget).toMatch(/, with jev-1\.13\.0 on Priced hosted$/);
    // The plan's cost is the target's price times the input tokens it will send.
    const requests = Number(/^(\d+) requests/.exec(budget)?.[1]);
    expect(requests).toBeGreaterThan(3);

    const { times, tokens, reads } = traffic(page, 'priced');
    const seenBefore = hosted.seen.filter((s) => s.method === 'POST').length;
    await check.runCheck();
    await Promise.all(reads);
    expect(times).toHaveLength(requests);
    expect(hosted.seen.filter((s) => s.method === 'POST').length - seenBefore).toBe(requests);
    // 30 requests a minute: request k goes no sooner than k slots of 2 s after the first (core/rows/pacer.ts: a send
    // that went late may be followed by one on its own slot, so one gap can be under 2 s, never the schedule). The
    // 100 ms are for the browser's stamp of the first request.
    times.sort((a, b) => a - b);
    const early = times.map((t, k) => t - times[0]! - k * 2_000);
    expect(Math.min(...early)).toBeGreaterThanOrEqual(-100);
    // Billed at $5 per million input tokens, not at the published $0.042.
    const billedTokens = tokens.reduce((a, b) => a + b, 0);
    expect(await check.billed.textContent()).toBe(`about ${formatCost(estimateCost(billedTokens, PRICE))}`);
    expect(await page.getByTestId('robustness.reportMeta').textContent()).toContain('jev-1.13.0 on priced');

    // The share link carries the cards, and its preview says so before anything is imported (issue 29 item 17).
    const cards = await check.cards.count();
    await check.close.click();
    const sessions = new SessionsArea(page);
    const link = await sessions.shareLink((await sessions.openName())!, false);
    const fresh = await browser.context().browser()!.newContext();
    try {
      const other = await fresh.newPage();
      await other.goto(link);
      expect(await other.getByTestId('sessions.sharePreviewRobustness').textContent()).toMatch(
        new RegExp(`^${cards} cards \\(.+\\), checked with jev-1\\.13\\.0 on priced; shown as they were`),
      );
    } finally {
      await fresh.close();
    }
  });
});

describe('the top bar with a target that fails (issue 30 item 14)', () => {
  it('keeps one line, opens the check below it, and says on the page which targets-file entry was skipped', async () => {
    const page = browser.page();
    await page.setViewportSize({ width: 1024, height: 768 });
    const workbench = new WorkbenchPage(page, server.url);
    await workbench.open();
    await workbench.shell.selectTarget('down');
    const error = page.getByTestId('shell.modelsError');
    await error.waitFor();
    const bar = page.getByTestId('shell.topBar');
    // One line of controls: the error's sentence opens on demand instead of wrapping the bar.
    expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(64);
    await error.getByText('Models unavailable').click();
    expect(await error.textContent()).toContain('Could not reach the down target');
    await error.getByText('Models unavailable').click();

    await page.getByTestId('shell.checkTarget').click();
    const report = page.getByTestId('shell.checkReport');
    await report.waitFor();
    const theme = (await page.getByTestId('shell.theme').boundingBox())!;
    const box = (await report.boundingBox())!;
    const overlaps =
      box.x < theme.x + theme.width &&
      theme.x < box.x + box.width &&
      box.y < theme.y + theme.height &&
      theme.y < box.y + box.height;
    expect(overlaps).toBe(false);
    await report.getByRole('button', { name: 'Close' }).click();

    const skipped = page.getByTestId('shell.targetProblems');
    expect(await skipped.textContent()).toContain('1 problem in the targets file');
    await skipped.getByText(/problem in the targets file/).click();
    expect(await skipped.textContent()).toContain('field "requestsPerMinute"');
    expect(await skipped.textContent()).toContain('The target is skipped.');
  });
});
