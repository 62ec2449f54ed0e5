// The robustness plan: option orders (a Latin square for small label counts, seeded), near-duplicate states and the
// probes of one state, with score levels and yes/no never reordered.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChoiceQuestion, Questions } from '../../../../src/contract';
import { dedupText } from '../../../../src/core/rows/dedup';
import {
  defaultOrderCount,
  MAX_ORDERS,
  orderPlan,
  planQuestionOrders,
} from '../../../../src/core/robustness/orders';
import { planState, defaultSettings } from '../../../../src/core/robustness/plan';
import { partialSquareNotes, planCheck } from '../../../../src/core/robustness/check';
import { sampleIndices, seededRandom } from '../../../../src/core/robustness/random';
import { stateVariants } from '../../../../src/core/robustness/variants';

const isPermutation = (order: readonly number[], m: number): boolean =>
  order.length === m && [...order].sort((a, b) => a - b).every((x, i) => x === i);

describe('orderPlan', () => {
  it('puts every option in every position exactly once when there are as many orders as options (m = 2..8, any seed)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8 }), fc.integer(), (m, seed) => {
        const plan = orderPlan(m, m, seed);
        expect(plan).toHaveLength(m);
        expect(plan[0]).toEqual(Array.from({ length: m }, (_, i) => i));
        for (const order of plan) expect(isPermutation(order, m)).toBe(true);
        for (let position = 0; position < m; position++) {
          const there = plan.map((o) => o[position]);
          expect(new Set(there).size).toBe(m);
        }
      }),
    );
  });

  it('is the same for the same seed and differs for another', () => {
    expect(orderPlan(5, 5, 7)).toEqual(orderPlan(5, 5, 7));
    const plans = new Set([1, 2, 3, 4, 5, 6].map((seed) => JSON.stringify(orderPlan(5, 5, seed))));
    expect(plans.size).toBeGreaterThan(1);
  });

  it('adds distinct shuffles beyond the square and stops at m! orders', () => {
    const plan = orderPlan(3, 10, 3);
    expect(plan).toHaveLength(6);
    expect(new Set(plan.map((o) => o.join(','))).size).toBe(6);
    const wide = orderPlan(4, 7, 3);
    expect(wide).toHaveLength(7);
    expect(new Set(wide.map((o) => o.join(','))).size).toBe(7);
  });

  it('never puts an option twice in one position when there are fewer orders than options', () => {
    const plan = orderPlan(10, 4, 9);
    for (let position = 0; position < 10; position++)
      expect(new Set(plan.map((o) => o[position])).size).toBe(4);
  });
});

const questions: Questions = {
  urgent: { type: 'noul', instructions: 'Urgent?', criteria: { true: 'yes', false: 'no' } },
  team: {
    type: 'choice',
    instructions: 'Which team?',
    criteria: { billing: 'Payments', technical: 'Bugs', other: null },
  },
  tone: { type: 'score', instructions: 'How angry?', criteria: ['Calm', 'Annoyed', 'Furious'] },
};

describe('planQuestionOrders', () => {
  it('reorders only choice labels, keeping each description with its label; score levels and yes/no never move', () => {
    const plan = planQuestionOrders(questions, 3, 1);
    expect(plan.count).toBe(3);
    expect(plan.labels.team![0]).toEqual(['billing', 'technical', 'other']);
    for (const [j, sent] of plan.questions.entries()) {
      expect(sent.tone).toEqual(questions.tone);
      expect(Object.keys((sent.urgent as { criteria: object }).criteria)).toEqual(['true', 'false']);
      const team = sent.team as ChoiceQuestion;
      expect(Object.keys(team.criteria)).toEqual(plan.labels.team![j]);
      expect(team.criteria).toEqual((questions.team as ChoiceQuestion).criteria);
    }
    // Every label first once across the three orders.
    expect(new Set(plan.labels.team!.map((o) => o[0])).size).toBe(3);
  });

  it('leaves a choice question with whole-number labels in place and says why', () => {
    const plan = planQuestionOrders(
      { rank: { type: 'choice', instructions: 'Rank?', criteria: { '1': 'low', '2': 'high' } } },
      4,
      1,
    );
    expect(plan.count).toBe(1);
    expect(plan.fixed.rank).toMatch(/whole numbers/);
  });

  it('defaults to one order per label of the largest choice question, at most MAX_ORDERS', () => {
    expect(defaultOrderCount(questions)).toBe(3);
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`l${i}`, null]));
    expect(defaultOrderCount({ q: { type: 'choice', criteria: many } })).toBe(MAX_ORDERS);
    expect(defaultOrderCount({ q: questions.tone! })).toBe(1);
  });
});

