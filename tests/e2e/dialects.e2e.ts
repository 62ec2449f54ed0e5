// Servers of both dialects side by side, through the proxy, as a user meets them: a /v1/systemone target and a
// Decisions-dialect target compared on one rubric with confidences computed the same way, a refusal on its card, a
// 400 from a Decisions server on the right editor line, a target's own question limit before sending, and a quota
// stop read as a plain sentence. The servers are stand-ins (tests/helpers/standins, docs/dialects.md).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvaluateResponseSchema, choiceConfidence, scoreConfidence } from '../../src/contract';
import type { EvaluateResponse } from '../../src/contract';
import { serveCloudflareStandin } from '../helpers/standins/cloudflareServer';
import { serveDecisionsStandin } from '../helpers/standins/decisionsServer';
import { listenStandin, readBody, referenceBackend } from '../helpers/standins/dialectListen';
import type { RunningStandin } from '../helpers/standins/dialectListen';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { CompareArea } from './pages/CompareArea';
import { WorkbenchPage } from './pages/WorkbenchPage';

const KEY = `dialects-${Math.random().toString(36).slice(2)}`;
let systemone: RunningStandin;
let luna: RunningStandin;
let clef: RunningStandin;
// A Cloudflare server with allowance left, on a target set with no model list (`"modelsPath": null`).
let clefOpen: RunningStandin;
// Two workbenches: the direct and gateway targets are the ones the environment can describe (EVAL_*).
let twoDialects: WorkbenchProcess;
let cloudflare: WorkbenchProcess;

/** A server of the interface's own form on /v1/systemone (TypeSafe's route), answered by the reference judge. */
async function serveSystemOne(): Promise<RunningStandin> {
  const judge = referenceBackend();
  const received: unknown[] = [];
  const app = new Hono();
  app.post('/v1/systemone', async (c) => {
    if (c.req.header('authorization') !== `Bearer ${KEY}`)
      return c.json({ detail: 'Not authenticated' }, 401);
    const { json } = await readBody(c.req.raw);
    received.push(json);
    const reply = await judge(json);
    return c.json(reply.json as object, reply.status as 200);
  });
  return listenStandin(app, received);
}

