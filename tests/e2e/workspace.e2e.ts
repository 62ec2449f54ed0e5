// The team workspace as a team uses it (issue 40), on one machine with `npm start`: the owner runs 200 tickets through
// the judge and publishes them for three people; three browsers join by their invite links and label in parallel, one
// of them offline for a while; the owner's "Can the judge replace a person?" figures (the ceiling, the alt-test, the
// threshold) follow without a reload; the queue goes out in Label Studio's format and comes back into a second queue
// with the same figures; the owner's alignment screen follows the queue and reads the three people's labels. With
// WORKSPACE_TEST_POSTGRES=1 (.ci/run) the same steps run again on a real PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEPARTMENT_QUESTION } from '../helpers/fixtures';
import { startPostgres } from '../helpers/postgres';
import type { TestPostgres } from '../helpers/postgres';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { AlignmentArea } from './pages/AlignmentArea';
import { RowsArea } from './pages/RowsArea';
import { WorkbenchPage } from './pages/WorkbenchPage';
import { WorkspaceArea } from './pages/WorkspaceArea';

const QUESTIONS = JSON.stringify(DEPARTMENT_QUESTION);
const KINDS = [
  ['I was charged twice for my order, please refund me today', 'billing'],
  ['The app crashes every time I open the settings page', 'technical'],
  ['Thanks, everything is sorted now', 'other'],
  ['My payouts have failed, please fix the payment', 'billing'],
  ['The API returns 500 errors on every webhook', 'technical'],
  ['Is the office open on holidays?', 'other'],
] as const;
const ROWS = 200;
const CSV = `ticket,text\n${Array.from({ length: ROWS }, (_, i) => `t${i + 1},"${KINDS[i % KINDS.length]![0]} (#${i + 1})"`).join('\n')}\n`;
const KEYS = { billing: '1', technical: '2', other: '3' } as const;
/** Each person's label for a ticket's text: the ticket's kind, except that Cy calls every vague ticket billing. */
const labelOf = (person: string, text: string): string => {
  const kind = KINDS.find(([t]) => text.startsWith(t))![1];
  return KEYS[person === 'Cy' && kind === 'other' ? 'billing' : kind];
};
/** Rows each person labels: the alt-test's 30 rows beside another person, and a few more; not the whole queue. */
const EACH = 34;

const browser = useBrowser();

/** Labels `count` rows from the card on screen, each with the key `labelOf` gives, each sent before the next. */
async function labelRows(area: WorkspaceArea, person: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await area.card.waitFor();
    const text = (await area.cardState.textContent()) ?? '';
    await area.card.press(labelOf(person, text));
    // The next row comes once the label reached the workspace.
    await expect.poll(() => area.cardState.textContent()).not.toBe(text);
  }
  expect(await area.pending.count()).toBe(0);
}

/** A new browser profile opened at an invite link, joined under `name`, on the queue's first row. */
async function labellerAt(
  link: string,
  name: string,
  b: Browser,
): Promise<{ page: Page; area: WorkspaceArea }> {
  const context = await b.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(link);
  const area = new WorkspaceArea(page);
  await area.join(name);
  expect(await area.me.textContent()).toBe(`You are ${name}, a labeller.`);
  // The invite's token leaves the address once used.
  expect(new URL(page.url()).hash).toBe('');
  await area.openToLabel('Tickets');
  return { page, area };
}

const databases: { name: string; start: () => Promise<TestPostgres | null> }[] = [
  { name: 'PGlite in process', start: async () => null },
  ...(process.env.WORKSPACE_TEST_POSTGRES === '1'
    ? [{ name: 'a real PostgreSQL (DATABASE_URL)', start: startPostgres }]
    : []),
];

