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

  // The session's model moves on before a mistake is opened: the row still opens as the run asked it.
  await page.getByTestId('app.nav.workbench').click();
  const before = (await sessions.openName())!;
  await page.getByTestId('workbench.model').fill('model-other');
  await align.open();
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
  // A new session with the run's model, said in words; the session the user had is still in the list.
  expect(await page.getByTestId('workbench.model').inputValue()).toBe('model-latest');
  await expect
    .poll(() => sessions.toast.textContent())
    .toMatch(
      /^Row t\d+ of labelled\.csv is open in a new session, with the run’s questions, model \(model-latest\) and target \(local\)\. “.+” is unchanged in the sessions list\.$/,
    );
  expect(await sessions.openName()).toMatch(/^Row t\d+ of labelled\.csv$/);
  expect(await sessions.listNames()).toContain(before);

  // Reword the choice question and run it as a variant of the same labelled rows.
  const reworded = structuredClone(EXAMPLE_REQUEST.questions);
  (reworded['department'] as { instructions: string }).instructions =
    'Which team should handle this ticket: billing for money, technical for anything broken?';
  await workbench.editor.replaceText('questions', JSON.stringify(reworded, null, 2));
  await align.open();
  // Before it runs, the variant says what it sends: with an alias, every row and question, and the version to pin.
  await expect
    .poll(() => align.variantPlan.textContent())
    .toMatch(
      /^model-latest is an alias: stored answers are reused only for a pinned version, so this variant sends all 40 rows with all 3 questions: 40 requests, about [\d,]+ input tokens, ≈ \$[\d.]+ \(hosted list price; nothing billed here\)\. Pin model-\d+\.\d+\.\d+$/,
    );
  const pinned = ((await align.variantPin.textContent()) ?? '').replace(/^Pin /, '');
  await align.variantPin.click();
  await expect
    .poll(() => align.variantPlan.textContent())
    .toMatch(
      /^Only the changed question \(department\) is asked again, the others reused: 40 requests, at most/,
    );
  await align.variantRun.click();
  // The variant is the open run now: its progress is on the rows screen.
  await expect.poll(() => page.getByTestId('align.title').textContent()).toMatch(/\(variant\)$/);
  expect(await align.screen.locator('.align-header').textContent()).toContain(`model ${pinned}`);
  await rows.open();
  await rows.waitFinished();
  // The comparison shows once its figures are of the finished rows: it never flashed "0 rows answered by both runs".
  await align.watchComparisonHeads();
  await align.open();
  // Compared with the first run at once (never "nothing"), above every question's figures and mistakes.
  expect(await align.variantCompare.inputValue()).not.toBe('');
  // A signed change: "+0.05", "−0.004", "0.00" (never "−0.00": the digits keep the sign a value has).
  const signed = '(?:[+−]\\d+(?:\\.\\d+)?|0(?:\\.0+)?)';
  const diff = new RegExp(`^${signed} \\(95% CI ${signed} to ${signed}\\)$`);
  await expect
    .poll(() => align.difference('department', 'kappa').textContent(), { timeout: 30_000 })
    .toMatch(diff);
  expect(await align.difference('department', 'accuracy').textContent()).toMatch(
    new RegExp(`^${signed} percentage points \\(95% CI ${signed} to ${signed}\\)$`),
  );
  expect(await align.comparisonHeadsSeen()).toEqual(
    expect.arrayContaining(['department on 40 rows answered by both runs']),
  );
  expect(
    (await align.comparisonHeadsSeen()).filter((h) => / on 0 rows answered by both runs$/.test(h)),
  ).toEqual([]);
  for (const key of ['kappa', 'accuracy', 'brier'])
    expect(await align.difference('department', key).textContent()).not.toMatch(/−0(?:\.0+)?(?![.\d])/);
  expect(await align.mark('department', 'kappa').textContent()).toMatch(
    /^[▲▼=] (B better|B worse|no change)(, within the noise \(the interval includes 0\))?$/,
  );
  expect(await align.mark('department', 'brier').textContent()).toMatch(/^[▲▼=] /);
  const comparison = page.getByTestId('align.variant.department');
  expect(await comparison.getByRole('rowheader').allTextContents()).toEqual(
    expect.arrayContaining([
      "Cohen's kappa",
      'Macro F1',
      'Brier score',
      'Log loss',
      'Expected calibration error',
    ]),
  );
  const comparisonText = (await comparison.textContent()) ?? '';
  expect(comparisonText).toContain('instructions reworded');
  expect(comparisonText).not.toMatch(/p = <|\b1 rows\b|macro_f1|log_loss/);
  const variantsTop = (await align.screen.getByTestId('align.variants').boundingBox())!.y;
  const questionTop = (await page.getByTestId('align.question.department').boundingBox())!.y;
  expect(variantsTop).toBeLessThan(questionTop);

  // A reload comes back to the open run (the address keeps it), compared again.
  expect(new URL(page.url()).searchParams.get('run')).toBeTruthy();
  await page.reload();
  await workbench.shell.waitReady();
  await align.screen.waitFor();
  await expect.poll(() => page.getByTestId('align.title').textContent()).toMatch(/\(variant\)$/);
  await expect
    .poll(() => align.figure('department', 'kappa').textContent(), { timeout: 30_000 })
    .toMatch(/n = 40$/);
  await expect
    .poll(() => align.difference('department', 'kappa').textContent(), { timeout: 30_000 })
    .toMatch(diff);
  expect(await page.getByTestId('align.run.open').count()).toBe(0);
}, 240_000);