describe('stateVariants', () => {
  it('changes whitespace, casing and field order of an object state, never its field names', () => {
    const state = { subject: 'Payout failed', body: 'It has been 3 days. Please help' };
    const variants = stateVariants(state);
    expect(variants.map((v) => v.kind)).toEqual(['whitespace', 'casing', 'fieldOrder']);
    const [ws, casing, order] = variants.map((v) => v.state as Record<string, string>);
    expect(ws!.body).toBe('It  has  been  3  days.  Please  help\n');
    expect(casing).toEqual({ subject: 'payout failed', body: 'it has been 3 days. please help' });
    expect(Object.keys(order!)).toEqual(['body', 'subject']);
    expect(order).toEqual(state);
  });

  it('has no field-order variant for a text state, and upper-cases text already in lower case', () => {
    const variants = stateVariants('help, payouts are failing');
    expect(variants.map((v) => v.kind)).toEqual(['whitespace', 'casing']);
    expect(variants[1]!.state).toBe('HELP, PAYOUTS ARE FAILING');
  });
});

describe('planState', () => {
  it('sends the original once, then k-1 orders, n-1 repeats and one request per variant', () => {
    const plan = planState('Help! My payouts have been failing.', questions, defaultSettings(3));
    const kinds = plan.probes.map((p) => p.kind);
    expect(kinds).toEqual([
      'base',
      'order',
      'order',
      'repeat',
      'repeat',
      'repeat',
      'repeat',
      'variant',
      'variant',
    ]);
    expect(plan.missingVariants).toEqual(['fieldOrder']);
    expect(plan.probes.filter((p) => p.kind === 'repeat').map((p) => p.repeat)).toEqual([1, 2, 3, 4]);
  });

  it('gives each repeat, order and variant its own stored-answer key; the original keeps the plain key', () => {
    const plan = planState({ a: 'x', b: 'y' }, questions, defaultSettings(3));
    const keys = plan.probes.map((p) =>
      dedupText({
        targetId: 'local',
        model: 'model-1.13.0',
        state: p.state,
        questions: p.questions,
        tag: p.tag,
      }),
    );
    expect(new Set(keys).size).toBe(plan.probes.length);
    const id = { targetId: 'local', model: 'model-1.13.0', state: { a: 'x', b: 'y' }, questions };
    expect(keys[0]).toBe(dedupText(id));
    expect(dedupText({ ...id, tag: '' })).toBe(dedupText(id));
    expect(dedupText(id)).not.toContain('tag');
  });
});

describe('sampleIndices', () => {
  it('picks distinct indices in range, the same for the same seed', () => {
    const a = sampleIndices(100_000, 20, seededRandom(4));
    expect(a).toEqual(sampleIndices(100_000, 20, seededRandom(4)));
    expect(new Set(a).size).toBe(20);
    expect(a.every((i) => i >= 0 && i < 100_000)).toBe(true);
    expect(sampleIndices(5, 20, seededRandom(1))).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('partialSquareNotes (issue 29 item 14)', () => {
  const counter = { stateTokens: () => 10, questionTokens: () => 10 };
  const choice = (n: number): Questions => ({
    topic: {
      type: 'choice',
      instructions: 'Which topic?',
      criteria: Object.fromEntries(Array.from({ length: n }, (_, i) => [`topic_${i}`, null])),
    },
  });

  it('says that 8 orders of 255 options are a partial Latin square, and what that means for the verdict', () => {
    const plan = planCheck(
      [{ state: 'text', label: 'this state' }],
      choice(255),
      defaultSettings(defaultOrderCount(choice(255))),
      counter,
    );
    const notes = partialSquareNotes(plan);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('“topic” has 255 options and the check sends 8 orders');
    expect(notes[0]).toContain('not every option sits in every position');
    expect(notes[0]).toContain('"stable" means stable in these orders');
  });

  it('says nothing when every option sits in every position (a full square)', () => {
    const plan = planCheck(
      [{ state: 'text', label: 'this state' }],
      choice(5),
      defaultSettings(defaultOrderCount(choice(5))),
      counter,
    );
    expect(partialSquareNotes(plan)).toEqual([]);
  });
});