describe.each(databases)('a team labels together on $name', ({ start }) => {
  let server: WorkbenchProcess | undefined;
  let database: TestPostgres | null = null;
  const dir = mkdtempSync(join(tmpdir(), 'workbench-workspace-e2e-'));
  afterAll(async () => {
    await server?.stop();
    database?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'publishes 200 rows for three people, who label in parallel (one offline a while), with live figures and a Label Studio round trip',
    { timeout: 240_000 },
    async () => {
      database = await start();
      server = await startWorkbenchProcess({
        WORKBENCH_WORKSPACE_DIR: dir,
        ...(database ? { DATABASE_URL: database.url } : {}),
      });
      const page = browser.page();
      const workbench = new WorkbenchPage(page, server.url);
      await workbench.open();
      await workbench.shell.selectTarget('local');
      await workbench.editor.waitReady();
      await workbench.editor.replaceText('questions', QUESTIONS);
      const rows = new RowsArea(page);
      await rows.open();
      await rows.pick('tickets.csv', CSV);
      await expect.poll(() => page.getByTestId('rows.plan.rows').textContent()).toBe('200');
      await rows.start.click();
      await rows.waitFinished(120_000);

      // The owner: one button, no sign-in; three single-use invites; the run published for three people a row.
      const owner = new WorkspaceArea(page);
      await owner.open();
      expect(new URL(await owner.start()).hash).toMatch(/^#workspace-owner=/);
      expect(await owner.me.textContent()).toBe('You are Owner, the owner.');
      const links = [await owner.invite('Ada'), await owner.invite('Bo'), await owner.invite('Cy')];
      expect(new Set(links).size).toBe(3);
      await owner.publish('Tickets', 3);
      expect(await owner.queue('Tickets').textContent()).toMatch(/0 of 600/);
      await owner.openFigures('Tickets');
      await expect.poll(() => owner.live.textContent()).toContain('Live');
      expect(await owner.labelsCounted()).toBe(0);

      // Three browsers, three links: Ada and Bo label while Cy's connection drops for a while.
      const b = browser.context().browser()!;
      const [ada, bo, cy] = await Promise.all([
        labellerAt(links[0]!, 'Ada', b),
        labellerAt(links[1]!, 'Bo', b),
        labellerAt(links[2]!, 'Cy', b),
      ]);
      try {
        // The rubric's order holds (the database keeps it): 1 billing, 2 technical, 3 other.
        expect(await ada.area.card.getAttribute('aria-label')).toMatch(
          /Keys: 1 billing, 2 technical, 3 other;/,
        );
        // Blind: nothing of the judge's answers (a label, a confidence) is on a labeller's screen.
        expect(await ada.area.screen.textContent()).not.toMatch(/judge|confiden|\d+%/i);
        const offline = async (): Promise<void> => {
          await labelRows(cy.area, 'Cy', 4);
          // Offline: the label given on the row on screen is kept in this browser, and the next row waits.
          await cy.page.context().setOffline(true);
          const text = (await cy.area.cardState.textContent()) ?? '';
          await cy.area.card.press(labelOf('Cy', text));
          await expect
            .poll(() => cy.area.pending.textContent(), { timeout: 20_000 })
            .toMatch(/^1 label kept/);
          await cy.area.offline.waitFor({ timeout: 20_000 });
          // Meanwhile the owner's figures move on Ada's and Bo's labels alone.
          await expect.poll(() => owner.labelsCounted(), { timeout: 30_000 }).toBeGreaterThan(4);
          await cy.page.context().setOffline(false);
          await expect.poll(() => cy.area.pending.count(), { timeout: 30_000 }).toBe(0);
          await labelRows(cy.area, 'Cy', EACH - 5);
        };
        await Promise.all([labelRows(ada.area, 'Ada', EACH), labelRows(bo.area, 'Bo', EACH), offline()]);
      } finally {
        await Promise.all([ada, bo, cy].map((p) => p.page.context().close()));
      }

      // Every label arrived once, the offline one included, and the owner's page followed without a reload.
      await expect.poll(() => owner.labelsCounted(), { timeout: 30_000 }).toBe(3 * EACH);
      const figures = async () => ({
        ceiling: await owner.trust('department', 'ceiling').textContent(),
        verdict: await owner.trust('department', 'verdict').textContent(),
        threshold: await owner.trust('department', 'threshold').textContent(),
      });
      // The human ceiling, the alt-test and the threshold, on the three people's labels, each person apart (the
      // alt-test leaves one annotator out at a time).
      await page.getByTestId('workspace.figures.basis').selectOption('each');
      // Read once the figures are those of each person apart: until they arrive the panel keeps the majority's, where
      // people's agreement is undefined.
      await expect
        .poll(async () => (await figures()).ceiling, { timeout: 30_000 })
        .toMatch(
          /^The judge agrees with the majority at .*; people agree with each other at alpha -?\d\.\d\d \[/,
        );
      const before = await figures();
      expect(before.verdict).toMatch(/^The judge (can|cannot) replace an annotator: /);
      expect(before.threshold).toMatch(/^(The judge certifies|No threshold certifies) /);
      expect(await page.getByTestId('workspace.figures.labeller.Cy').textContent()).toMatch(/^Cy/);

      // Label Studio's export, read back into a second queue of the same run: the same figures.
      const exported = await owner.export('labelstudio');
      expect(exported.name).toMatch(/\.labelstudio\.json$/);
      const tasks = JSON.parse(exported.text) as { annotations: { completed_by: unknown }[] }[];
      expect(tasks.flatMap((t) => t.annotations)).toHaveLength(3 * EACH);
      await owner.publish('Tickets again', 3);
      await owner.openFigures('Tickets again');
      expect(await owner.labelsCounted()).toBe(0);
      expect(await owner.import('labelstudio', exported.name, exported.text)).toMatch(
        new RegExp(`${3 * EACH} labels`),
      );
      await expect.poll(() => owner.labelsCounted(), { timeout: 30_000 }).toBe(3 * EACH);
      await expect.poll(figures, { timeout: 30_000 }).toEqual(before);

      // The owner's alignment screen follows the first queue: the three people's labels in the run, each their own,
      // and "Can the judge replace a person?" read on them.
      const align = new AlignmentArea(page);
      await align.open();
      await align.follow('Tickets (200 rows)');
      await expect
        .poll(() => align.followStatus.textContent(), { timeout: 30_000 })
        .toMatch(new RegExp(`\\(live\\): ${3 * EACH} labels from 3 people \\(Ada, Bo, Cy\\) in this run`));
      await expect
        .poll(() => align.trust('department', 'verdict').textContent(), { timeout: 30_000 })
        .toMatch(/^The judge (can|cannot) replace an annotator: /);
      expect(browser.pageErrors()).toEqual([]);
    },
  );
});
