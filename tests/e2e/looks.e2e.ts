// Looks, as a newcomer meets them (issue 39, "Looks"): the alignment screen's question panels, Variants panel and
// labelling card keep their text off their borders; confusion cells with few rows read as buttons one can press (full
// opacity, a pointer, readable text) with a shade that grows with the count; the rows table puts the human label right
// beside the judge's answer, whole at 1440 px; the toast after opening a row in a new session leaves the cost line in
// view; conversation mode fits the window and keeps the sidebar's "Storage not persistent" line whole. Geometry is
// read from the page as a person sees it, through the page objects.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { AlignmentArea } from './pages/AlignmentArea';
import { ConversationArea } from './pages/ConversationArea';
import { LayoutProbe } from './pages/LayoutProbe';
import { RowsArea } from './pages/RowsArea';
import { WorkbenchPage } from './pages/WorkbenchPage';

const TICKETS: [string, string, string][] = [
  ['I was charged twice for my order, please refund me today', 'billing', 'yes'],
  ['The app crashes every time I open the settings page', 'technical', 'no'],
  ['Thanks, everything is sorted now', 'other', 'no'],
  ['My payouts have failed for three days, fix it now', 'billing', 'yes'],
  ['Where do I change the address on my invoices?', 'billing', 'no'],
  ['The API returns 500 on every webhook since this morning', 'technical', 'yes'],
  ['Can I get a copy of last month’s receipt?', 'billing', 'no'],
  ['Login page keeps spinning forever', 'technical', 'yes'],
];
const ROWS = 40;
const CSV = `id,text,human_department,human_urgent\n${Array.from({ length: ROWS }, (_, i) => {
  const [text, dept, urgent] = TICKETS[i % TICKETS.length]!;
  return `t${i + 1},"${text} (#${i + 1})",${dept},${urgent}`;
}).join('\n')}\n`;

const TRANSCRIPT = JSON.stringify({
  system: 'You are a support agent for an online shop.',
  messages: [
    { role: 'user', content: 'My parcel never came. I want my money back for order 7.' },
    { role: 'assistant', content: 'Let me look at order 7 for you.' },
    { role: 'user', content: 'It has been two weeks.' },
    { role: 'assistant', content: 'Your refund of 24.90 EUR is on its way.' },
  ],
});

let server: WorkbenchProcess;
beforeAll(async () => {
  server = await startWorkbenchProcess({});
});
afterAll(async () => {
  await server?.stop();
});

const browser = useBrowser();

/** Sides of a padding under 4 px: text that touches its border. */
const thin = (p: Record<string, number>): string[] =>
  Object.entries(p)
    .filter(([, v]) => v < 4)
    .map(([side, v]) => `${side} ${v} px`);

