// Measuring a rubric against human labels as a user does, against the local target: import a CSV with a label
// column per question, run it, read kappa and the reliability diagram, keep the report and find its labels behind a
// share link in a fresh profile, open a confusion cell, open a disagreement in the main screen, reword the question,
// run a variant, read the paired difference, reload, and find it all there.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { AlignmentArea } from './pages/AlignmentArea';
import { RowsArea } from './pages/RowsArea';
import { SessionsArea } from './pages/SessionsArea';
import { WorkbenchPage } from './pages/WorkbenchPage';
import { EXAMPLE_REQUEST } from '../../src/core/example';

const TICKETS: [string, string, string][] = [
  ['I was charged twice for my order, please refund me today', 'billing', 'yes'],
  ['The app crashes every time I open the settings page', 'Technical', 'no'],
  ['Thanks, everything is sorted now', 'other', 'n'],
  ['My payouts have failed for three days, fix it now', 'bill', 'y'],
  ['Where do I change the address on my invoices?', 'billing', 'no'],
  ['The API returns 500 on every webhook since this morning', 'tech', 'yes'],
  ['Can I get a copy of last month’s receipt?', 'billing', 'false'],
  ['Login page keeps spinning forever', 'technical', 'true'],
];
const ROWS = 40;
const CSV = `id,text,human_department,human_urgent\n${Array.from({ length: ROWS }, (_, i) => {
  const [text, dept, urgent] = TICKETS[i % TICKETS.length]!;
  return `t${i + 1},"${text} (#${i + 1})",${dept},${urgent}`;
}).join('\n')}\n`;

let server: WorkbenchProcess;
beforeAll(async () => {
  server = await startWorkbenchProcess({});
});
afterAll(async () => {
  await server?.stop();
});

const browser = useBrowser();

it('imports labels, measures, opens a mistake in the main screen, compares a reworded variant, and keeps it all', async () => {
  const page = browser.page();
  const workbench = new WorkbenchPage(page, server.url);
  await workbench.open();
  const rows = new RowsArea(page);
  await rows.open();
  await rows.pick('labelled.csv', CSV);
  await page.getByTestId('rows.labels.column.department').selectOption('human_department');
  await page.getByTestId('rows.labels.column.is_urgent').selectOption('human_urgent');
  await expect
    .poll(() => page.getByTestId('rows.labels.counts.department').textContent())
    .toMatch(/^40 rows labelled/);
  // The label columns are never sent: the sample of the state holds the text only.
  await expect.poll(() => page.getByTestId('rows.samples').textContent()).not.toMatch(/human_/);
  await expect.poll(() => page.getByTestId('rows.plan.rows').textContent()).toBe(String(ROWS));
  await rows.start.click();
  await rows.waitFinished();

  const align = new AlignmentArea(page);
  await align.open();
  await expect
    .poll(() => align.figure('department', 'kappa').textContent(), { timeout: 30_000 })
    .toMatch(/^-?\d\.\d\d \(95% CI -?\d\.\d\d to -?\d\.\d\d\), n = 40$/);
  expect(await align.figure('is_urgent', 'auroc').textContent()).toMatch(/n = 40$/);
  expect(await align.reliability('department').locator('svg').count()).toBeGreaterThan(0);
  expect(await align.reliability('department').locator('figcaption').textContent()).toMatch(/rows\)/);

  // The report kept in the session takes the 40 rows' labels through a share link into a fresh profile.
  await align.keepReport.click();
  const sessions = new SessionsArea(page);
  const link = await sessions.shareLink((await sessions.openName())!, false);
  const fresh = await browser.context().browser()!.newContext();
  try {
    const other = await fresh.newPage();
    await other.goto(link);
    await other.getByTestId('sessions.shareImport').click();
    const elsewhere = new AlignmentArea(other);
    await elsewhere.open();
    await expect
      .poll(() => elsewhere.storedLabels.textContent())
      .toMatch(/^Human labels of 40 rows are kept with this report/);
  } finally {
    await fresh.close();
  }

  const cell = align.firstFilledCell('department');
  const count = Number(await cell.textContent());
  await cell.click();
  await expect
    .poll(() =>
      page
        .getByRole('region', { name: /^Rows labelled .* answered .*\(\d+\)$/ })
        .getByTestId('align.disagreement')
        .count(),
    )
    .toBe(Math.min(count, 20));

  const mistakes = align.disagreements('department');
  const anyMistake = (await mistakes.count()) > 0 ? mistakes : align.disagreements('is_urgent');
  expect(await anyMistake.count()).toBeGreaterThan(0);
  const stateShown = (await anyMistake.first().locator('.align-state').textContent()) ?? '';
  await anyMistake.first().getByTestId('align.disagreement.open').click();
  await workbench.editor.waitReady();
  const firstLine = stateShown
    .split('\n')
    .find((l) => l.includes('(#'))!
    .trim();
  const number = firstLine.match(/#\d+/)![0];
  await expect.poll(async () => (await workbench.editor.visibleLines('state')).join('\n')).toContain(number);

  // Reword the choice question and run it as a variant of the same labelled rows.
  const reworded = structuredClone(EXAMPLE_REQUEST.questions);
  (reworded['department'] as { instructions: string }).instructions =
    'Which team should handle this ticket: billing for money, technical for anything broken?';
  await workbench.editor.replaceText('questions', JSON.stringify(reworded, null, 2));
  await align.open();
  await align.variantRun.click();
  // The variant is the open run now: its progress is on the rows screen.
  await expect.poll(() => page.getByTestId('align.title').textContent()).toMatch(/\(variant\)$/);
  await rows.open();
  await rows.waitFinished();
  await align.open();
  await align.variantCompare.selectOption({ index: 1 });
  await expect
    .poll(() => align.difference('department', 'kappa').textContent(), { timeout: 30_000 })
    .toMatch(/^kappa [+−]\d\.\d\d \(95% CI [+−]\d\.\d\d to [+−]\d\.\d\d\)$/);
  expect(await page.getByTestId('align.variant.department').textContent()).toContain('instructions reworded');

  await page.reload();
  await workbench.shell.waitReady();
  await align.open();
  await expect.poll(() => page.getByTestId('align.run.open').count()).toBe(2);
  await page.getByTestId('align.run.open').first().click();
  await expect
    .poll(() => align.figure('department', 'kappa').textContent(), { timeout: 30_000 })
    .toMatch(/n = 40$/);
  await align.variantCompare.selectOption({ index: 1 });
  await expect
    .poll(() => align.difference('department', 'kappa').textContent(), { timeout: 30_000 })
    .toMatch(/^kappa /);
}, 240_000);
