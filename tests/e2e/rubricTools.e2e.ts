// Issue 8 as a new user tries it in Chromium: a rubric with numeric levels, an unused state field and a missing
// backtick field shows three explained warnings with fixes; the token count moves while typing and equals the bill;
// the copied curl command runs against the local reference; a 600-label taxonomy resolves to one label with its path;
// a gateway sample is rewritten to the direct form in one click.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EvaluateResponseSchema } from '../../src/contract';
import { EXAMPLE_REQUEST } from '../../src/core/example';
import { serveReference } from '../../src/server/reference/serve';
import type { RunningReference } from '../../src/server/reference/serve';
import { DEFAULT_API_KEY } from '../../src/server/reference/options';
import { NEW_USER_RUBRIC } from '../helpers/fixtures';
import { taxonomyLabels } from '../helpers/taxonomyFixture';
import { SessionsArea } from './pages/SessionsArea';
import { useBrowser } from './harness/browser';
import { WorkbenchPage } from './pages/WorkbenchPage';

const run = promisify(execFile);
const browser = useBrowser();

async function openWorkbench(page: Page): Promise<WorkbenchPage> {
  await page.setViewportSize({ width: 1440, height: 1000 });
  const workbench = new WorkbenchPage(page, inject('workbenchUrl'));
  await workbench.open();
  await workbench.editor.waitReady();
  return workbench;
}

