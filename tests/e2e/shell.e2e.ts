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
