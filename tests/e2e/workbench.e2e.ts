// The main screen as a new user meets it, with no key: the example runs with Ctrl+Enter, a question typed with a
// snippet runs from inside the editor, every chart shows the numbers the service sent, a mistake is flagged before
// sending and the service's 422 lands on its line, and a slow run is cancelled at once.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EvaluateResponseSchema } from '../../src/contract';
import type { EvaluateRequest, EvaluateResponse } from '../../src/contract';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { WorkbenchPage } from './pages/WorkbenchPage';

const browser = useBrowser();

/** Opens the workbench on a laptop-sized window, tall enough for the editors to show a whole short document. */
async function openWorkbench(page: Page, url: string): Promise<WorkbenchPage> {
  await page.setViewportSize({ width: 1440, height: 1000 });
  const workbench = new WorkbenchPage(page, url);
  await workbench.open();
  return workbench;
}

interface Exchange {
  status: number;
  request: EvaluateRequest;
  body: unknown;
}

/** Every evaluate call the page makes, with the body it sent and what came back. */
function evaluateLog(page: Page): Exchange[] {
  const log: Exchange[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (
      request.method() !== 'POST' ||
      !/\/api\/targets\/[^/]+\/v1\/evaluate$/.test(new URL(response.url()).pathname)
    )
      return;
    void response
      .json()
      .then((body: unknown) =>
        log.push({ status: response.status(), request: request.postDataJSON() as EvaluateRequest, body }),
      );
  });
  return log;
}

async function lastExchange(page: Page, log: Exchange[], count: number): Promise<Exchange> {
  await page.waitForFunction(() => true); // let pending response callbacks run
  for (let i = 0; i < 50 && log.length < count; i++) await page.waitForTimeout(100);
  expect(log).toHaveLength(count);
  return log[count - 1]!;
}

const fixed2 = (x: number): string => (Math.round((x + Number.EPSILON) * 100) / 100).toFixed(2);

/** The rows each card's text table must show for a response, computed here from the raw answer. */
function expectedRows(request: EvaluateRequest, response: EvaluateResponse, name: string): string[][] {
  const answer = response.answers[name]!;
  const question = request.questions[name]!;
  if (answer.type === 'noul')
    return [
      ['yes', fixed2(answer.noul)],
      ['no', fixed2(1 - answer.noul)],
    ];
  if (answer.type === 'score') {
    return Object.keys(answer.probabilities)
      .map(Number)
      .sort((a, b) => a - b)
      .map((level) => [
        String(level),
        fixed2(answer.probabilities[String(level)]!),
        String(answer.legend[String(level)]),
      ]);
  }
  if (answer.type === 'refusal') return [];
  const written = Object.keys(question.criteria as Record<string, unknown>);
  const criteria = question.criteria as Record<string, string | null>;
  return Object.entries(answer.probabilities)
    .sort(([a, pa], [b, pb]) => pb - pa || written.indexOf(a) - written.indexOf(b))
    .map(([label, p]) => [
      label === answer.choice ? `${label} (chosen)` : label,
      fixed2(p),
      criteria[label] ?? '',
    ]);
}