it('labelled rows: human label beside the judge’s answer and whole, padded panels, confusion cells that read as buttons, the toast clear of the cost line', async () => {
  const page = browser.page();
  const workbench = new WorkbenchPage(page, server.url);
  const probe = new LayoutProbe(page);
  await probe.resize(1440, 900);
  await workbench.open();
  const rows = new RowsArea(page);
  await rows.open();
  await rows.pick('labelled.csv', CSV);
  await page.getByTestId('rows.labels.column.department').selectOption('human_department');
  await page.getByTestId('rows.labels.column.is_urgent').selectOption('human_urgent');
  await expect
    .poll(() => page.getByTestId('rows.labels.counts.department').textContent())
    .toMatch(/^40 rows labelled/);
  await expect.poll(() => page.getByTestId('rows.plan.rows').textContent()).toBe(String(ROWS));
  await rows.start.click();
  await rows.waitFinished();

  // The rows table: each question's human label is the column right after the judge's answer, and shows whole.
  const headers = (await page.getByTestId('rows.table').getByRole('columnheader').allTextContents()).map(
    (h) => h.replace(/\s+/g, ' '),
  );
  for (const question of ['department', 'is_urgent']) {
    const human = headers.findIndex((h) => h.startsWith(question) && h.endsWith('human label'));
    const answer = headers.findIndex((h) => h.startsWith(question) && /judge’s (answer|P\(yes\))$/.test(h));
    expect({ question, headers, beside: human - answer }).toEqual({ question, headers, beside: 1 });
  }
  // The table's box is whole in the screen, and the first question's answer and label read side by side unscrolled.
  expect(await probe.notFullyInView('[data-testid="rows.table"]')).toEqual([]);
  const shown = (await page.getByTestId('rows.table.scroll').boundingBox())!;
  for (const header of [
    page.getByTestId('rows.table').getByRole('columnheader', { name: /^department\s*judge’s answer$/ }),
    page.getByTestId('rows.table.humanHeader').first(),
  ]) {
    const box = (await header.boundingBox())!;
    expect({ left: box.x >= shown.x - 1, right: box.x + box.width <= shown.x + shown.width + 1 }).toEqual({
      left: true,
      right: true,
    });
  }

  const align = new AlignmentArea(page);
  await align.open();
  await expect
    .poll(() => align.figure('department', 'kappa').textContent(), { timeout: 30_000 })
    .toMatch(/n = 40$/);
  expect(thin(await probe.padding('[data-testid="align.question.department"]'))).toEqual([]);
  expect(thin(await probe.padding('[data-testid="align.variants"]'))).toEqual([]);

  // Confusion cells with rows behind them: pressable at a glance, shaded by their count.
  const cells = page.locator('[data-testid^="align.cell.department."]:not([disabled])');
  const looks = [];
  for (let i = 0; i < (await cells.count()); i++) {
    const testId = (await cells.nth(i).getAttribute('data-testid'))!;
    const count = Number(await cells.nth(i).textContent());
    looks.push({ count, ...(await probe.buttonLooks(`[data-testid="${testId}"]`)) });
  }
  looks.sort((a, b) => a.count - b.count);
  expect(looks.length).toBeGreaterThan(1);
  for (const cell of looks) {
    expect({ count: cell.count, opacity: cell.opacity, cursor: cell.cursor }).toEqual({
      count: cell.count,
      opacity: 1,
      cursor: 'pointer',
    });
    expect(cell.contrast, `contrast of a cell of ${cell.count}`).toBeGreaterThanOrEqual(4.5);
  }
  const fewest = looks[0]!;
  const most = looks[looks.length - 1]!;
  expect(most.count).toBeGreaterThan(fewest.count);
  // The fuller cell is drawn darker in the light theme: its shade follows the count.
  const sum = (rgb: number[]) => rgb.reduce((s, v) => s + v, 0);
  expect(sum(most.background)).toBeLessThan(sum(fewest.background));

  await align.label('department');
  expect(thin(await probe.padding('[data-testid="align.labelling"]'))).toEqual([]);

  // A mistake opened in a new session: the toast says so without covering the cost line.
  await page.getByTestId('align.view.figures').click();
  const mistakes = align.disagreements('department');
  const anyMistake = (await mistakes.count()) > 0 ? mistakes : align.disagreements('is_urgent');
  await anyMistake.first().getByTestId('align.disagreement.open').click();
  await workbench.editor.waitReady();
  await page.getByTestId('sessions.toast').waitFor();
  for (const size of [
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    await probe.resize(size.width, size.height);
    expect({
      size,
      ...(await probe.overlap('[data-testid="sessions.toast"]', '[data-testid="cost.meter"]')),
    }).toEqual({ size, width: 0, height: 0 });
  }
  expect(browser.pageErrors()).toEqual([]);
}, 240_000);

it('conversation mode fits the window and keeps the sidebar’s storage line whole', async () => {
  const page = browser.page();
  const workbench = new WorkbenchPage(page, server.url);
  const probe = new LayoutProbe(page);
  await workbench.open();
  await workbench.editor.waitReady();
  // A person who hid the local note (the note shown scrolls the page by design) and pasted a transcript.
  await page.getByRole('button', { name: 'Hide this note' }).click();
  const conversation = new ConversationArea(page);
  await conversation.choose();
  await conversation.paste(TRANSCRIPT);
  // Headless Chromium refuses persistent storage, so the line is there to be cut or not.
  await page.getByTestId('sessions.persistence').waitFor();
  const failures: string[] = [];
  for (const size of [
    { width: 1440, height: 900 },
    { width: 1920, height: 1080 },
    { width: 1280, height: 800 },
  ]) {
    await probe.resize(size.width, size.height);
    const fill = await probe.fill();
    // Under the main screen's minimum (51rem of body) the page scrolls by design; scrolled, the line is whole.
    if (fill.pageScrolls && size.height >= 900)
      failures.push(`${size.width}x${size.height}: the page scrolls`);
    await page.evaluate(() => window.scrollTo(0, document.scrollingElement!.scrollHeight));
    for (const cut of await probe.notFullyInView('[data-testid="sessions.persistence"] > summary'))
      failures.push(`${size.width}x${size.height}: ${cut}`);
    await page.evaluate(() => window.scrollTo(0, 0));
  }
  expect(failures).toEqual([]);
});