beforeAll(async () => {
  systemone = await serveSystemOne();
  // A LiteLLM proxy's /v1/decisions: `model` is the proxy's own alias for the deployment (docs/dialects.md).
  luna = await serveDecisionsStandin({
    apiKey: KEY,
    models: { 'model-1.13.0': 'model-1.13.0' },
    refuse: /password/i,
    costHeaderPricePerMillion: 0.1,
    maxChoices: 208,
  });
  clef = await serveCloudflareStandin({ apiKey: KEY, dailyAllocation: 0 });
  clefOpen = await serveCloudflareStandin({ apiKey: KEY });
  const targetsFile = join(mkdtempSync(join(tmpdir(), 'dialects-targets-')), 'workbench.targets.json');
  writeFileSync(
    targetsFile,
    JSON.stringify({
      targets: [
        {
          id: 'clef',
          label: 'Clef on Cloudflare',
          preset: 'custom',
          baseUrl: clefOpen.url,
          evaluatePath: '/client/v4/accounts/acct/ai/run/@cf/cloudflare',
          modelsPath: null,
          envelope: 'cloudflare',
          modelInPath: true,
          keyVar: 'CLEF_TEST_KEY',
          limits: { questions: 64 },
        },
      ],
    }),
  );
  [twoDialects, cloudflare] = await Promise.all([
    startWorkbenchProcess({
      EVAL_BASE_URL: systemone.url,
      EVAL_API_KEY: KEY,
      EVAL_EVALUATE_PATH: '/v1/systemone',
      EVAL_GATEWAY_URL: luna.url,
      EVAL_GATEWAY_KEY: KEY,
      EVAL_GATEWAY_EVALUATE_PATH: '/v1/decisions',
      EVAL_GATEWAY_DIALECT: 'decisions',
    }),
    startWorkbenchProcess({
      EVAL_BASE_URL: clef.url,
      EVAL_API_KEY: KEY,
      EVAL_EVALUATE_PATH: '/client/v4/accounts/acct/ai/run/@cf/cloudflare/{model}',
      EVAL_ENVELOPE: 'cloudflare',
      EVAL_MODEL_IN_PATH: 'true',
      EVAL_LIMITS: 'questions=64',
      WORKBENCH_TARGETS_FILE: targetsFile,
      CLEF_TEST_KEY: KEY,
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([twoDialects?.stop(), cloudflare?.stop()]);
  await Promise.all([systemone?.close(), luna?.close(), clef?.close(), clefOpen?.close()]);
});

const browser = useBrowser();

/** The interface responses the page received, by target id. */
function responsesByTarget(page: Page): Map<string, EvaluateResponse> {
  const seen = new Map<string, EvaluateResponse>();
  page.on('response', (response: Response) => {
    const match = /\/api\/targets\/([^/]+)\/v1\/evaluate$/.exec(new URL(response.url()).pathname);
    if (!match || response.status() !== 200) return;
    void response.json().then((body: unknown) => seen.set(match[1]!, EvaluateResponseSchema.parse(body)));
  });
  return seen;
}

const RUBRIC = {
  is_urgent: {
    type: 'noul',
    instructions: 'Does this convey urgency?',
    criteria: { true: 'Explicitly time-sensitive', false: 'No urgency expressed' },
  },
  department: {
    type: 'choice',
    instructions: 'Which team should handle this?',
    criteria: { billing: 'Payments, payouts and refunds', technical: 'Bugs and integrations', other: null },
  },
  frustration: {
    type: 'score',
    instructions: 'How frustrated is the customer?',
    criteria: ['Calm, just stating facts', 'Frustrated but civil', 'Angry or threatening to leave'],
  },
};

/** Replaces the questions editor's text; clicks its first line, which is always inside the visible editor. */
async function replaceQuestions(workbench: WorkbenchPage, text: string): Promise<void> {
  await workbench.editor.monaco('questions').locator('.view-line').first().click();
  await workbench.page.keyboard.press('ControlOrMeta+A');
  await workbench.page.keyboard.press('Delete');
  await workbench.editor.paste(text);
}

/** Opens the workbench on a target with the given questions, then types the model (the picker keeps the focus). */
async function openOn(
  server: WorkbenchProcess,
  page: Page,
  target: string,
  model: string,
  questions: string,
): Promise<WorkbenchPage> {
  const workbench = new WorkbenchPage(page, server.url);
  await workbench.open();
  // Chosen at once, before the first session exists: the user's choice wins over the first target with a key.
  await workbench.shell.selectTarget(target);
  await workbench.editor.waitReady();
  await replaceQuestions(workbench, questions);
  await workbench.editor.model.fill(model);
  await workbench.editor.model.press('Tab');
  return workbench;
}

describe('two dialects through the proxy', () => {
  it('compares a /v1/systemone target with a Decisions target on one rubric, confidences computed the same way', async () => {
    const page = browser.page();
    const received = responsesByTarget(page);
    await openOn(twoDialects, page, 'direct', 'model-1.13.0', JSON.stringify(RUBRIC, null, 2));
    const compare = new CompareArea(page);
    await compare.open();
    await compare.setColumn(0, 'direct', 'model-1.13.0');
    await compare.setColumn(1, 'gateway', 'model-1.13.0');
    await compare.runAll.click();
    await compare.waitPhase(0, 'answered');
    await compare.waitPhase(1, 'answered');
    await expect.poll(() => received.size).toBe(2);
    expect((await compare.questionNames()).sort()).toEqual(Object.keys(RUBRIC).sort());

    const s1 = received.get('direct')!;
    const decisions = received.get('gateway')!;
    // The Decisions server got its own form; the page read both in the interface's.
    const sent = luna.received.at(-1) as { input: unknown; questions: { type: string; name: string }[] };
    expect(sent.questions.map((q) => `${q.type}:${q.name}`)).toEqual([
      'choice:is_urgent',
      'choice:department',
      'score:frustration',
    ]);
    expect(decisions.model).toBe('model-1.13.0');
    expect(decisions.requested_model).toBe('model-1.13.0');
    for (const response of [s1, decisions]) {
      for (const answer of Object.values(response.answers)) {
        if (answer.type === 'choice') {
          const p = Object.values(answer.probabilities);
          expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
          expect(answer.confidence).toBeCloseTo(choiceConfidence(p), 12);
        }
        if (answer.type === 'score') {
          const p = ['0', '1', '2'].map((k) => answer.probabilities[k]!);
          expect(answer.confidence).toBeCloseTo(scoreConfidence(p), 12);
          expect(answer.score).toBeCloseTo(p[1]! + 2 * p[2]!, 12);
        }
      }
    }
    // The same judge behind both: the same choice, now on the same footing.
    const a = s1.answers.department!;
    const b = decisions.answers.department!;
    if (a.type !== 'choice' || b.type !== 'choice') throw new Error('choices expected');
    expect(b.choice).toBe(a.choice);
    expect(b.confidence).toBeCloseTo(a.confidence, 2);
  });

  it('shows a refused question as a refusal on its card, never as a probability, and the cost the server reported', async () => {
    const page = browser.page();
    const workbench = await openOn(
      twoDialects,
      page,
      'gateway',
      'model-1.13.0',
      JSON.stringify(
        { ...RUBRIC, leak: { type: 'noul', instructions: 'Does the message contain a password?' } },
        null,
        2,
      ),
    );
    await workbench.editor.run.click();
    await workbench.answers.waitAnswered();
    const card = workbench.answers.card('leak');
    expect(await card.getAttribute('data-kind')).toBe('refusal');
    expect(await card.getByTestId('answers.refusal').textContent()).toContain(
      'declined to answer the noul question “leak”: this is a refusal, not a probability',
    );
    expect(await card.locator('.recharts-bar-rectangle').count()).toBe(0);
    expect(await workbench.answers.card('department').getAttribute('data-kind')).toBe('choice');
    expect(await workbench.answers.fact('cost')).toContain(
      'reported by the server in the x-litellm-response-cost header',
    );
  });

  it('puts a 400 validation error from a Decisions server on the right editor line', async () => {
    const page = browser.page();
    const labels = Object.fromEntries(Array.from({ length: 209 }, (_, i) => [`label_${i}`, `Label ${i}`]));
    const text = JSON.stringify(
      {
        is_urgent: RUBRIC.is_urgent,
        topic: { type: 'choice', instructions: 'Which topic?', criteria: labels },
      },
      null,
      2,
    );
    const workbench = await openOn(twoDialects, page, 'gateway', 'model-1.13.0', text);
    await workbench.editor.run.click();
    await workbench.answers.waitStatus('failed');
    expect(await workbench.answers.error.getAttribute('data-kind')).toBe('validation');
    // A 400 that is a validation error reads as a 422 does: the status, then each field with its sentence, once.
    expect(await workbench.answers.error.locator('.run-error__status').textContent()).toBe('400');
    expect(await workbench.answers.error.getByTestId('answers.fieldErrors').textContent()).toContain(
      'questions.topic.criteria: Provide between 2 and 208 choices',
    );
    const lines = text.split('\n');
    const topic = lines.findIndex((l) => l.includes('"topic"'));
    const line = lines.findIndex((l, i) => i > topic && l.trim().startsWith('"criteria"')) + 1;
    // The error names the field; following it brings the line into view, marked.
    await workbench.answers.error.getByRole('button', { name: 'questions.topic.criteria' }).click();
    await workbench.editor.waitMarker('questions', line);
  });

  it('flags 65 questions for a 64-question target before sending, and reads a quota stop as a plain sentence', async () => {
    const page = browser.page();
    const many = Object.fromEntries(
      Array.from({ length: 65 }, (_, i) => [
        `q${i}`,
        { type: 'noul', instructions: `Is point ${i} raised?` },
      ]),
    );
    const workbench = await openOn(cloudflare, page, 'direct', 'clef', JSON.stringify(many, null, 2));
    await workbench.editor.expandProblems();
    await expect
      .poll(() => workbench.editor.problemTexts().then((t) => t.join('\n')))
      .toContain(
        `Evaluation Service (${new URL(clef.url).host}) takes at most 64 questions per request; this one has 65.`,
      );
    const before = clef.received.length;
    await workbench.editor.run.click();
    expect(await workbench.editor.refused.isVisible()).toBe(true);
    expect(clef.received.length).toBe(before);

    await replaceQuestions(workbench, JSON.stringify(RUBRIC, null, 2));
    await workbench.editor.run.click();
    // Before issue 11's model rules, an id such as "clef" is not recognised: the user sends it anyway.
    if (await workbench.editor.sendAnyway.isVisible()) await workbench.editor.sendAnyway.click();
    await workbench.answers.waitStatus('failed');
    expect(await workbench.answers.error.getAttribute('data-kind')).toBe('quota');
    const said = (await workbench.answers.error.textContent()) ?? '';
    expect(said).toContain(
      "The target's quota is used up (429, code 4006: you have used up your daily free allocation of 10,000 neurons",
    );
    expect(said).toContain('so nothing more is sent');
    // One attempt: a quota that will not reset soon is not retried.
    expect(await workbench.answers.attempts.count()).toBe(1);
    expect(clef.received.length).toBe(before + 1);
  });

  it('shows a Decisions refusal in its compare column and counts it apart, never as a disagreement (issue 29 item 1)', async () => {
    const page = browser.page();
    const withLeak = {
      ...RUBRIC,
      leak: { type: 'noul', instructions: 'Does the message contain a password?' },
    };
    await openOn(twoDialects, page, 'direct', 'model-1.13.0', JSON.stringify(withLeak, null, 2));
    const compare = new CompareArea(page);
    await compare.open();
    await compare.setColumn(0, 'direct', 'model-1.13.0');
    await compare.setColumn(1, 'gateway', 'model-1.13.0');
    await compare.runAll.click();
    await compare.waitPhase(0, 'answered');
    await compare.waitPhase(1, 'answered');
    const leak = compare.question('leak');
    const refusedCell = leak.locator('[data-testid="compare.cell"][data-column-index="1"]');
    // The refusal is the column's answer: its card, not "No answer to this question".
    await refusedCell.getByTestId('answers.refusal').waitFor();
    expect(await refusedCell.textContent()).not.toContain('No answer to this question');
    expect(await leak.getAttribute('data-flagged')).toBe('false');
    expect(await leak.getByTestId('compare.disagreement').textContent()).toBe(
      'Refused by model-1.13.0 on gateway: a refusal has no probabilities, so no disagreement is measured against it.',
    );
    expect(await page.getByTestId('compare.refusals').textContent()).toContain(
      'model-1.13.0 on gateway refused 1 question',
    );
    // The other questions still compare as numbers.
    expect(await compare.question('department').getAttribute('data-disagreement')).not.toBe('');
  });

  it("never shows another target's answer as a failed target's last good one (issue 29 item 2)", async () => {
    const page = browser.page();
    const workbench = await openOn(
      cloudflare,
      page,
      'local',
      'model-latest',
      JSON.stringify(RUBRIC, null, 2),
    );
    await workbench.editor.run.click();
    await workbench.answers.waitAnswered();
    await workbench.shell.selectTarget('direct');
    await workbench.editor.model.fill('clef');
    await workbench.editor.model.press('Tab');
    await workbench.editor.run.click();
    if (await workbench.editor.sendAnyway.isVisible()) await workbench.editor.sendAnyway.click();
    await workbench.answers.waitStatus('failed');
    expect(await workbench.answers.error.getAttribute('data-kind')).toBe('quota');
    // Nothing of local's answer (its cards, its model, its cost) stands under the failing target's name.
    expect(await page.getByTestId('answers.lastAttempt').count()).toBe(0);
    expect(await workbench.answers.cards.count()).toBe(0);
    expect(await workbench.answers.summary.count()).toBe(0);
  });
});

describe('a Cloudflare target with no model list', () => {
  it('says once that the server lists no models, and runs the typed id without alarm', async () => {
    const page = browser.page();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    const workbench = await openOn(cloudflare, page, 'clef', 'clef', JSON.stringify(RUBRIC, null, 2));
    await workbench.shell.modelsUnlisted.waitFor();
    expect(await workbench.shell.modelsUnlisted.textContent()).toBe(
      'This server lists no models: type the model id its documentation gives.',
    );
    expect(await workbench.shell.modelsError.count()).toBe(0);
    // The typed id is what the server runs: no "unknown" tag, no problem under the field.
    expect(await workbench.editor.modelKind.count()).toBe(0);
    expect(await workbench.editor.modelProblem.count()).toBe(0);
    const before = clefOpen.received.length;
    await workbench.editor.run.click();
    await workbench.answers.waitAnswered();
    expect(clefOpen.received.length).toBe(before + 1);
    expect(asked).not.toContain('/api/targets/clef/v1/models');
  });

  it("names a field its server refuses as the editor does, without the envelope's body. prefix, on its line", async () => {
    const page = browser.page();
    const questions = {
      is_urgent: RUBRIC.is_urgent,
      'how frustrated': { ...RUBRIC.frustration, instructions: '' },
    };
    const text = JSON.stringify(questions, null, 2);
    const workbench = await openOn(cloudflare, page, 'clef', 'clef', text);
    await workbench.editor.run.click();
    await workbench.answers.waitStatus('failed');
    expect(await workbench.answers.error.getAttribute('data-kind')).toBe('validation');
    const fields = (await workbench.answers.error.getByTestId('answers.fieldErrors').textContent()) ?? '';
    expect(fields).toContain(
      'questions.how frustrated.instructions: String should have at least 1 character',
    );
    expect(fields).not.toContain('body.');
    expect(await workbench.answers.error.textContent()).not.toContain('body.');
    const lines = text.split('\n');
    const question = lines.findIndex((l) => l.includes('"how frustrated"'));
    const line = lines.findIndex((l, i) => i > question && l.trim().startsWith('"instructions"')) + 1;
    await workbench.answers.error
      .getByRole('button', { name: 'questions.how frustrated.instructions' })
      .click();
    await workbench.editor.waitMarker('questions', line);
  });
});
