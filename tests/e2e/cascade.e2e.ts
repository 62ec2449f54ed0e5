// A cascade of two judges as a user builds it: a labelled file run with the reference's looser version (1.12.0), its
// threshold certified with delta split in two, the rows it abstains on sent to the sharper version (1.14.0) alone;
// the service counts each escalated row's second answer, and the first judge's panel shows the cascade's coverage and
// cost and saves which judge settled each row.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CountingReference } from '../../bench/lib/countingReference';
import { serveCountingReference } from '../../bench/lib/countingReference';
import { DEFAULT_API_KEY } from '../../src/server/reference/options';
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
  ['My payouts have failed, please fix the payment', 'billing'],
  ['The API returns 500 errors on every webhook', 'technical'],
  ['Is the office open on holidays?', 'other'],
];
const ROWS = 90;
// People call some of the vague tickets billing: the judge, unsure on those, disagrees there and not elsewhere.
const CSV = `ticket,text,human_department\n${Array.from({ length: ROWS }, (_, i) => {
  const [text, dept] = TICKETS[i % TICKETS.length]!;
  const label = dept === 'other' && i % 4 === 2 ? 'billing' : dept;
  return `k${i + 1},"${text} (#${i + 1})",${label}`;
}).join('\n')}\n`;

let reference: CountingReference;
let server: WorkbenchProcess;
beforeAll(async () => {
  reference = await serveCountingReference({ idField: 'ticket', port: 0 });
  server = await startWorkbenchProcess({ EVAL_BASE_URL: reference.url, EVAL_API_KEY: DEFAULT_API_KEY });
});
afterAll(async () => {
  await server?.stop();
  await reference?.close();
});

const browser = useBrowser();

it(
  'escalates only the rows the first judge abstains on, counted at the service, and reports the cascade',
  { timeout: 120_000 },
  async () => {
    const page = browser.page();
    const workbench = new WorkbenchPage(page, server.url);
    await workbench.open();
    await workbench.editor.model.fill('model-1.12.0');
    const rows = new RowsArea(page);
    await rows.open();
    await rows.pick('tickets.csv', CSV);
    // The label column is chosen once the file is planned (a choice made before can be replaced by the plan's
    // mapping), and is still chosen when the run starts.
    await expect.poll(() => page.getByTestId('rows.plan.rows').textContent()).toBe(String(ROWS));
    const labelColumn = page.getByTestId('rows.labels.column.department');
    await labelColumn.selectOption('human_department');
    await expect.poll(() => labelColumn.inputValue()).toBe('human_department');
    await rows.start.click();
    await rows.waitFinished();
    expect(Object.values(reference.counts().answers).filter((n) => n === 1)).toHaveLength(ROWS);

    // The next judge is the session's model: the sharper version.
    await page.getByTestId('app.nav.workbench').click();
    await workbench.editor.model.fill('model-1.14.0');
    const align = new AlignmentArea(page);
    await align.open();
    const escalate = page.getByTestId('align.trust.escalate.department');
    await expect
      .poll(() => escalate.textContent(), { timeout: 30_000 })
      .toMatch(/two-judge cascade \(delta split in two\)/);
    const button = page.getByTestId('align.trust.escalate.run.department');
    const asked = Number(/about those (\d+) rows/.exec((await button.textContent())!)![1]);
    expect(asked).toBeGreaterThan(0);
    expect(asked).toBeLessThanOrEqual(ROWS);
    await button.click();
    // Counted at the service: the escalated rows, and only they, are answered a second time.
    const twice = () => Object.values(reference.counts().answers).filter((n) => n === 2).length;
    await expect.poll(twice, { timeout: 30_000 }).toBe(asked);
    await rows.open();
    await rows.waitFinished();
    expect(Object.values(reference.counts().answers).filter((n) => n === 1)).toHaveLength(ROWS - asked);
    expect(twice()).toBe(asked);
    await align.open();

    await page.getByTestId('align.cascade.first').click();
    await expect
      .poll(() => align.trust('department', 'cascade').textContent(), { timeout: 30_000 })
      .toMatch(
        /^The cascade settles \d+% of the labelled rows \(model-1\.12\.0 at direct \d+%, model-1\.14\.0 at direct \d+%\)/,
      );
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('align.trust.cascade.csv.department').click(),
    ]);
    expect(download.suggestedFilename()).toBe('tickets-department-cascade.csv');
    expect(browser.pageErrors()).toEqual([]);
  },
);
