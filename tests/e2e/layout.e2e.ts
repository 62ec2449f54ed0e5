// The page fits the person (issue 21): at four window sizes and at 200% zoom, the main screen (note shown, hidden,
// absent), compare with 2 and 4 columns and the rows screen fill the window or scroll, spill nothing sideways, cut no
// header or chart label; the editors keep 12 lines at 1440x900; every control is reachable by Tab and every dialog
// gives focus back. Geometry read from the page, not screenshots.
import { expect, inject, it } from 'vitest';
import { serveReference } from '../../src/server/reference/serve';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import { CompareArea } from './pages/CompareArea';
import { LayoutProbe } from './pages/LayoutProbe';
import { RowsArea } from './pages/RowsArea';
import { WorkbenchPage } from './pages/WorkbenchPage';

const browser = useBrowser();

/** 200% zoom of a 1440x900 window is a 720x450 CSS-pixel viewport: the layout is the same. */
const SIZES = [
  { name: '1024x768', width: 1024, height: 768 },
  { name: '1280x800', width: 1280, height: 800 },
  { name: '1440x900', width: 1440, height: 900 },
  { name: '1920x1080', width: 1920, height: 1080 },
  { name: '200% zoom', width: 720, height: 450 },
] as const;

const TICKETS = [
  'id,message',
  '1,I was charged twice for my subscription',
  '2,The app crashes when I log in',
  '3,Thanks for the quick help',
  '4,Where is my refund',
].join('\n');

/** The checks every screen must pass at every size; returns what failed, by size, so one run reports everything. */
async function checkFits(probe: LayoutProbe, screen: string): Promise<string[]> {
  const failures: string[] = [];
  for (const size of SIZES) {
    await probe.resize(size.width, size.height);
    const where = `${screen} at ${size.name}`;
    const fill = await probe.fill();
    if (!fill.pageScrolls && Math.abs(fill.gap) > 2)
      failures.push(`${where}: ${fill.gap} px between the main area and the window's bottom`);
    if (fill.pageScrolls && (fill.mainHeight < 400 || fill.sessionListHeight < 48))
      failures.push(
        `${where}: the page scrolls but squeezes (main ${fill.mainHeight} px, sessions ${fill.sessionListHeight} px)`,
      );
    for (const spill of await probe.spills())
      failures.push(`${where}: ${spill.what} spills by ${spill.by} px`);
    for (const clipped of await probe.clippedText()) failures.push(`${where}: ${clipped}`);
  }
  return failures;
}

it('main screen with the note shown, then hidden (remembered after a reload): fills, spills nothing, 12 editor lines', async () => {
  const workbench = new WorkbenchPage(browser.page(), inject('workbenchUrl'));
  const probe = new LayoutProbe(browser.page());
  await workbench.open();
  await workbench.shell.banner.waitFor();
  await workbench.page.getByTestId('editor.monaco.questions').waitFor();

  expect(await checkFits(probe, 'note shown')).toEqual([]);
  await probe.resize(1440, 900);
  expect(await probe.editorLines('questions')).toBeGreaterThanOrEqual(12);

  await workbench.page.getByRole('button', { name: 'Hide this note' }).click();
  expect(await checkFits(probe, 'note hidden')).toEqual([]);
  await probe.resize(1440, 900);
  expect(await probe.editorLines('questions')).toBeGreaterThanOrEqual(12);

  // Hide is remembered in this browser.
  await workbench.page.reload();
  await workbench.shell.waitReady();
  await workbench.page.getByTestId('workbench').waitFor();
  expect(await workbench.shell.banner.count()).toBe(0);
  expect(browser.pageErrors()).toEqual([]);
});

it('main screen with a key configured (no note): fills at every size', async () => {
  const upstream = await serveReference({ port: 0, apiKeys: ['layout-key'] });
  const server = await startWorkbenchProcess({ EVAL_BASE_URL: upstream.url, EVAL_API_KEY: 'layout-key' });
  try {
    const workbench = new WorkbenchPage(browser.page(), server.url);
    const probe = new LayoutProbe(browser.page());
    await workbench.open();
    await workbench.page.getByTestId('editor.monaco.questions').waitFor();
    expect(await workbench.shell.banner.count()).toBe(0);
    expect(await checkFits(probe, 'no note')).toEqual([]);
    await probe.resize(1440, 900);
    expect(await probe.editorLines('questions')).toBeGreaterThanOrEqual(12);
  } finally {
    await server.stop();
    await upstream.close();
  }
});