// A newcomer's file: label columns named exactly like the questions, more rows than a list shows.
const NAMED_ROWS = 120;
const NAMED_CSV = `id,channel,customer_message,department,is_urgent\n${Array.from(
  { length: NAMED_ROWS },
  (_, i) => {
    const [text, dept, urgent] = TICKETS[i % TICKETS.length]!;
    return `n${i + 1},${i % 2 ? 'email' : 'chat'},"${text} (#${i + 1})",${dept},${urgent}`;
  },
).join('\n')}\n`;

it('reads columns named like questions as labels, reaches every row of a cell, and reads as a newcomer needs', async () => {
  const page = browser.page();
  const workbench = new WorkbenchPage(page, server.url);
  await workbench.open();
  const rows = new RowsArea(page);
  await rows.open();
  await rows.pick('named.csv', NAMED_CSV);

  // Labels by default, said in one line with its undo; the state holds the other columns only.
  const defaulted = page.getByTestId('rows.labels.defaulted');
  await expect
    .poll(() => defaulted.textContent())
    .toMatch(
      /^is_urgent, department are named like questions, so they are read as their human labels and never sent to the judge\./,
    );
  expect(await page.getByTestId('rows.labels.column.department').inputValue()).toBe('department');
  await expect.poll(() => page.getByTestId('rows.samples').textContent()).toContain('customer_message');
  expect(await page.getByTestId('rows.samples').textContent()).not.toMatch(/department|is_urgent/);
  await page.getByTestId('rows.labels.defaulted.undo').click();
  expect(await defaulted.count()).toBe(0);
  await expect.poll(() => page.getByTestId('rows.samples').textContent()).toContain('department');
  await page.getByTestId('rows.labels.column.department').selectOption('department');
  await page.getByTestId('rows.labels.column.is_urgent').selectOption('is_urgent');
  await expect.poll(() => page.getByTestId('rows.samples').textContent()).not.toMatch(/department|is_urgent/);
  await expect.poll(() => page.getByTestId('rows.plan.rows').textContent()).toBe(String(NAMED_ROWS));
  await rows.start.click();
  await rows.waitFinished();

  // The sessions list counts the file run and its rows.
  await expect
    .poll(() => page.locator('[aria-current="true"] [data-testid="sessions.work"]').textContent())
    .toBe(`1 file run of ${NAMED_ROWS} rows`);
  // The rows table names the judge's answer as such, with the human label beside it.
  const heads = await page.getByTestId('rows.table').getByRole('columnheader').allTextContents();
  expect(heads).toContain('departmentjudge’s answer');
  expect(heads).toContain('departmenthuman label');
  expect(heads).toContain('is_urgenthuman label');
  // The input is what was sent: no id, no labels (they have their own column).
  expect(await page.getByTestId('rows.table.row').first().getByRole('cell').nth(3).textContent()).toBe(
    'chat · I was charged twice for my order, please refund me today (#1)',
  );

  const align = new AlignmentArea(page);
  await align.open();
  await expect
    .poll(() => align.figure('department', 'kappa').textContent(), { timeout: 30_000 })
    .toMatch(new RegExp(`n = ${NAMED_ROWS}$`));
  // Each figure in words: what it means here, which way is better, its reading scale; the method one click further.
  expect(await align.words('department', 'accuracy').textContent()).toMatch(
    /^The judge picks the human's department on \d+% of rows\. Higher is better\./,
  );
  expect(await align.words('department', 'kappa').textContent()).toMatch(
    /Higher is better\. On Landis and Koch \(1977\)’s scale: (poor \(below chance\)|slight|fair|moderate|substantial|almost perfect)\./,
  );
  expect(await align.words('department', 'brier').textContent()).toContain('Lower is better.');
  const method = align.words('department', 'kappa').getByText('Method and seed');
  await method.click();
  await expect.poll(() => align.words('department', 'kappa').textContent()).toMatch(/seed 1/);
  // A finished run offers no run of unanswered rows.
  expect(await page.getByTestId('align.run.start').count()).toBe(0);

  // The largest cell: a page more at a time, and every row of it in the rows screen.
  let biggest = { i: 0, j: 0, n: 0 };
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      const n = Number(await align.cell('department', i, j).textContent());
      if (n > biggest.n) biggest = { i, j, n };
    }
  expect(biggest.n).toBeGreaterThan(20);
  await align.cell('department', biggest.i, biggest.j).click();
  await expect.poll(() => align.cellRows().count()).toBe(20);
  await align.cellMore('showMore').click();
  await expect.poll(() => align.cellRows().count()).toBe(Math.min(40, biggest.n));
  await align.cellMore('openAll').click();
  await rows.screen.waitFor();
  await expect
    .poll(() => page.getByTestId('rows.filter.shown').textContent())
    .toBe(`${biggest.n} of ${NAMED_ROWS} rows`);
  expect(await page.getByTestId('rows.filter.agreement.question').inputValue()).toBe('department');
  await expect.poll(() => page.getByTestId('rows.table.row').count()).toBeGreaterThan(0);

  // The threshold slider: named, said what it does, and its matrix follows at once (no waiting).
  await align.open();
  const slider = align.slider('is_urgent');
  await expect.poll(() => slider.getAttribute('aria-valuetext')).toBe('0.50');
  expect(
    await page.getByText('The judge says yes when its P(yes) is at or above the threshold').isVisible(),
  ).toBe(true);
  // At 0 every row is a yes (P(yes) >= 0 always): the judge's "no" column empties.
  const noColumn = async () =>
    Number(await align.cell('is_urgent', 0, 0).textContent()) +
    Number(await align.cell('is_urgent', 1, 0).textContent());
  expect(await noColumn()).toBeGreaterThan(0);
  await slider.focus();
  await slider.press('Home');
  // Read in the same task as the key: the matrix and the threshold shown agree before any recompute.
  const shownAtOnce = await page.evaluate(() => ({
    threshold: document.querySelector('[data-testid="align.threshold.is_urgent"]')?.textContent,
    no: ['0.0', '1.0'].map((c) =>
      Number(document.querySelector(`[data-testid="align.cell.is_urgent.${c}"]`)?.textContent),
    ),
  }));
  expect(shownAtOnce).toEqual({ threshold: '0.00', no: [0, 0] });
  await expect
    .poll(() => align.figure('is_urgent', 'tnr').textContent(), { timeout: 30_000 })
    .toMatch(/^0\.00 \(95% CI/);
  expect(await noColumn()).toBe(0);

  // Labelling by keyboard from the first key: the card has the focus, the keys are on it; Backspace undoes a skip.
  await align.label('frustration');
  await expect
    .poll(() => page.getByTestId('align.labelling.keys').textContent())
    .toMatch(/^Keys: 1 .*s skip/);
  const progress = page.getByTestId('align.labelling.progress');
  await page.keyboard.press('1');
  await expect.poll(() => progress.textContent()).toBe(`1 of ${NAMED_ROWS} labelled`);
  await page.keyboard.press('s');
  await expect.poll(() => progress.textContent()).toBe(`1 of ${NAMED_ROWS} labelled · 1 skipped`);
  await page.keyboard.press('Backspace');
  await expect.poll(() => progress.textContent()).toBe(`1 of ${NAMED_ROWS} labelled`);
  await page.keyboard.press('Backspace');
  await expect.poll(() => progress.textContent()).toBe(`0 of ${NAMED_ROWS} labelled`);
}, 240_000);