describe('rubric tools', () => {
  it('shows three explained warnings with fixes for numeric levels, an unused field and a missing field', async () => {
    const page = browser.page();
    const { editor, tools } = await openWorkbench(page);
    await page.getByTestId('workbench.stateMode').getByRole('radio', { name: 'JSON fields' }).check();
    await editor.replaceText('state', JSON.stringify(NEW_USER_RUBRIC.state, null, 2));
    await editor.replaceText('questions', JSON.stringify(NEW_USER_RUBRIC.questions, null, 2));

    // Marked in the editors: the unused field on its state line, the other two on their question lines (the caret
    // goes to the top first: Monaco draws only the lines in view).
    await editor.goTo('questions', 1);
    await editor.waitMarker('state', 4, 'warning');
    await editor.waitMarker('questions', 4, 'warning');
    await editor.waitMarker('questions', 9, 'warning');
    await tools.problemsSummary.filter({ hasText: '3 warnings' }).waitFor();
    await tools.openProblems();
    expect(await tools.findingList()).toEqual([
      { rule: 'state/unused-field', severity: 'warning', fix: 'Remove "internal_ticket" from the state' },
      { rule: 'state/missing-field', severity: 'warning', fix: 'Add "tier" to the state (null)' },
      {
        rule: 'score/numeric-level',
        severity: 'warning',
        fix: expect.stringMatching(/\S/) as unknown as string,
      },
    ]);
    expect(await tools.explain('state/unused-field')).toContain('billed as input');
    expect(await tools.explain('state/missing-field')).toContain('points the model at nothing');
    expect(await tools.explain('score/numeric-level')).toContain('descriptive phrases');

    // A fix rewrites the editor's text; the finding and its marker go.
    await tools.fix('score/numeric-level');
    await tools.problemsSummary.filter({ hasText: '2 warnings' }).waitFor();
    // Fold the list again to give the editors their room back, then read the levels from the top.
    await tools.problemsSummary.click();
    await editor.goTo('questions', 1);
    const levels = (await editor.visibleLines('questions')).join('\n');
    expect(levels).not.toMatch(/"1",|"2",|"3"\s*$/m);
    expect(await editor.markerLines('questions', 'warning')).toEqual([4]);
    expect(browser.pageErrors()).toEqual([]);
  });

  it('moves the token count as the user types, and the count is what the service bills', async () => {
    const page = browser.page();
    const { editor, tools, answers } = await openWorkbench(page);
    await tools.costTotal.waitFor();
    const start = await tools.tokens();
    expect(start).toBeGreaterThan(0);

    await editor.focus('state');
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(' My account is locked as well.', { delay: 15 });
    const typed = await tools.waitTokensChange(start);
    expect(typed).toBeGreaterThan(start);
    await page.keyboard.type(' Nobody has answered my three emails since Monday.', { delay: 15 });
    const more = await tools.waitTokensChange(typed);
    expect(more).toBeGreaterThan(typed);

    await editor.run.click();
    await answers.waitAnswered();
    expect(Number((await answers.fact('tokens')).replace(/,/g, ''))).toBe(await tools.tokens());
  });

  describe('the copied curl command', () => {
    let reference: RunningReference;
    beforeAll(async () => {
      reference = await serveReference({ port: 0 });
    });
    afterAll(() => reference?.close());

    it('runs against the local reference and returns the answers of the request on screen', async () => {
      const page = browser.page();
      await browser.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      const { tools } = await openWorkbench(page);
      const copied = await tools.copyCode('curl');
      expect(await tools.code.textContent()).toBe(copied);
      expect(copied).toContain("'http://127.0.0.1:8787/v1/evaluate'");
      expect(copied).not.toContain(DEFAULT_API_KEY);

      // The command as copied; only the port changes, to this test's own reference (8787 may be taken here).
      const command = copied.replace('http://127.0.0.1:8787', reference.url);
      const { stdout } = await run('bash', ['-c', command], {
        env: { ...process.env, EVAL_API_KEY: DEFAULT_API_KEY },
      });
      const response = EvaluateResponseSchema.parse(JSON.parse(stdout));
      expect(Object.keys(response.answers)).toEqual(Object.keys(EXAMPLE_REQUEST.questions));
      expect(response.model).toBe('model-1.13.0');
    });
  });

  it('resolves a 600-label taxonomy to one label with its path, and keeps the pasted labels after a reload', async () => {
    const page = browser.page();
    const { editor, tools } = await openWorkbench(page);
    const sessions = new SessionsArea(page);
    await editor.replaceText(
      'state',
      'The copper lantern I bought last week arrived dented and the glass is cracked.',
    );
    await editor.model.fill('model-1.13.0');
    await tools.openTaxonomy();
    await tools.taxonomyInput.fill(taxonomyLabels().join('\n'));
    await tools.taxonomyInstructions.fill('Which product is the customer writing about?');
    await tools.taxonomySummary.filter({ hasText: '600 labels read as a list' }).waitFor();
    expect(await tools.taxonomySummary.textContent()).toContain(
      'chooses among 24 groups; a run takes at most 2 requests',
    );

    await tools.taxonomyRun.click();
    await tools.taxonomyLabel.waitFor();
    expect(await tools.taxonomyLabel.textContent()).toBe('Copper lantern');
    const steps = await tools.taxonomySteps.evaluateAll((els) =>
      els.map((e) => (e as HTMLElement).dataset.choice),
    );
    expect(steps).toEqual(['Copper', 'Copper lantern']);
    expect(await tools.taxonomyCost.textContent()).toMatch(
      /^2 requests · [\d,]+ input tokens · ≈ \$0\.\d+ · model model-1\.13\.0$/,
    );
    expect(await tools.taxonomyFinal.getByTestId('answers.choice').textContent()).toBe('Copper lantern');

    // The pasted labels and instructions are the session's: saved, and back after a reload.
    await sessions.waitSaved();
    await page.reload();
    await sessions.waitReady();
    await tools.openTaxonomy();
    expect(await tools.taxonomyInput.inputValue()).toBe(taxonomyLabels().join('\n'));
    expect(await tools.taxonomyInstructions.inputValue()).toBe(
      'Which product is the customer writing about?',
    );
    expect(browser.pageErrors()).toEqual([]);
  });

  it('rewrites a pasted gateway request to the direct form in one click, and it runs', async () => {
    const page = browser.page();
    const { editor, tools, answers } = await openWorkbench(page);
    const gateway = {
      model: 'vendor/model-1.13.0',
      state: 'Refund me now, this is the third time I ask!',
      stream: false,
      questions: { is_urgent: { type: 'boolean', instructions: 'Is this urgent?' } },
    };
    await editor.replaceText('questions', JSON.stringify(gateway, null, 2));
    await tools.gatewayOffer.waitFor();
    expect(await tools.gatewayOffer.getByRole('listitem').allTextContents()).toEqual([
      'The model "vendor/model-1.13.0" is a gateway id; the direct service calls it "model-1.13.0".',
      'Question "is_urgent" uses the gateway type "boolean"; the direct service calls it "noul".',
      'The field "stream" is not part of a direct request (only state, model, questions); it was dropped.',
    ]);
    await tools.gatewayOffer.getByRole('button', { name: 'Rewrite to the direct form' }).click();
    await tools.gatewayOffer.waitFor({ state: 'detached' });
    expect(await editor.model.inputValue()).toBe('model-1.13.0');
    expect((await editor.visibleLines('state'))[0]).toBe(gateway.state);
    await editor.run.click();
    await answers.waitAnswered();
    expect(await answers.cardList()).toEqual([{ name: 'is_urgent', kind: 'noul' }]);
  });
});
