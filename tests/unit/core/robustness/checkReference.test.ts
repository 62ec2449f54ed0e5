// A whole check in Node through the rows runner and the real client, over loopback HTTP to the real reference: with
// the order bias on, the position bias is named on the choice question and the bill is the budget; off, stable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Questions } from '../../../../src/contract';
import { estimateCost } from '../../../../src/contract';
import { abortableSleep, evaluate } from '../../../../src/client';
import { buildReport, planBudget, planCheck } from '../../../../src/core/robustness/check';
import type { CheckPlan, RowAnswer } from '../../../../src/core/robustness/check';
import { defaultOrderCount } from '../../../../src/core/robustness/orders';
import { defaultSettings } from '../../../../src/core/robustness/plan';
import { DEFAULT_PACING } from '../../../../src/core/rows/pacer';
import { RowRunner } from '../../../../src/core/rows/runner';
import { questionTokens, stateTokens } from '../../../../src/contract/tokens';
import { referenceOptionsFromEnv } from '../../../../src/server/reference/options';
import type { RunningReference } from '../../../../src/server/reference/serve';
import { MemoryStore } from '../rows/memoryStore';
import { KEY, start } from '../../server/reference/http';

const questions: Questions = {
  department: {
    type: 'choice',
    instructions: 'Which team should handle this?',
    criteria: { billing: 'Payments and refunds', technical: 'Bugs and integrations', other: null },
  },
  frustration: {
    type: 'score',
    instructions: 'How frustrated is the customer?',
    criteria: ['Calm, just stating facts', 'Frustrated but civil', 'Angry or threatening to leave'],
  },
};
const clock = { now: () => Date.now(), sleep: abortableSleep };

const servers: RunningReference[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function check(env: Record<string, string>, model = 'model-1.13.0', store = new MemoryStore()) {
  let server = servers.find((s) => (s as unknown as { env?: string }).env === JSON.stringify(env));
  if (!server) {
    server = await start(referenceOptionsFromEnv(env));
    (server as unknown as { env: string }).env = JSON.stringify(env);
    servers.push(server);
  }
  const plan: CheckPlan = planCheck(
    [{ state: 'Help! My payouts have been failing for 3 days.', label: 'state' }],
    questions,
    defaultSettings(defaultOrderCount(questions)),
    { stateTokens, questionTokens },
  );
  const runner = new RowRunner(
    {
      targetId: 'local',
      target: { baseUrl: server.url, headers: { Authorization: `Bearer ${KEY}` } },
      model,
      questions,
      rows: plan.rows,
      pacing: DEFAULT_PACING,
      maxCost: null,
    },
    { evaluate, clock, store },
  );
  const answers = new Map<number, RowAnswer>();
  runner.subscribe((u) => {
    if (u.answer)
      answers.set(u.number, { response: u.answer.response, reused: u.outcome.status === 'reused' });
  });
  const progress = await runner.run();
  const budget = planBudget(plan, new Set());
  const report = buildReport(plan, answers, {
    id: 'r',
    at: new Date().toISOString(),
    targetId: 'local',
    model,
    source: { kind: 'state' },
    estimatedCost: budget.cost,
  });
  return { plan, progress, budget, report, store };
}

let biasedServer: Awaited<ReturnType<typeof check>>;
beforeAll(async () => {
  biasedServer = await check({ REFERENCE_ORDER_BIAS: 'first=1.5' });
});

describe('a check against the reference', () => {
  it('with the order bias on: names the position bias and bills exactly its budget', () => {
    const { report, budget, progress } = biasedServer;
    const dept = report.cards.find((c) => c.question === 'department')!;
    expect(dept.order!.positionBias).toBe('first');
    expect(dept.verdict).toBe('moves_with_order');
    // Score levels are never reordered, so the bias has nothing to act on there.
    expect(report.cards.find((c) => c.question === 'frustration')!.order).toBeUndefined();
    expect(progress.done).toBe(report.requests);
    expect(report.billedTokens).toBe(budget.tokens);
    expect(estimateCost(report.billedTokens)).toBe(budget.cost);
    expect(report.identicalAnswers).toBe(true);
  });

  it('with nothing on: every question reads as stable', async () => {
    const { report } = await check({});
    for (const card of report.cards) expect([card.question, card.verdict]).toEqual([card.question, 'stable']);
    expect(report.identicalAnswers).toBe(true);
  });

  it('with noise on: calls the answers noisy and says identical requests differ', async () => {
    const { report } = await check({ REFERENCE_NOISE: '0.6', REFERENCE_SEED: '3' });
    expect(report.identicalAnswers).toBe(false);
    expect(report.cards.find((c) => c.question === 'frustration')!.verdict).toBe('noisy');
  });

  it('run again on a pinned model, answers every request from storage at no cost', async () => {
    const again = await check({ REFERENCE_ORDER_BIAS: 'first=1.5' }, 'model-1.13.0', biasedServer.store);
    expect(again.progress.reused).toBe(again.report.requests);
    expect(again.report.billedTokens).toBe(0);
    expect(again.report.cards).toEqual(biasedServer.report.cards);
  });
});