it('compare with 2 and 4 columns after a run: 4 side by side at 1440x900, headers and the count in view', async () => {
  const workbench = new WorkbenchPage(browser.page(), inject('workbenchUrl'));
  const probe = new LayoutProbe(browser.page());
  const compare = new CompareArea(browser.page());
  await workbench.open('/?view=compare');
  await workbench.page.getByRole('button', { name: 'Hide this note' }).click();
  await compare.open();
  await compare.runAll.click();
  await compare.waitPhase(0, 'answered');
  await compare.waitPhase(1, 'answered');
  await compare.questions.first().waitFor();
  expect(await checkFits(probe, 'compare, 2 columns')).toEqual([]);

  await workbench.page.getByTestId('compare.addColumn').click();
  await workbench.page.getByTestId('compare.addColumn').click();
  await compare.runAll.click();
  for (const i of [0, 1, 2, 3]) await compare.waitPhase(i, 'answered');
  expect(await checkFits(probe, 'compare, 4 columns')).toEqual([]);

  await probe.resize(1440, 900);
  const side = await workbench.page.getByTestId('compare.side').evaluate((el) => {
    const body = el.querySelector('.answers-side__body')!;
    return { scrollWidth: body.scrollWidth, clientWidth: body.clientWidth };
  });
  expect(side.scrollWidth).toBeLessThanOrEqual(side.clientWidth);
  // Scrolled down to the last question: the column names and the flagged count are still on screen.
  await compare.questions.last().scrollIntoViewIfNeeded();
  const sticky = await workbench.page.getByTestId('compare.sticky').boundingBox();
  const body = await workbench.page.locator('.answers-side__body').boundingBox();
  expect(sticky!.y).toBeGreaterThanOrEqual(body!.y - 1);
  expect(sticky!.y + sticky!.height).toBeLessThanOrEqual(body!.y + body!.height);
  expect(await workbench.page.getByTestId('compare.columnName').allTextContents()).toHaveLength(4);
  expect(await workbench.page.getByTestId('compare.stickyCount').textContent()).toMatch(
    /^\d+ of \d+ flagged$/,
  );

  // The editors come back as they were, one key away.
  await workbench.page.keyboard.press('Control+Shift+E');
  await workbench.page.getByTestId('editor.monaco.questions').waitFor();
  expect(await probe.editorLines('questions')).toBeGreaterThanOrEqual(12);
  await workbench.page.keyboard.press('Control+Shift+E');
  expect(browser.pageErrors()).toEqual([]);
});

it('rows screen with a plan and with a finished run: inputs beside their labels, fills at every size', async () => {
  const workbench = new WorkbenchPage(browser.page(), inject('workbenchUrl'));
  const probe = new LayoutProbe(browser.page());
  const rows = new RowsArea(browser.page());
  await workbench.open();
  await workbench.page.getByRole('button', { name: 'Hide this note' }).click();
  await rows.open();
  await rows.pick('tickets.csv', TICKETS);
  expect(await workbench.page.getByTestId('rows.fileName').textContent()).toBe('Loaded: tickets.csv');
  expect(await checkFits(probe, 'rows plan')).toEqual([]);
  for (const size of SIZES) {
    await probe.resize(size.width, size.height);
    const beside = await workbench.page.getByTestId('rows.pacing').evaluate((grid) =>
      [...grid.querySelectorAll('label')].map((label) => {
        const input = document.getElementById(label.htmlFor)!.getBoundingClientRect();
        const l = label.getBoundingClientRect();
        return {
          label: label.textContent,
          beside:
            input.left >= l.right && Math.abs(input.top + input.height / 2 - (l.top + l.height / 2)) < 12,
          onScreen: input.right <= window.innerWidth,
        };
      }),
    );
    expect(
      beside.every((b) => b.beside && b.onScreen),
      `${size.name}: ${JSON.stringify(beside)}`,
    ).toBe(true);
  }

  await rows.start.click();
  await workbench.page.locator('[data-testid="rows.status"][data-phase="finished"]').waitFor();
  expect(await checkFits(probe, 'rows finished')).toEqual([]);
  expect(await rows.resume.count()).toBe(0);

  // The screen is in the address: a reload comes back to it, and the finished run still reads Finished.
  expect(new URL(workbench.page.url()).searchParams.get('screen')).toBe('rows');
  await workbench.page.reload();
  await rows.screen.waitFor();
  await workbench.page
    .getByTestId('rows.run')
    .first()
    .getByRole('button', { name: 'tickets.csv', exact: true })
    .first()
    .click();
  await workbench.page.locator('[data-testid="rows.status"]').waitFor();
  expect(await rows.status.textContent()).toBe('Finished');
  expect(await rows.resume.count()).toBe(0);
  expect(browser.pageErrors()).toEqual([]);
});

it('keyboard alone: every control reachable by Tab, the editors say how to leave, dialogs return focus', async () => {
  const workbench = new WorkbenchPage(browser.page(), inject('workbenchUrl'));
  const probe = new LayoutProbe(browser.page());
  const page = workbench.page;
  await workbench.open();
  await page.getByTestId('editor.monaco.questions').waitFor();

  expect(await probe.unreachableByTab()).toEqual([]);

  await page.getByTestId('editor.monaco.questions').click();
  expect(await page.getByTestId('editor.hint.questions').isVisible()).toBe(true);
  expect(await page.getByTestId('editor.hint.questions').textContent()).toMatch(
    /^Tab indents · Ctrl\+M then Tab/,
  );

  for (const opener of ['getCode.open', 'lint.paste'] as const) {
    const button = page.getByTestId(opener);
    const back = await probe.dialogReturnsFocus(opener, async () => {
      await button.focus();
      await page.keyboard.press('Enter');
    });
    expect(back, opener).toBe(true);
  }
  // The share dialog opens from a session's menu: focus comes back to its ⋯ button.
  const back = await probe.dialogReturnsFocus('sessions.menu', async () => {
    await page.getByTestId('sessions.menu').first().focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Share link…' }).focus();
    await page.keyboard.press('Enter');
  });
  expect(back).toBe(true);
  expect(browser.pageErrors()).toEqual([]);
});