it('sends label-named columns in the state after "Send them in the state instead" (they were neither labels nor sent)', async () => {
  const page = browser.page();
  const workbench = new WorkbenchPage(page, server.url);
  await workbench.open();
  const rows = new RowsArea(page);
  await rows.open();
  // labelled.csv with the rubric's question names: one text column, and a column per question.
  const labelled = `id,text,department,is_urgent\n${TICKETS.slice(0, 4)
    .map(([text, dept, urgent], i) => `u${i + 1},"${text}",${dept},${urgent}`)
    .join('\n')}\n`;
  await rows.pick('labelled.csv', labelled);
  await expect.poll(() => rows.defaultedLabels().textContent()).toMatch(/^is_urgent, department are named/);
  await expect.poll(() => rows.samples().textContent()).toContain('charged twice');
  expect(await rows.samples().textContent()).not.toMatch(/department|is_urgent/);

  await page.getByTestId('rows.labels.defaulted.undo').click();
  // In the state now: the row as named fields, the sample holding both columns beside the text.
  expect(await rows.defaultedLabels().count()).toBe(0);
  expect(await rows.modeChosen('Whole row as named fields')).toBe(true);
  await expect.poll(() => rows.samples().textContent()).toContain('"department": "billing"');
  expect(await rows.samples().textContent()).toContain('"is_urgent": "yes"');
  await expect.poll(() => page.getByTestId('rows.plan.rows').textContent()).toBe('4');
  await rows.start.click();
  await rows.waitFinished();
  // The input column is what the service was sent: the text, then both columns.
  expect(await rows.inputOf(0)).toBe(
    'I was charged twice for my order, please refund me today · billing · yes',
  );
  const heads = await page.getByTestId('rows.table').getByRole('columnheader').allTextContents();
  expect(heads).not.toContain('departmenthuman label');
}, 120_000);
