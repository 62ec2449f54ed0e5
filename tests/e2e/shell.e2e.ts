// The first run with no key: the page loads, lists the local target and its models, and says how to add a key.
import { expect, inject, it } from 'vitest';
import { useBrowser } from './harness/browser';
import { WorkbenchPage } from './pages/WorkbenchPage';

const browser = useBrowser();

it('loads, lists the local target and its models, and shows the banner with the two lines', async () => {
  const workbench = new WorkbenchPage(browser.page(), inject('workbenchUrl'));
  await workbench.open();
  const { shell } = workbench;

  expect(await shell.targetOptions()).toEqual([
    { id: 'local', label: 'Local reference (not a language model)' },
  ]);
  expect(await shell.targetKind.textContent()).toBe('local');
  expect(await shell.modelNames()).toEqual(['model-latest', 'model-preview']);

  await shell.banner.waitFor();
  const lines = await shell.page.getByTestId('shell.bannerLines').textContent();
  expect(lines).toMatch(/^EVAL_BASE_URL=.*\nEVAL_API_KEY=.*$/);
  expect(await shell.banner.textContent()).toContain('.env.local');
  expect(browser.pageErrors()).toEqual([]);
});

it('reads as a newcomer needs: a one-line note, keyboard shortcuts by name, one cost story, yes/no (issue 30 items 13, 14, 17, 18)', async () => {
  const page = browser.page();
  await page.setViewportSize({ width: 1440, height: 900 });
  const workbench = new WorkbenchPage(page, inject('workbenchUrl'));
  await workbench.open();
  const { shell, editor, answers } = workbench;

  // The local-only note is one line until its how-to is opened.
  await shell.banner.waitFor();
  // One line of text beside its Hide button: about 50 px where it took 130.
  expect((await shell.banner.locator('.banner-line').boundingBox())!.height).toBeLessThanOrEqual(24);
  expect((await shell.banner.boundingBox())!.height).toBeLessThanOrEqual(56);
  expect(await page.getByTestId('shell.bannerLines').isVisible()).toBe(false);
  await shell.banner.getByText('Add a model file or a key').click();
  expect(await page.getByTestId('shell.bannerLines').isVisible()).toBe(true);

  // "Keyboard shortcuts", not "Keys" (API keys live in the server), with the labelling keys listed.
  const help = page.getByTestId('shell.keys');
  await help.getByText('Keyboard shortcuts', { exact: true }).click();
  expect(await help.textContent()).toContain('Labelling rows: skips the row');
  expect(await help.textContent()).toContain('Labelling rows: undoes the last label or skip');

  // One cost story on the local reference: the hosted list price, and nothing billed, on every figure.
  await editor.waitReady();
  expect(await page.getByTestId('answers.empty').textContent()).not.toContain('costs nothing');
  await expect
    .poll(() => page.getByTestId('cost.perRun').textContent())
    .toContain('(hosted list price; nothing billed here)');
  await editor.run.click();
  await answers.waitAnswered();
  expect(await answers.fact('cost')).toContain('; the local reference bills nothing)');

  // "noul" is the wire's word: people read yes/no on the cards and in the form.
  const shown = await answers.pane.evaluate((e) => (e as HTMLElement).innerText);
  expect(shown).not.toMatch(/\bnoul\b/i);
  // The kind tag is set in capitals by CSS: innerText reads what is on screen.
  expect(shown).toContain('YES/NO');
  await editor.questionsView('Form');
  const typeNames = await page.locator('select option').allTextContents();
  expect(typeNames).toContain('yes/no (noul)');
  expect(typeNames).not.toContain('noul');
});
