// The page fits the person (issues 21 and 34): at four window sizes and at 200% zoom, the main screen (note shown,
// hidden, absent), compare with 2 and 4 columns and the rows screen fill the window or scroll, spill nothing sideways,
// cut no header or chart label; both editors show 12 lines at 1440x900 with problems listed; answer cards follow their
// column, also after the window shrinks with answers on screen; compare entered by its switch gives its four columns
// the room; every control is reachable by Tab and every dialog gives focus back. Geometry read from the page as a
// person sees it (visible lines, visible boxes), not screenshots and not what a scroll region could hold.
import { expect, inject, it } from 'vitest';
import { serveReference } from '../../src/server/reference/serve';
import { serveHosted, standinKey, targetsFileFor } from '../helpers/standins';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import { CompareArea } from './pages/CompareArea';
import { LayoutProbe } from './pages/LayoutProbe';
import { RowsArea } from './pages/RowsArea';
import { SessionsArea } from './pages/SessionsArea';
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

/** Three questions with one error each (the gateway's "boolean" type): the problems list opens with three items. */
const THREE_PROBLEMS = JSON.stringify(
  {
    is_urgent: { type: 'boolean', instructions: 'Does this convey urgency?' },
    is_angry: { type: 'boolean', instructions: 'Is the customer angry?' },
    wants_refund: { type: 'boolean', instructions: 'Does the customer ask for a refund?' },
  },
  null,
  2,
);

const TICKETS = [
  'id,message',
  '1,I was charged twice for my subscription',
  '2,The app crashes when I log in',
  '3,Thanks for the quick help',
  '4,Where is my refund',
].join('\n');

/**
 * Puts three problems in the questions, with the list open, and returns the lines each editor shows at 1440x900
 * (the page scrolled to the editors when it scrolls, as a person would).
 */
async function linesWithProblems(
  workbench: WorkbenchPage,
  probe: LayoutProbe,
): Promise<Record<string, number>> {
  await probe.resize(1440, 900);
  await workbench.editor.waitReady();
  await workbench.editor.replaceText('questions', THREE_PROBLEMS);
  await workbench.page
    .locator('[data-testid="workbench.problemsSummary"]', { hasText: '3 errors' })
    .waitFor();
  await workbench.editor.expandProblems();
  expect(await workbench.editor.problemItems.count()).toBe(3);
  await probe.editorsIntoView();
  return { state: await probe.editorLines('state'), questions: await probe.editorLines('questions') };
}

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

it('main screen with the note shown, then hidden (remembered after a reload): fills, spills nothing, both editors 12 lines with problems listed', async () => {
  const workbench = new WorkbenchPage(browser.page(), inject('workbenchUrl'));
  const probe = new LayoutProbe(browser.page());
  await workbench.open();
  await workbench.shell.banner.waitFor();
  await workbench.page.getByTestId('editor.monaco.questions').waitFor();

  expect(await checkFits(probe, 'note shown')).toEqual([]);
  expect(await linesWithProblems(workbench, probe)).toEqual({
    state: expect.toSatisfy((n: number) => n >= 12),
    questions: expect.toSatisfy((n: number) => n >= 12),
  });
  expect(await checkFits(probe, 'note shown, 3 problems')).toEqual([]);

  await workbench.page.getByRole('button', { name: 'Hide this note' }).click();
  expect(await checkFits(probe, 'note hidden')).toEqual([]);
  expect(await linesWithProblems(workbench, probe)).toEqual({
    state: expect.toSatisfy((n: number) => n >= 12),
    questions: expect.toSatisfy((n: number) => n >= 12),
  });

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
    expect(await linesWithProblems(workbench, probe)).toEqual({
      state: expect.toSatisfy((n: number) => n >= 12),
      questions: expect.toSatisfy((n: number) => n >= 12),
    });

    // A split the user drags is kept: through a window resize and a reload.
    const separator = workbench.page.getByRole('separator', {
      name: 'Resize the state and questions editors',
    });
    const grip = (await separator.boundingBox())!;
    const stateBefore = (await workbench.page.getByTestId('editor.state').boundingBox())!.height;
    await workbench.page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await workbench.page.mouse.down();
    await workbench.page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2 - 100, { steps: 5 });
    await workbench.page.mouse.up();
    const dragged = (await workbench.page.getByTestId('editor.state').boundingBox())!.height;
    expect(dragged).toBeLessThan(stateBefore - 80);
    await probe.resize(1920, 1080);
    await probe.resize(1440, 900);
    expect((await workbench.page.getByTestId('editor.state').boundingBox())!.height).toBeCloseTo(dragged, -1);
    // The layout is written 300 ms after the last drag (sessions/connect.ts LAYOUT_SAVE_DELAY_MS).
    await workbench.page.waitForTimeout(900);
    await workbench.page.reload();
    await workbench.editor.waitReady();
    await expect
      .poll(async () => (await workbench.page.getByTestId('editor.state').boundingBox())!.height)
      .toBeCloseTo(dragged, -1);
  } finally {
    await server.stop();
    await upstream.close();
  }
});