describe('the main screen on the local target', () => {
  it('runs the example session with Ctrl+Enter and draws all three kinds with the numbers the service sent', async () => {
    const page = browser.page();
    const log = evaluateLog(page);
    const workbench = await openWorkbench(page, inject('workbenchUrl'));
    const { editor, answers } = workbench;
    await editor.waitReady();
    await answers.pane.getByTestId('answers.empty').click();
    await page.keyboard.press('Control+Enter');
    await answers.waitAnswered();

    const { request, body, status } = await lastExchange(page, log, 1);
    expect(status).toBe(200);
    const response = EvaluateResponseSchema.parse(body);
    expect(await answers.cardList()).toEqual([
      { name: 'is_urgent', kind: 'noul' },
      { name: 'department', kind: 'choice' },
      { name: 'frustration', kind: 'score' },
    ]);
    for (const name of ['is_urgent', 'department', 'frustration']) {
      expect(await answers.tableRows(name)).toEqual(expectedRows(request, response, name));
    }
    expect(await answers.barCount('department')).toBe(3);
    expect(await answers.barCount('frustration')).toBe(3);
    expect(await answers.barCount('is_urgent')).toBe(1);
    expect(await answers.card('frustration').locator('.recharts-reference-line').count()).toBe(1);
    expect(await answers.card('is_urgent').locator('.recharts-reference-line').count()).toBe(1);
    expect(await answers.target.textContent()).toBe('local: lexical, not a language model');
    expect(await answers.fact('resolvedModel')).toBe(`model-latest → ${response.model}`);
    expect(await answers.fact('tokens')).toBe(response.usage.input_tokens.toLocaleString('en-US'));
    // The cost says where its figure came from: here the list price, which the local reference mimics and never bills.
    expect(await answers.fact('cost')).toMatch(
      /^≈ \$0\.0+\d+ \(estimated from \d[\d,]* input tokens at the list price of \$0\.042 per million; output is free; the local reference bills nothing\)$/,
    );
    expect(browser.pageErrors()).toEqual([]);
  });

  it('inserts a question with the score snippet, names it, and runs it with Ctrl+Enter inside the editor', async () => {
    const page = browser.page();
    const log = evaluateLog(page);
    const workbench = await openWorkbench(page, inject('workbenchUrl'));
    const { editor, answers } = workbench;
    await editor.waitReady();
    await editor.replaceText('questions', '{\n  \n}');
    await editor.goTo('questions', 2, 3);
    await page.keyboard.type('score', { delay: 30 });
    await page.keyboard.press('Control+Space');
    const suggestion = page.locator('.suggest-widget .monaco-list-row').filter({ hasText: 'score question' });
    await suggestion.waitFor();
    await suggestion.click();
    // The snippet selects the name placeholder: typing replaces it, Escape leaves the snippet.
    await page.keyboard.type('politeness', { delay: 10 });
    await page.keyboard.press('Escape');
    const lines = await editor.visibleLines('questions');
    expect(JSON.parse(lines.join('\n'))).toEqual({
      politeness: {
        type: 'score',
        instructions: 'How strongly does it show the quality?',
        criteria: ['Not at all', 'Somewhat', 'Clearly and strongly'],
      },
    });

    await page.keyboard.press('Control+Enter');
    await answers.waitAnswered();
    const { request, body } = await lastExchange(page, log, 1);
    expect(Object.keys(request.questions)).toEqual(['politeness']);
    const response = EvaluateResponseSchema.parse(body);
    expect(await answers.cardList()).toEqual([{ name: 'politeness', kind: 'score' }]);
    expect(await answers.tableRows('politeness')).toEqual(expectedRows(request, response, 'politeness'));
    // The editor kept its text: Ctrl+Enter ran the request instead of inserting a line.
    expect(await editor.visibleLines('questions')).toEqual(lines);
  });

  it('flags a boolean type before sending, then shows the service 422 on the same line, and the quick fix clears it', async () => {
    const page = browser.page();
    const log = evaluateLog(page);
    const workbench = await openWorkbench(page, inject('workbenchUrl'));
    const { editor, answers } = workbench;
    await editor.waitReady();
    const questions = [
      '{',
      '  "is_urgent": {',
      '    "instructions": "Does this convey urgency?",',
      '    "type": "boolean"',
      '  },',
      '  "department": { "type": "choice", "criteria": { "billing": null, "technical": null } }',
      '}',
    ].join('\n');
    await editor.replaceText('questions', questions);

    // Before sending: the line is marked and the run is refused, with nothing sent.
    await editor.waitMarker('questions', 4);
    await editor.run.click();
    await editor.refused.waitFor();
    const before = await editor.problemTexts();
    expect(before.some((t) => t.includes('"boolean"') && t.includes('questions, line 4'))).toBe(true);
    expect(log).toHaveLength(0);

    // Sent anyway: the service answers 422 with the loc of that field, and it is marked on line 4.
    await editor.sendAnyway.click();
    await answers.waitStatus('failed');
    const exchange = await lastExchange(page, log, 1);
    expect(exchange.status).toBe(422);
    expect(await answers.error.getAttribute('data-kind')).toBe('validation');
    expect(await answers.error.textContent()).toContain('questions.is_urgent.type');
    // Said once: in the answers (the field and its sentence), and as the marker on line 4; not in the problems list.
    const fieldMessage = (await answers.error.getByTestId('answers.fieldErrors').textContent())!
      .replace(/^questions\.is_urgent\.type: /, '')
      .trim();
    expect(fieldMessage.length).toBeGreaterThan(5);
    const pageText = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
    expect(pageText.split(fieldMessage.replace(/\s+/g, ' ')).length - 1).toBe(1);
    const after = await editor.problemTexts();
    expect(after.some((t) => t.includes('service 422'))).toBe(false);
    expect(await editor.markerLines('questions')).toEqual([4]);
    expect(await editor.hoverMarker('questions', 4)).toContain('service 422');

    // The lint fix rewrites the type; the markers go and the request runs.
    await editor.problemItems.getByRole('button', { name: 'Set the type to "noul"' }).first().click();
    expect((await editor.visibleLines('questions'))[3]).toBe('    "type": "noul"');
    await editor.run.click();
    await answers.waitAnswered();
    expect(await editor.markerLines('questions')).toEqual([]);
    expect(await answers.cardList()).toEqual([
      { name: 'is_urgent', kind: 'noul' },
      { name: 'department', kind: 'choice' },
    ]);
  });

  it('completes the three type values, and state field names inside backticks in instructions', async () => {
    const page = browser.page();
    const workbench = await openWorkbench(page, inject('workbenchUrl'));
    const { editor } = workbench;
    await editor.waitReady();
    await page.getByTestId('workbench.stateMode').getByRole('radio', { name: 'JSON fields' }).check();
    await editor.replaceText('state', '{"claim": "Charged twice", "customer": "c-17", "locale": "en"}');
    await editor.replaceText(
      'questions',
      '{\n  "q": {\n    "type": "",\n    "instructions": "Is `c` clear?"\n  }\n}',
    );
    await editor.goTo('questions', 3, 14);
    expect(await editor.completions()).toEqual(['"choice"', '"noul"', '"score"']);
    await editor.goTo('questions', 4, 27);
    expect(await editor.completions()).toEqual(['claim', 'customer']);
    // A name the state lacks is flagged on its line.
    await editor.replaceText(
      'questions',
      '{\n  "q": {\n    "type": "noul",\n    "instructions": "Is `refund` asked for?"\n  }\n}',
    );
    await editor.waitMarker('questions', 4, 'warning');
    await editor.expandProblems();
    expect(
      (await editor.problemTexts()).some((t) => t.includes('`refund`') && t.includes('questions, line 4')),
    ).toBe(true);
  });

  it('malformed JSON gets a sentence with its line, blocks the run and loses nothing', async () => {
    const page = browser.page();
    const log = evaluateLog(page);
    const workbench = await openWorkbench(page, inject('workbenchUrl'));
    const { editor } = workbench;
    await editor.waitReady();
    const broken = '{\n  "a": { "type": "noul" }\n  "b": { "type": "noul" }\n}';
    await editor.replaceText('questions', broken);
    const sentence = page.getByTestId('workbench.questionsSyntax');
    await sentence.waitFor();
    expect(await sentence.textContent()).toMatch(/line 3, column 3: a comma is missing.*Nothing was lost/);
    await page.keyboard.press('Control+Enter');
    await editor.refused.waitFor();
    expect(await editor.sendAnyway.count()).toBe(0);
    expect(log).toHaveLength(0);
    expect(await editor.visibleLines('questions')).toEqual(broken.split('\n'));
  });

  it('flags a product-line model id on the picker', async () => {
    const workbench = await openWorkbench(browser.page(), inject('workbenchUrl'));
    const { editor } = workbench;
    await editor.model.fill('model-1.13');
    await editor.modelProblem.waitFor();
    expect(await editor.modelProblem.textContent()).toContain('product line');
    expect(await editor.model.getAttribute('aria-invalid')).toBe('true');
    await editor.model.fill('model-1.13.0');
    await editor.modelProblem.waitFor({ state: 'detached' });
  });

  // Bug: Tab was typed into the plain-text state editor, so a keyboard user could not leave it.
  it('lets Tab leave the plain-text state editor', async () => {
    const workbench = await openWorkbench(browser.page(), inject('workbenchUrl'));
    const { editor, page } = workbench;
    await editor.waitReady();
    await editor.focus('state');
    const inState = () =>
      page.evaluate(() => !!document.activeElement?.closest('[data-testid="editor.monaco.state"]'));
    expect(await inState()).toBe(true);
    const before = await editor.visibleLines('state');
    await page.keyboard.press('Tab');
    expect(await inState()).toBe(false);
    expect(await editor.visibleLines('state')).toEqual(before);
  });

  it('keeps the pane sizes, the questions view and the text across a reload', async () => {
    const page = browser.page();
    const workbench = await openWorkbench(page, inject('workbenchUrl'));
    const { editor } = workbench;
    await editor.waitReady();
    const questions = '{\n  "kept": { "type": "noul", "instructions": "Still here after a reload?" }\n}';
    await editor.replaceText('questions', questions);
    await editor.model.fill('model-1.12.0');
    // Resize with the keyboard, as the separator's role allows: the editors column grows.
    const columns = page.getByRole('separator', { name: 'Resize the editors and the answers' });
    const answers = page.getByTestId('answers');
    const widthBefore = (await answers.boundingBox())!.width;
    await columns.focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    const widthAfter = (await answers.boundingBox())!.width;
    expect(widthAfter).toBeLessThan(widthBefore - 20);
    await editor.questionsView('Form');
    await page.locator('[data-testid="sessions.saveStatus"][data-state="idle"]').waitFor();
    // The layout is saved a moment after the last change.
    await page.waitForTimeout(600);

    await page.reload();
    await workbench.shell.waitReady();
    await page.getByTestId('form.question').first().waitFor();
    expect(
      await page
        .getByTestId('form.question')
        .evaluateAll((qs) => qs.map((q) => (q as HTMLElement).dataset.name)),
    ).toEqual(['kept']);
    expect(await editor.model.inputValue()).toBe('model-1.12.0');
    await expect
      .poll(async () => Math.round((await answers.boundingBox())!.width))
      .toBe(Math.round(widthAfter));
    await editor.questionsView('JSON');
    await editor.waitReady();
    expect(await editor.visibleLines('questions')).toEqual(questions.split('\n'));
  });
});

