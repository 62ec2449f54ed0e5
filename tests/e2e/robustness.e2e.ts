// The robustness check as a new user meets it, on the local target: with the reference's order bias on, the check
// names the position bias on the choice question and bills what its budget said; with it off, every question reads
// as stable and identical requests get identical answers. The report stays with the session after a reload. The
// reference's rounding (largest remainder, spare hundredths by position) is never read as an order effect: 255 flat
// options read stable, and three options that tie are named as a tie the service breaks by position.
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { estimateCost, EvaluateResponseSchema } from '../../src/contract';
import { formatCost } from '../../src/contract';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { RobustnessArea } from './pages/RobustnessArea';
import { RowsArea } from './pages/RowsArea';
import { SessionsArea } from './pages/SessionsArea';
import { WorkbenchPage } from './pages/WorkbenchPage';

const browser = useBrowser();

let biased: WorkbenchProcess;
beforeAll(async () => {
  biased = await startWorkbenchProcess({ REFERENCE_ORDER_BIAS: 'first=1.5' });
});
afterAll(async () => {
  await biased?.stop();
});

/** Input tokens of every evaluation answered on the page, in arrival order. */
function billing(page: Page): { tokens: number[]; reads: Promise<void>[] } {
  const tokens: number[] = [];
  const reads: Promise<void>[] = [];
  page.on('response', (response: Response) => {
    if (response.request().method() !== 'POST' || !/\/v1\/evaluate$/.test(new URL(response.url()).pathname))
      return;
    reads.push(
      response.json().then((body: unknown) => {
        tokens.push(EvaluateResponseSchema.parse(body).usage.input_tokens);
      }),
    );
  });
  return { tokens, reads };
}

/** Opens the workbench on the example session, runs it once (which pins the alias) and opens the check. */
async function openCheck(page: Page, url: string): Promise<{ check: RobustnessArea; budget: string }> {
  const workbench = new WorkbenchPage(page, url);
  await workbench.open();
  await new SessionsArea(page).waitReady();
  await workbench.editor.run.click();
  await workbench.answers.waitAnswered();
  const check = new RobustnessArea(page);
  return { check, budget: await check.open() };
}