it('the top bar keeps one line from 1024 px up on every screen: a server configured, a failing one, one without its key', async () => {
  const hosted = await serveHosted(standinKey('hosted'));
  const down = await serveHosted(standinKey('hosted'));
  const { vars } = targetsFileFor({
    hosted,
    down: { ...down, entry: { ...down.entry, label: 'Hosted, server down' } },
    nokey: {
      ...hosted,
      key: null,
      entry: { ...hosted.entry, keyVar: 'UNSET_LAYOUT_KEY', label: 'Hosted, no key' },
    },
  });
  await down.close();
  const server = await startWorkbenchProcess(vars);
  try {
    const workbench = new WorkbenchPage(browser.page(), server.url);
    const probe = new LayoutProbe(browser.page());
    await workbench.open();
    const failures: string[] = [];
    const check = async (where: string): Promise<void> => {
      for (const width of [1024, 1440]) {
        await probe.resize(width, 900);
        const { rows, belowFirst } = await probe.topBarRows();
        if (rows !== 1)
          failures.push(`${where} at ${width} px: ${rows} lines, second: ${belowFirst.join(', ')}`);
        const cut = (await probe.clippedText()).filter((t) => t.startsWith('header top-bar'));
        failures.push(...cut.map((t) => `${where} at ${width} px: ${t}`));
      }
    };
    // Listed; whether a chip shows depends on the room left (chips give way first).
    await workbench.shell.models.first().waitFor({ state: 'attached' });
    for (const screen of ['workbench', 'rows', 'alignment', 'taxonomy']) {
      await workbench.page.getByTestId(`app.nav.${screen}`).click();
      await check(`one server, ${screen} screen`);
    }
    await workbench.page.getByTestId('app.nav.workbench').click();
    await workbench.shell.selectTarget('down');
    await workbench.shell.modelsError.waitFor();
    await check('the server down');
    await workbench.shell.selectTarget('nokey');
    await workbench.page.getByTestId('shell.keyMissing').waitFor();
    await check('the key missing');
    expect(failures).toEqual([]);
  } finally {
    await server.stop();
    await hosted.close();
  }
});

it('answer cards follow their column at every size, and when the window shrinks with answers on screen', async () => {
  const workbench = new WorkbenchPage(browser.page(), inject('workbenchUrl'));
  const probe = new LayoutProbe(browser.page());
  await probe.resize(1920, 1080);
  await workbench.open();
  await workbench.editor.waitReady();
  await workbench.editor.run.click();
  await workbench.answers.waitAnswered();
  expect(await workbench.answers.cards.count()).toBeGreaterThanOrEqual(3);
  const misfits = async (where: string): Promise<string[]> => {
    // The charts measure their box and draw again: give them the frames a person would wait.
    await expect
      .poll(() => probe.cardMisfits(), { timeout: 3_000 })
      .toEqual([])
      .catch(() => undefined);
    return (await probe.cardMisfits()).map((m) => `${where}: ${m}`);
  };
  const failures = await misfits('1920x1080');
  // Smallest last, then back up: no reload, the answers stay on screen throughout.
  for (const size of [...SIZES].sort((a, b) => b.width - a.width)) {
    await probe.resize(size.width, size.height);
    failures.push(...(await misfits(`${size.name} after shrinking`)));
  }
  await probe.resize(1920, 1080);
  failures.push(...(await misfits('1920x1080 after growing back')));
  // Opened at the smallest size: the first draw fits too.
  await probe.resize(1024, 768);
  await workbench.page.reload();
  await workbench.editor.waitReady();
  await workbench.editor.run.click();
  await workbench.answers.waitAnswered();
  failures.push(...(await misfits('1024x768 from the start')));
  expect(failures).toEqual([]);
  expect(browser.pageErrors()).toEqual([]);
});