describe('a slow service', () => {
  let slow: WorkbenchProcess;
  beforeAll(async () => {
    // Every local answer takes 20 s: long enough to cancel, shorter than the client's 30 s per-attempt timeout.
    slow = await startWorkbenchProcess({ REFERENCE_FAULTS: 'latency=20000' });
  });
  afterAll(async () => {
    await slow?.stop();
  });

  it('cancels a run in flight at once, says so, and keeps the editors as they were', async () => {
    const page = browser.page();
    const workbench = await openWorkbench(page, slow.url);
    const { editor, answers } = workbench;
    await editor.waitReady();
    const before = await editor.visibleLines('questions');
    const aborted: string[] = [];
    page.on('requestfailed', (request) => {
      if (request.url().endsWith('/v1/evaluate')) aborted.push(request.failure()?.errorText ?? '');
    });
    await editor.run.click();
    await answers.waitStatus('running');
    expect(await editor.runStatus.textContent()).toBe('Attempt 1 · waiting for the service…');
    await editor.cancel.click();
    await answers.waitStatus('cancelled');
    // The request itself was aborted in the browser, not left to finish unseen.
    await page.waitForFunction(() => true);
    expect(aborted).toEqual(['net::ERR_ABORTED']);
    expect(await answers.error.getAttribute('data-kind')).toBe('cancelled');
    expect(await answers.attempts.first().textContent()).toContain('cancelled');
    expect(await editor.run.isEnabled()).toBe(true);
    expect(await editor.cancel.count()).toBe(0);
    expect(await editor.visibleLines('questions')).toEqual(before);
  });
});
