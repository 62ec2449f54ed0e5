// What a variant sends, said before it runs: an alias reuses nothing (a variant with model-latest re-sent all three
// questions for all 500 rows while the panel said "only what changed is sent again"), a pinned model at the same
// target asks only the changed questions, and the version the service answered with is the one to pin.
import { describe, expect, it } from 'vitest';
import type { Questions } from '../../../../src/contract';
import { EXAMPLE_REQUEST } from '../../../../src/core/example';
import type { ResultRow } from '../../../../src/core/rows/results';
import { answeredBy, variantPlan } from '../../../../src/core/rows/variantPlan';

const questions: Questions = EXAMPLE_REQUEST.questions;
const reworded: Questions = {
  ...questions,
  department: { ...(questions['department'] as object), instructions: 'Which team?' } as Questions[string],
};
// 500 rows answered by model-1.13.0 at 120 tokens each, the last 100 not answered yet.
const rows: ResultRow[] = Array.from({ length: 500 }, (_, i) => ({
  number: i + 1,
  line: i + 2,
  id: `r${i + 1}`,
  data: { text: `row ${i}` },
  ...(i < 400
    ? {
        outcome: {
          status: 'done' as const,
          at: 1,
          attempts: 1,
          possiblyBilledAttempts: 0,
          requeues: 0,
          inputTokens: 120,
        },
        response: { model: 'model-1.13.0', answers: {}, usage: { input_tokens: 120 } },
      }
    : {}),
})) as ResultRow[];
const base = { questions, targetId: 'local', rows };

describe('a variant plan', () => {
  it('sends every row with every question for an alias, and names the version to pin', () => {
    const plan = variantPlan(base, { questions: reworded, model: 'model-latest', targetId: 'local' }, 0.5);
    expect(plan).toEqual({
      requests: 500,
      asked: Object.keys(reworded),
      tokens: 60_000,
      cost: 0.03,
      reason: 'alias',
      pinTo: 'model-1.13.0',
    });
  });

  it('asks only the changed question once pinned to the version that answered, and nothing when nothing changed', () => {
    const pinned = variantPlan(base, { questions: reworded, model: 'model-1.13.0', targetId: 'local' }, 0.5);
    expect(pinned.reason).toBe('changed');
    expect(pinned.asked).toEqual(['department']);
    expect(pinned.requests).toBe(500);
    const same = variantPlan(base, { questions, model: 'model-1.13.0', targetId: 'local' }, 0.5);
    expect(same).toMatchObject({ reason: 'nothing', requests: 0, tokens: 0, cost: 0 });
  });

  it('sends everything to another target or model, and says a cost is unknown without a price', () => {
    expect(variantPlan(base, { questions, model: 'model-1.13.0', targetId: 'other' }, null)).toMatchObject({
      reason: 'other-target',
      requests: 500,
      cost: null,
    });
    expect(variantPlan(base, { questions, model: 'model-1.14.0', targetId: 'local' }, undefined).reason).toBe(
      'other-model',
    );
    expect(answeredBy([])).toBeNull();
  });
});