for (const size of [
  { name: '1440x900', width: 1440, height: 900 },
  { name: '1920x1080', width: 1920, height: 1080 },
]) {
  it(`compare entered by its switch at ${size.name}: the editors fold, four columns in view, the button says what it does`, async () => {
    const workbench = new WorkbenchPage(browser.page(), inject('workbenchUrl'));
    const probe = new LayoutProbe(browser.page());
    const compare = new CompareArea(browser.page());
    const page = workbench.page;
    await probe.resize(size.width, size.height);
    await workbench.open();
    await workbench.editor.waitReady();
    await compare.modeSwitch.getByRole('radio', { name: 'Compare' }).check();
    await compare.columns.first().waitFor();
    await page.getByTestId('compare.addColumn').click();
    await page.getByTestId('compare.addColumn').click();
    await compare.runAll.click();
    for (const i of [0, 1, 2, 3]) await compare.waitPhase(i, 'answered');
    await probe.resize(size.width, size.height);

    expect(await probe.editorsFold()).toEqual({
      label: 'Show editors',
      pressed: 'false',
      width: 0,
      inert: true,
    });
    expect(await probe.notFullyInView('[data-testid="compare.column"]')).toEqual([]);
    expect(await probe.cardMisfits()).toEqual([]);

    // One press shows the editors, and they can be typed in; the next folds them again.
    await page.keyboard.press('Control+Shift+E');
    await expect
      .poll(() => probe.editorsFold())
      .toMatchObject({ label: 'Fold editors', pressed: 'true', inert: false });
    expect((await probe.editorsFold()).width).toBeGreaterThan(300);
    expect(await probe.editorLines('questions')).toBeGreaterThan(0);
    await page.keyboard.press('Control+Shift+E');
    await expect
      .poll(() => probe.editorsFold())
      .toEqual({ label: 'Show editors', pressed: 'false', width: 0, inert: true });
    expect(await probe.notFullyInView('[data-testid="compare.column"]')).toEqual([]);

    // Shown, then back to the answers and into compare again: entering compare gives the columns the room again.
    await page.getByTestId('workbench.toggleEditors').click();
    await expect.poll(() => probe.editorsFold()).toMatchObject({ label: 'Fold editors', inert: false });
    await compare.modeSwitch.getByRole('radio', { name: 'Answers' }).check();
    await workbench.answers.pane.waitFor();
    await compare.modeSwitch.getByRole('radio', { name: 'Compare' }).check();
    await compare.columns.first().waitFor();
    await expect
      .poll(() => probe.editorsFold())
      .toEqual({ label: 'Show editors', pressed: 'false', width: 0, inert: true });
    expect(await probe.notFullyInView('[data-testid="compare.column"]')).toEqual([]);

    // Editors dragged open are shown (the button says so, and they take typing); the dragged layout is saved, and
    // compare opened by its address (a reload) still folds them.
    const grip = (await page
      .getByRole('separator', { name: 'Resize the editors and the answers' })
      .boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + 500, grip.y + grip.height / 2, { steps: 10 });
    await page.mouse.up();
    await expect.poll(() => probe.editorsFold()).toMatchObject({ label: 'Fold editors', inert: false });
    const dragged = (await probe.editorsFold()).width;
    expect(dragged).toBeGreaterThan(400);
    // The layout is written 300 ms after the last drag (sessions/connect.ts LAYOUT_SAVE_DELAY_MS).
    await page.waitForTimeout(900);
    expect(new URL(page.url()).searchParams.get('view')).toBe('compare');
    await page.reload();
    await compare.columns.first().waitFor();
    await new SessionsArea(page).waitReady();
    await workbench.editor.waitReady();
    await expect
      .poll(() => probe.editorsFold())
      .toEqual({ label: 'Show editors', pressed: 'false', width: 0, inert: true });
    expect(await probe.notFullyInView('[data-testid="compare.column"]')).toEqual([]);
    // Unfolded, they come back at the width they were dragged to.
    await page.keyboard.press('Control+Shift+E');
    await expect.poll(async () => (await probe.editorsFold()).width).toBeGreaterThan(dragged - 5);
    expect(await probe.editorsFold()).toMatchObject({ label: 'Fold editors', inert: false });
    expect((await probe.editorsFold()).width).toBeLessThan(dragged + 5);
    expect(browser.pageErrors()).toEqual([]);
  });
}

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
  expect(await probe.notFullyInView('[data-testid="compare.column"]')).toEqual([]);
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
