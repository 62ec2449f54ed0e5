// Trying many variants as a user does, against the local target: import labelled rows, run them, reword the question
// three times and run each as a variant, read how the best of them fares once every variant is counted, seal a fifth
// of the labelled rows, confirm the best variant on them once, and see the confirmation counted.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { AlignmentArea } from './pages/AlignmentArea';
import { RowsArea } from './pages/RowsArea';
import { WorkbenchPage } from './pages/WorkbenchPage';
import { EXAMPLE_REQUEST } from '../../src/core/example';

const TICKETS: [string, string][] = [
  ['I was charged twice for my order, please refund me today', 'billing'],
  ['The app crashes every time I open the settings page', 'technical'],
  ['Thanks, everything is sorted now', 'other'],
  ['Where do I change the address on my invoices?', 'billing'],
  ['The API returns 500 on every webhook since this morning', 'technical'],
  ['Login page keeps spinning forever', 'technical'],
];
const ROWS = 30;
const CSV = `id,text,human_department\n${Array.from({ length: ROWS }, (_, i) => {
  const [text, dept] = TICKETS[i % TICKETS.length]!;
  return `t${i + 1},"${text} (#${i + 1})",${dept}`;
}).join('\n')}\n`;

let server: WorkbenchProcess;
beforeAll(async () => {
  server = await startWorkbenchProcess({});
});
afterAll(async () => {
  await server?.stop();
});

const browser = useBrowser();

it(
  'counts every variant tried, seals a fifth of the rows and confirms the best variant on them once',
  { timeout: 240_000 },
  async () => {
    const page = browser.page();
    const workbench = new WorkbenchPage(page, server.url);
    await workbench.open();
    const rows = new RowsArea(page);
    await rows.open();
    await rows.pick('labelled.csv', CSV);
    await page.getByTestId('rows.labels.column.department').selectOption('human_department');
    await expect.poll(() => page.getByTestId('rows.plan.rows').textContent()).toBe(String(ROWS));
    await rows.start.click();
    await rows.waitFinished();

    const align = new AlignmentArea(page);
    const wordings = [
      'Which team should handle this ticket?',
      'Route the ticket: billing for money, technical for anything broken.',
      'Pick the one team that owns this message.',
    ];
    for (const words of wordings) {
      await page.getByTestId('app.nav.workbench').click();
      await workbench.editor.waitReady();
      const questions = structuredClone(EXAMPLE_REQUEST.questions);
      (questions['department'] as { instructions: string }).instructions = words;
      await workbench.editor.replaceText('questions', JSON.stringify(questions, null, 2));
      await align.open();
      await align.variantRun.click();
      await expect.poll(() => page.getByTestId('align.title').textContent()).toMatch(/\(variant\)$/);
      await rows.open();
      await rows.waitFinished();
    }
    await align.open();
    await expect
      .poll(() => align.familySentence('department').textContent(), { timeout: 30_000 })
      .toMatch(
        /The best of 3 variants gains [+−]?\d\.\d\d kappa; picking the best of 3 by luck alone gives [+−]?\d\.\d\d on these rows\. Its gain (does not survive|survives) the count/,
      );
    expect(await align.familyCount.textContent()).toMatch(/^3 variants of the first run counted/);

    await align.seal(20);
    expect(await align.sealSummary.textContent()).toMatch(
      /^6 labelled rows sealed \(20%, drawn at random within each label/,
    );
    // Compared on the other 24 rows from now on.
    await expect
      .poll(
        async () =>
          Number(
            (await align.familySentence('department').textContent())?.match(/(\d+) rows every run/)?.[1],
          ),
        { timeout: 30_000 },
      )
      .toBeLessThanOrEqual(ROWS - 6);
    expect(await align.confirmations.textContent()).toMatch(/^0 variants confirmed/);
    await align.confirm();
    await expect
      .poll(() => align.confirmation.textContent(), { timeout: 30_000 })
      .toMatch(
        /on the 6 sealed rows: the variant of .* changes Cohen's kappa by .* adjusted for 1 confirmation: /,
      );
    expect(await align.confirmations.textContent()).toMatch(/^1 variant confirmed on the sealed rows/);
  },
);
