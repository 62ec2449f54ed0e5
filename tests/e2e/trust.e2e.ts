// "Can the judge replace a person?" as a user meets it: a CSV whose department three people labelled (one column each)
// and some rows nobody labelled, mapped in the rows screen, run against the local reference; the alignment screen's
// panel says how well people agree beside the judge, gives the alt-test's verdict, the certified threshold (or that
// none certifies), the share of each department with its PPI interval, and saves the labelling queue.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { AlignmentArea } from './pages/AlignmentArea';
import { RowsArea } from './pages/RowsArea';
import { WorkbenchPage } from './pages/WorkbenchPage';

const TICKETS: [string, string][] = [
  ['I was charged twice for my order, please refund me today', 'billing'],
  ['The app crashes every time I open the settings page', 'technical'],
  ['Thanks, everything is sorted now', 'other'],
  ['My payouts have failed for three days, please fix the payment', 'billing'],
  ['The API returns 500 errors on every webhook since this morning', 'technical'],
];
const OTHER: Record<string, string> = { billing: 'technical', technical: 'other', other: 'billing' };
const LABELLED = 45;
const ROWS = 60;
// Each annotator is wrong on a different tenth of the rows; the last 15 rows nobody labelled.
const CSV = `id,text,ann_a,ann_b,ann_c\n${Array.from({ length: ROWS }, (_, i) => {
  const [text, dept] = TICKETS[i % TICKETS.length]!;
  const say = (offset: number): string => (i >= LABELLED ? '' : i % 10 === offset ? OTHER[dept]! : dept);
  return `t${i + 1},"${text} (#${i + 1})",${say(1)},${say(4)},${say(7)}`;
}).join('\n')}\n`;

let server: WorkbenchProcess;
beforeAll(async () => {
  server = await startWorkbenchProcess({});
});
afterAll(async () => {
  await server?.stop();
});

const browser = useBrowser();

it('maps three annotators, runs the file and reads whether the judge can replace one', async () => {
  const page = browser.page();
  await new WorkbenchPage(page, server.url).open();
  const rows = new RowsArea(page);
  await rows.open();
  await rows.pick('three-annotators.csv', CSV);
  await page.getByTestId('rows.labels.column.department').selectOption('ann_a');
  await page.getByTestId('rows.labels.column.department.add').selectOption('ann_b');
  await page.getByTestId('rows.labels.column.department.add').selectOption('ann_c');
  await expect
    .poll(() => page.getByTestId('rows.labels.annotators.department').textContent())
    .toMatch(/majority/);
  // No annotator's column reaches the state.
  await expect.poll(() => page.getByTestId('rows.samples').textContent()).not.toMatch(/ann_/);
  await rows.start.click();
  await rows.waitFinished();

  const align = new AlignmentArea(page);
  await align.open();
  await expect
    .poll(() => align.trust('department', 'ceiling').textContent(), { timeout: 30_000 })
    .toMatch(
      /^The judge agrees with the majority at kappa -?\d\.\d\d \[.*\] \(n = 45\); people agree with each other at alpha 0\.\d\d \[0\.\d\d, (0\.\d\d|1\.00)\] \(n = 45\)\.$/,
    );
  expect(await align.trust('department', 'verdict').textContent()).toMatch(
    /The judge (can|cannot) replace an annotator/,
  );
  await align.trust('department', 'alt').locator('xpath=..').locator('summary').click();
  expect(await align.trust('department', 'alt').locator('tbody tr').count()).toBe(3);
  expect(await align.trust('department', 'threshold').textContent()).toMatch(
    /^(The judge certifies 90% agreement with the majority \(with 90% confidence\) at confidence >= 0\.\d\d|No threshold certifies 90% agreement)/,
  );
  // 15 rows nobody labelled: the share of billing comes with PPI beside the labelled rows alone.
  expect(await align.trust('department', 'estimates').textContent()).toMatch(/Share of billing/);

  const queue = await align.labellingQueue('department', 'csv');
  expect(queue.name).toBe('three-annotators-department-labelling-queue.csv');
  const lines = queue.text.trim().split(/\r?\n/);
  expect(lines[0]).toMatch(/^row_id,/);
  // The file's rows split between the judge and people, and the queue holds the people's share.
  const split = (await page.getByTestId('align.trust.split.department').textContent())!;
  const [, settled, queued] = /settles (\d+) rows; (\d+)|all (\d+) rows/.exec(split) ?? [];
  const toPeople = Number(queued ?? /all (\d+) rows/.exec(split)![1]);
  expect(Number(settled ?? 0) + toPeople).toBe(ROWS);
  expect(lines.length - 1).toBe(toPeople);
});
