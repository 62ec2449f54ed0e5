// The order verdict's false alarm rate and power, on a seeded simulation of the reference: its own judge answers each
// request and its own answer filter adds the noise (and the order bias) exactly as the reference does where answers
// leave the judge. An unbiased noisy service must not be called "moves with order" in more than 5% of checks; a real
// order bias must still be found.
import { describe, expect, it } from 'vitest';
import type { Answer, Questions, State } from '../../../../src/contract';
import { EXAMPLE_REQUEST } from '../../../../src/core/example';
import { planCheck } from '../../../../src/core/robustness/check';
import type { CheckPlan, RowAnswer } from '../../../../src/core/robustness/check';
import { defaultOrderCount } from '../../../../src/core/robustness/orders';
import { defaultSettings } from '../../../../src/core/robustness/plan';
import { fUpperTail } from '../../../../src/core/robustness/fTest';
import { judge } from '../../../../src/server/reference/judge';
import type { OrderBias } from '../../../../src/server/reference/perturb';
import { createAnswerFilter } from '../../../../src/server/reference/perturb';
import { testReport } from '../../../helpers/robustness';

const department: Questions = { department: EXAMPLE_REQUEST.questions.department! };
const fourTeams: Questions = {
  team: {
    type: 'choice',
    instructions: 'Which team should handle this?',
    criteria: {
      billing: 'Payments and refunds',
      technical: 'Bugs and integrations',
      account: 'Logins and passwords',
      other: null,
    },
  },
};
const yesNoChoice: Questions = {
  refund: {
    type: 'choice',
    instructions: 'Does the customer ask for money back?',
    criteria: { yes: null, no: null },
  },
};

const plans = new Map<string, CheckPlan>();
/** The plan of a check: the default orders and 5 identical requests (or `repeats`), no near-duplicates. */
function planFor(questions: Questions, states: readonly State[], repeats = 5): CheckPlan {
  const key = JSON.stringify([questions, states, repeats]);
  let plan = plans.get(key);
  if (!plan) {
    plan = planCheck(
      states.map((state, i) => ({ state, label: `row ${i + 1}` })),
      questions,
      { ...defaultSettings(defaultOrderCount(questions)), repeats, variants: [] },
      { stateTokens: () => 10, questionTokens: () => 10 },
    );
    plans.set(key, plan);
  }
  return plan;
}

const judged = new Map<string, Record<string, Answer>>();
/** The reference judge's own answer to a request (pure, so computed once per request). */
function judgeOnce(state: State, questions: Questions): Record<string, Answer> {
  const key = JSON.stringify([state, questions]);
  let answers = judged.get(key);
  if (!answers) {
    answers = judge({ state, questions, model: 'model-1.13.0' }, 'model-1.13.0');
    judged.set(key, answers);
  }
  return answers;
}

/** One check against the reference with this noise, bias and seed: the verdict and position named per question. */
function simulate(
  questions: Questions,
  states: readonly State[],
  perturbation: { noise: number; orderBias: OrderBias | null },
  seed: number,
  repeats?: number,
) {
  const plan = planFor(questions, states, repeats);
  const filter = createAnswerFilter(perturbation, seed);
  const answers = new Map<number, RowAnswer>();
  for (const row of plan.rows) {
    const request = { state: row.state, questions: row.questions!, model: 'model-1.13.0' };
    const response = {
      model: 'model-1.13.0',
      answers: filter(request, judgeOnce(row.state, row.questions!)),
      usage: { input_tokens: 10, output_tokens: 0 },
    };
    answers.set(row.number, { response, reused: false });
  }
  const report = testReport(plan, answers);
  return report.cards[0]!;
}

/** Over seeds 1..n: the share of checks called "moves with order", and the share that named a position. */
function rates(
  questions: Questions,
  states: readonly State[],
  perturbation: { noise: number; orderBias: OrderBias | null },
  n: number,
  repeats?: number,
) {
  let moves = 0;
  let named = 0;
  for (let seed = 1; seed <= n; seed++) {
    const card = simulate(questions, states, perturbation, seed, repeats);
    if (card.verdict === 'moves_with_order') moves++;
    if (card.order?.positionBias) named++;
  }
  return { moves: moves / n, named: named / n };
}

const STATE = EXAMPLE_REQUEST.state;
const ROWS = [STATE, 'The app crashes when I open it', 'I was charged twice, refund me'];
const CHECKS = 1000;
/** The false alarm rate the order verdict holds (ORDER_FALSE_ALARM_RATE). */
const FALSE_ALARM = 0.05;
const unbiased = (noise: number) => ({ noise, orderBias: null });
const biased = (noise: number, position: 'first' | 'last', logit: number) => ({
  noise,
  orderBias: { position, logit },
});

