// Comparing pinned versions as a user would: two versions side by side on the local target, the differences read off
// the page and checked against the metrics computed from the two responses the page received, then a reload.
import type { Page, Response } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { EvaluateRequest, EvaluateResponse } from '../../src/contract';
import { EvaluateRequestSchema, EvaluateResponseSchema } from '../../src/contract';
import { compareColumns } from '../../src/core/compare';
import { choiceMetrics, noulMetrics, scoreMetrics } from '../../src/core/metrics';
import { formatDistance, formatSigned } from '../../src/app/features/compare/format';
import { useBrowser } from './harness/browser';
import { CompareArea } from './pages/CompareArea';
import { SessionsArea } from './pages/SessionsArea';

const browser = useBrowser();

/** Every evaluation the page sends and receives, by the model it asked for. */
function evaluationLog(page: Page): {
  byModel: Map<string, { request: EvaluateRequest; response: EvaluateResponse }>;
  count: () => number;
} {
  const byModel = new Map<string, { request: EvaluateRequest; response: EvaluateResponse }>();
  let count = 0;
  page.on('response', (response: Response) => {
    const sent = response.request();
    if (
      sent.method() !== 'POST' ||
      !/\/api\/targets\/[^/]+\/v1\/evaluate$/.test(new URL(response.url()).pathname)
    )
      return;
    count += 1;
    const request = EvaluateRequestSchema.parse(sent.postDataJSON());
    void response
      .json()
      .then((body: unknown) =>
        byModel.set(request.model, { request, response: EvaluateResponseSchema.parse(body) }),
      );
  });
  return { byModel, count: () => count };
}

describe('compare mode', () => {
  it('compares model-1.12.0 with model-1.14.0 on the local target, with the metrics of the two responses, after a reload too', async () => {
    const page = browser.page();
    const log = evaluationLog(page);
    await page.goto(inject('workbenchUrl'));
    const sessions = new SessionsArea(page);
    await sessions.waitReady();

    const compare = new CompareArea(page);
    await compare.open();
    await compare.setModel(0, 'model-1.12.0');
    await compare.setModel(1, 'model-1.14.0');
    expect(await compare.column(0).getByTestId('compare.target').inputValue()).toBe('local');
    expect(await compare.column(1).getByTestId('compare.target').inputValue()).toBe('local');

    await compare.runAll.click();
    await compare.waitPhase(0, 'answered');
    await compare.waitPhase(1, 'answered');
    await expect.poll(() => log.byModel.size).toBe(2);
    const { request: baseRequest, response: base } = log.byModel.get('model-1.12.0')!;
    const { request: otherRequest, response: other } = log.byModel.get('model-1.14.0')!;
    // Each column's status names the version that answered.
    expect(await compare.column(0).getByTestId('compare.columnStatus').textContent()).toContain(
      'model-1.12.0',
    );
    expect(await compare.column(1).getByTestId('compare.columnStatus').textContent()).toContain(
      'model-1.14.0',
    );

    /** What the page must show: the core's comparison of the two responses the page received. */
    const expected = compareColumns(
      [
        { id: 'a', request: baseRequest, response: base },
        { id: 'b', request: otherRequest, response: other },
      ],
      await compare.threshold.inputValue().then(Number),
    );
    // Questions come from the requests; the responses answer the same names.
    const names = await compare.questionNames();
    expect(names.sort()).toEqual(Object.keys(base.answers).sort());

    const checkShown = async (): Promise<void> => {
      for (const name of names) {
        const shown = await compare.metrics(name, 1);
        const baseAnswer = base.answers[name]!;
        const otherAnswer = other.answers[name]!;
        if (baseAnswer.type === 'choice' && otherAnswer.type === 'choice') {
          const m = choiceMetrics(baseAnswer, otherAnswer);
          expect(shown.tvd).toBe(formatDistance(m.totalVariation));
          expect(shown.jsd).toBe(formatDistance(m.jensenShannon));
          expect(shown.topChoice?.agrees).toBe(m.topChoiceAgrees);
        } else if (baseAnswer.type === 'score' && otherAnswer.type === 'score') {
          const m = scoreMetrics(baseAnswer, otherAnswer);
          expect(shown.scoreDelta).toBe(formatSigned(m.scoreDifference));
          expect(shown.tvd).toBe(formatDistance(m.totalVariation));
        } else if (baseAnswer.type === 'noul' && otherAnswer.type === 'noul') {
          expect(shown.yesDelta).toBe(formatSigned(noulMetrics(baseAnswer, otherAnswer).yesDifference));
        } else {
          throw new Error(`"${name}" was answered with different types`);
        }
      }
    };
    await checkShown();
    const flagged = expected.questions.filter((q) => q.flagged).map((q) => q.name);
    expect((await compare.flaggedNames()).sort()).toEqual([...flagged].sort());

    // Sorted by disagreement, largest first.
    await compare.sort.selectOption('disagreement');
    const byDisagreement = [...expected.questions]
      .sort((a, b) => (b.disagreement ?? -1) - (a.disagreement ?? -1) || a.index - b.index)
      .map((q) => q.name);
    expect(await compare.questionNames()).toEqual(byDisagreement);

    // A threshold of 0 flags every question the versions answer differently at all.
    await compare.setThreshold(0);
    const differing = expected.questions.filter((q) => (q.disagreement ?? 0) > 0).map((q) => q.name);
    expect((await compare.flaggedNames()).sort()).toEqual([...differing].sort());

    await sessions.waitSaved();
    const requestsBeforeReload = log.count();
    await page.reload();
    await sessions.waitReady();
    await compare.open();
    expect(await compare.modelOf(0)).toBe('model-1.12.0');
    expect(await compare.modelOf(1)).toBe('model-1.14.0');
    await compare.waitPhase(0, 'answered');
    await compare.waitPhase(1, 'answered');
    expect(await compare.threshold.inputValue()).toBe('0');
    await checkShown();
    expect((await compare.flaggedNames()).sort()).toEqual([...differing].sort());
    // The saved answers are shown as they were: nothing was sent again.
    expect(log.count()).toBe(requestsBeforeReload);
    expect(browser.pageErrors()).toEqual([]);
  });

  it('pins an alias column to the version its last answer came from, in one click', async () => {
    const page = browser.page();
    await page.goto(inject('workbenchUrl'));
    await new SessionsArea(page).waitReady();
    const compare = new CompareArea(page);
    await compare.open();
    await compare.setModel(1, 'model-preview');
    const alias = compare.column(1);
    expect(await alias.getByTestId('compare.aliasNotice').textContent()).toContain(
      'model-preview is an alias',
    );
    await alias.getByRole('button', { name: 'Run Column 2' }).click();
    await compare.waitPhase(1, 'answered');
    await alias.getByTestId('compare.pin').click();
    expect(await compare.modelOf(1)).toBe('model-1.14.0');
    expect(await alias.getByTestId('compare.aliasNotice').count()).toBe(0);
    // The answer it already has came from exactly that version, so it stays.
    expect(await alias.getAttribute('data-phase')).toBe('answered');
    expect(browser.pageErrors()).toEqual([]);
  });
});