describe('robustness check', () => {
  it('with the order bias on: names the position bias on the choice question and costs what it said', async () => {
    const page = browser.page();
    const log = billing(page);
    const { check, budget } = await openCheck(page, biased.url);
    // Distorted answers never pass silently for the judge's own: npm start says so.
    expect(biased.output()).toContain("The local reference's answers are distorted: order bias first=1.5.");
    // The example: a choice of 3 labels (3 orders), 5 identical requests, whitespace and casing variants; the
    // original is the answer already on screen.
    expect(budget).toMatch(
      /^9 requests \(1 answered from stored answers, not billed\), about \$[\d.]+ \(hosted list price; nothing billed here\), with model-1\.13\.0 on Local reference \(not a language model\)$/,
    );
    const before = log.tokens.length;
    await check.runCheck();
    await Promise.all(log.reads);
    const sent = log.tokens.slice(before);
    expect(sent).toHaveLength(8);

    const verdicts = await check.verdicts();
    expect(verdicts.department).toBe('moves_with_order');
    expect(await check.card('department').getByTestId('robustness.positionBias').textContent()).toContain(
      'position bias: first option',
    );
    expect(await check.card('department').getByTestId('robustness.summary').textContent()).toMatch(
      /^Position bias: the option sent first gains \d+ percentage points on average/,
    );
    // Score levels are never reordered: the bias has nothing to act on there.
    expect(verdicts.frustration).toBe('stable');

    // Costs what it said: the budget's price is the price of the tokens the service billed.
    const price = `${formatCost(estimateCost(sent.reduce((a, b) => a + b, 0)))}`;
    // On the local reference the figure is the hosted list price, and it says so (issue 30 item 13).
    expect(budget).toContain(`about ${price} (hosted list price; nothing billed here), with`);
    expect(await check.billed.textContent()).toBe(`about ${price}`);
  });

  it('with the order bias off: every question reads as stable, and the report stays with the session', async () => {
    const page = browser.page();
    const { check, budget } = await openCheck(page, inject('workbenchUrl'));
    expect(budget).toMatch(/^9 requests/);
    await check.runCheck();
    expect(await check.verdicts()).toEqual({
      is_urgent: 'stable',
      department: 'stable',
      frustration: 'stable',
    });
    expect(await check.identical.textContent()).toBe(
      'The server returned identical answers to 5 identical requests.',
    );
    expect(await check.openButton.textContent()).toBe('Robustness · all stable');

    // Kept in the session: after a reload the button and the cards say the same, and nothing is sent to say it.
    await new SessionsArea(page).waitSaved();
    await check.close.click();
    await page.reload();
    await new SessionsArea(page).waitReady();
    await page.locator('[data-testid="robustness.open"]', { hasText: 'all stable' }).waitFor();
    // Once the budget is planned for the same request, the report reads as this request's (no "earlier" note).
    expect(await check.open()).toMatch(/^9 requests \(all answered from stored answers, not billed\)/);
    await check.cards.first().waitFor();
    expect(Object.values(await check.verdicts())).toEqual(['stable', 'stable', 'stable']);
    expect(await page.getByTestId('robustness.stale').count()).toBe(0);

    // Another state on screen: the report says it was made for an earlier request.
    await check.close.click();
    const editor = new WorkbenchPage(page, inject('workbenchUrl')).editor;
    await editor.waitReady();
    await editor.replaceText('state', 'I was charged twice, please refund me');
    await check.openButton.click();
    await page.getByTestId('robustness.stale').waitFor();
    expect(await page.getByTestId('robustness.stale').textContent()).toBe(
      'This report was made for an earlier request; run the check again for what is planned above.',
    );
  });

  it('on a file run: checks the sample of rows the user sizes, and names the same bias', async () => {
    const page = browser.page();
    const log = billing(page);
    const workbench = new WorkbenchPage(page, biased.url);
    await workbench.open();
    await new SessionsArea(page).waitReady();
    const rows = new RowsArea(page);
    await rows.open();
    const texts = [
      'I was charged twice, refund me',
      'The app crashes when I open it',
      'Payout failed again',
      'Thanks, all sorted',
      'Invoice is wrong',
      'Still waiting on my refund',
    ];
    await rows.pick('tickets.csv', `id,text\n${texts.map((t, i) => `t${i + 1},"${t}"`).join('\n')}\n`);
    await rows.start.click();
    await rows.waitFinished();
    // The same file run a second time: the picker must tell the two runs apart (issue 30 item 16).
    await page.waitForTimeout(1_100);
    await page.getByTestId('rows.new').click();
    await rows.pick('tickets.csv', `id,text\n${texts.map((t, i) => `t${i + 1},"${t}"`).join('\n')}\n`);
    await rows.start.click();
    await rows.waitFinished();

    await page.getByTestId('app.nav.workbench').click();
    const check = new RobustnessArea(page);
    await check.openButton.click();
    await check.dialog.waitFor();
    await page.getByTestId('robustness.sourceRows').check();
    const runNames = await page.getByTestId('robustness.rowsRun').locator('option').allTextContents();
    expect(runNames).toHaveLength(2);
    expect(new Set(runNames).size).toBe(2);
    expect(runNames[0]).toMatch(
      /^tickets\.csv \(6 rows, model-latest on Local reference .*, .*\d{1,2}:\d\d:\d\d.*\)$/,
    );
    await page.getByTestId('robustness.sample').fill('2');
    await page.getByTestId('robustness.sample').press('Enter');
    // The budget and the sampling note come together, once the new sample is planned.
    await page.getByText('2 of 6 rows of “tickets.csv”, picked at random').waitFor();
    await page.waitForFunction(() =>
      /^\d+ requests, about \$/.test(
        document.querySelector('[data-testid="robustness.budget"]')?.textContent ?? '',
      ),
    );
    await page.locator('[data-testid="robustness.run"]:not([disabled])').waitFor();
    const budget = (await check.budget.textContent()) ?? '';
    const requests = Number(/^(\d+) requests/.exec(budget)![1]);
    // Two rows, each with its original, 2 more orders, 4 repeats and its near-duplicates.
    expect(requests % 2).toBe(0);
    expect(requests).toBeGreaterThanOrEqual(2 * 9);

    const before = log.tokens.length;
    await check.runCheck();
    await Promise.all(log.reads);
    const sent = log.tokens.slice(before);
    // The file run used the alias model-latest: nothing stored can be reused, every request is sent.
    expect(sent).toHaveLength(requests);
    expect(budget).toContain(
      `about ${formatCost(estimateCost(sent.reduce((a, b) => a + b, 0)))} (hosted list price; nothing billed here), with`,
    );
    expect(await page.getByTestId('robustness.reportMeta').textContent()).toMatch(
      /^2 of 6 rows of “tickets\.csv”/,
    );
    expect((await check.verdicts()).department).toBe('moves_with_order');
    expect(await check.card('department').getByTestId('robustness.positionBias').textContent()).toContain(
      'position bias: first option',
    );
  });

  it('on an unbiased reference: 255 options read stable and a tie is named as a tie, not a change', async () => {
    const page = browser.page();
    const workbench = new WorkbenchPage(page, inject('workbenchUrl'));
    await workbench.open();
    await new SessionsArea(page).waitReady();
    const editor = workbench.editor;
    await editor.waitReady();
    // A state the judge reads nothing into: every option scores the same, so the wire's hundredths go by position
    // (the first 100 of 255 options sent get 0.01; of three colours, the first sent gets 0.34 and wins).
    await editor.replaceText('state', 'Hello there');
    const many = Object.fromEntries(Array.from({ length: 255 }, (_, i) => [`option_${i + 1}`, null]));
    await editor.replaceText(
      'questions',
      JSON.stringify(
        {
          pick: { type: 'choice', instructions: 'Which option?', criteria: many },
          colour: {
            type: 'choice',
            instructions: 'Which colour?',
            criteria: { red: null, green: null, blue: null },
          },
        },
        null,
        2,
      ),
    );
    await editor.run.click();
    await workbench.answers.waitAnswered();
    const check = new RobustnessArea(page);
    await check.open();
    await check.runCheck();

    expect(await check.verdicts()).toEqual({ pick: 'stable', colour: 'stable' });
    const summary = (question: string) =>
      check.card(question).getByTestId('robustness.summary').textContent();
    expect(await summary('pick')).toMatch(
      /^All 255 options tie within rounding; the service breaks the tie by position\. Stable: across 7 other option orders, 5 identical requests/,
    );
    expect(await check.card('pick').getByTestId('robustness.order').textContent()).toContain(
      'largest distance from the original order 0 pts',
    );
    expect(await summary('colour')).toMatch(
      /^Options red, green and blue tie within rounding; the service breaks the tie by position\. Stable: across 7 other option orders/,
    );
    expect(await check.card('colour').getByTestId('robustness.order').textContent()).toMatch(
      /^top choice changed in 0 of 7 orders/,
    );
    expect(await page.getByTestId('robustness.positionBias').count()).toBe(0);
  });
});