// Measured when written (seeded, so the same every run): 2.5% of 1,000 checks of the example were called "moves with
// order" (10.8% before the variance-ratio test), 3.6% on 4 options, 3.5% on 2, 1.3% at noise 0.8, 1.8% at 0.1,
// 3.2% with 10 identical requests, 2.7% over 3 rows.
describe('an unbiased service with noise (issue 29, item 16)', () => {
  it(`calls at most 5% of ${CHECKS} seeded checks of the example's choice question at noise 0.3 "moves with order"`, () => {
    const r = rates(department, [STATE], unbiased(0.3), CHECKS);
    expect(r.moves).toBeLessThanOrEqual(FALSE_ALARM);
    expect(r.named).toBeLessThanOrEqual(FALSE_ALARM);
  });

  it('holds the rate on 4 and on 2 options, at less and more noise, with more repeats and over 3 rows', () => {
    expect(rates(fourTeams, [STATE], unbiased(0.3), CHECKS).moves).toBeLessThanOrEqual(FALSE_ALARM);
    expect(rates(yesNoChoice, [STATE], unbiased(0.3), CHECKS).moves).toBeLessThanOrEqual(FALSE_ALARM);
    expect(rates(department, [STATE], unbiased(0.1), CHECKS).moves).toBeLessThanOrEqual(FALSE_ALARM);
    expect(rates(department, [STATE], unbiased(0.8), CHECKS).moves).toBeLessThanOrEqual(FALSE_ALARM);
    expect(rates(department, [STATE], unbiased(0.3), CHECKS, 10).moves).toBeLessThanOrEqual(FALSE_ALARM);
    expect(rates(department, ROWS, unbiased(0.3), 300).moves).toBeLessThanOrEqual(FALSE_ALARM);
  });
});

// The power, measured when written: without noise every bias the other tests use is found (the answers of identical
// requests are identical, so any move beyond rounding and the threshold is the order's). With noise 0.3, first=1.5 on
// the example is found in 95.4% of checks with the default 5 identical requests and 99.4% with 10; last=1.5 on 4
// options in 86% and 98.7%; over 3 rows, first=1.5 in 100% and first=0.8 in 83%.
describe('a biased service: the power of the order verdict', () => {
  it('finds the bias the other tests use (first=1.5) and names it, without noise every time', () => {
    expect(rates(department, [STATE], biased(0, 'first', 1.5), 1)).toEqual({ moves: 1, named: 1 });
    expect(rates(department, [STATE], biased(0, 'first', 0.3), 1).moves).toBe(1);
  });

  it('with noise 0.3, finds first=1.5 in at least 95% of checks, 99% with 10 identical requests', () => {
    const r = rates(department, [STATE], biased(0.3, 'first', 1.5), CHECKS);
    expect(r.moves).toBeGreaterThanOrEqual(0.95);
    expect(r.named).toBeGreaterThanOrEqual(0.95);
    expect(rates(department, [STATE], biased(0.3, 'first', 1.5), CHECKS, 10).moves).toBeGreaterThanOrEqual(
      0.99,
    );
  });

  it('with noise 0.3, finds last=1.5 on 4 options in at least 85% of checks, 98% with 10 identical requests', () => {
    expect(rates(fourTeams, [STATE], biased(0.3, 'last', 1.5), CHECKS).moves).toBeGreaterThanOrEqual(0.85);
    expect(rates(fourTeams, [STATE], biased(0.3, 'last', 1.5), CHECKS, 10).moves).toBeGreaterThanOrEqual(
      0.98,
    );
  });

  it('over a sample of 3 rows with noise 0.3, finds first=1.5 every time and first=0.8 in at least 80%', () => {
    expect(rates(department, ROWS, biased(0.3, 'first', 1.5), 300).moves).toBe(1);
    expect(rates(department, ROWS, biased(0.3, 'first', 0.8), 300).moves).toBeGreaterThanOrEqual(0.8);
  });
});

describe('the F distribution', () => {
  it('puts 5% above its published 95th percentiles', () => {
    // F tables: F(0.95; 1, 4) = 7.709, (2, 4) = 6.944, (3, 4) = 6.591, (7, 4) = 6.094, (10, 20) = 2.348.
    expect(fUpperTail(7.7086, 1, 4)).toBeCloseTo(0.05, 4);
    expect(fUpperTail(6.9443, 2, 4)).toBeCloseTo(0.05, 4);
    expect(fUpperTail(6.5914, 3, 4)).toBeCloseTo(0.05, 4);
    expect(fUpperTail(6.0942, 7, 4)).toBeCloseTo(0.05, 4);
    expect(fUpperTail(2.3479, 10, 20)).toBeCloseTo(0.05, 4);
    expect(fUpperTail(1, 6, 6)).toBeCloseTo(0.5, 9);
    expect(fUpperTail(0, 2, 4)).toBe(1);
    expect(fUpperTail(Infinity, 2, 4)).toBe(0);
  });
});
