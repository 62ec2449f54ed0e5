// The statistics and verdicts of a check, over answers from a simulated server whose order bias and noise are known:
// the check must name what is there and nothing when it is not.
import { describe, expect, it } from 'vitest';
import type { Answer, ChoiceAnswer, EvaluateResponse, Questions, State } from '../../../../src/contract';
import { budgetOf, describeBudget } from '../../../../src/core/robustness/budget';
import { planCheck } from '../../../../src/core/robustness/check';
import type { RowAnswer } from '../../../../src/core/robustness/check';
import { defaultSettings } from '../../../../src/core/robustness/plan';
import type { RobustnessSettings } from '../../../../src/core/robustness/plan';
import { seededRandom } from '../../../../src/core/robustness/random';
import { orderStats, spreadOf } from '../../../../src/core/robustness/stats';
import { identicalLine } from '../../../../src/core/robustness/verdict';
import { testReport } from '../../../helpers/robustness';

const questions: Questions = {
  team: {
    type: 'choice',
    instructions: 'Which team?',
    criteria: { billing: 'Payments', technical: 'Bugs', account: 'Logins', other: null },
  },
  urgent: { type: 'noul', instructions: 'Urgent?' },
};
/** The simulated server's own view of each label, whatever the order. */
const STRENGTH: Record<string, number> = { billing: 0.2, technical: 1.2, account: 0.1, other: -0.5 };

/** Rounded to hundredths summing to 1, as the wire carries them. */
const hundredths = (ps: number[]): number[] => {
  const cents = ps.map((p) => Math.floor(p * 100));
  let missing = 100 - cents.reduce((a, b) => a + b, 0);
  ps.map((p, i) => [p * 100 - cents[i]!, i] as const)
    .sort((a, b) => b[0] - a[0])
    .forEach(([, i]) => missing-- > 0 && (cents[i]! += 1));
  return cents.map((c) => c / 100);
};

interface Server {
  bias?: { position: 'first' | 'last'; logit: number };
  noise?: number;
  /** Extra logit for "billing" when the state is in lower case (a server that reads casing). */
  casing?: number;
}

/** A server: softmax of the labels' strengths, plus its bias at a position and its noise. */
function simulate(server: Server, seed = 5) {
  const random = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return (state: State, sent: Questions): EvaluateResponse => {
    const labels = Object.keys((sent.team as { criteria: object }).criteria);
    const logits = labels.map((l) => STRENGTH[l]! + (server.noise ? server.noise * normal() : 0));
    if (server.bias) logits[server.bias.position === 'first' ? 0 : labels.length - 1]! += server.bias.logit;
    if (server.casing && typeof state === 'string' && state === state.toLowerCase())
      logits[labels.indexOf('billing')]! += server.casing;
    const exps = logits.map(Math.exp);
    const sum = exps.reduce((a, b) => a + b, 0);
    const p = hundredths(exps.map((e) => e / sum));
    const best = p.indexOf(Math.max(...p));
    const team: ChoiceAnswer = {
      type: 'choice',
      choice: labels[best]!,
      confidence: 0.5,
      probabilities: Object.fromEntries(labels.map((l, i) => [l, p[i]!])),
    };
    const urgent: Answer = { type: 'noul', noul: 0.7 };
    return {
      model: 'model-1.13.0',
      answers: { team, urgent },
      usage: { input_tokens: 40, output_tokens: 0 },
    };
  };
}

const counter = { stateTokens: () => 10, questionTokens: () => 15 };
const STATE = 'My payouts have been failing for 3 days';

function runCheck(server: Server, settings: Partial<RobustnessSettings> = {}, states = [STATE]) {
  const plan = planCheck(
    states.map((state, i) => ({ state, label: `row ${i + 1}` })),
    questions,
    { ...defaultSettings(4), ...settings },
    counter,
  );
  const answer = simulate(server);
  const answers = new Map<number, RowAnswer>(
    plan.rows.map((r) => [r.number, { response: answer(r.state, r.questions!), reused: false }]),
  );
  const report = testReport(plan, answers);
  return { plan, report, team: report.cards.find((c) => c.question === 'team')! };
}

describe('a server without bias or noise', () => {
  it('reads as stable on every question, with identical answers said in one line', () => {
    const { report, team } = runCheck({});
    expect(team.verdict).toBe('stable');
    expect(team.order!.positionBias).toBeNull();
    expect(team.order!.topChanges).toBe(0);
    expect(team.order!.maxTvd).toBeLessThan(0.02);
    expect(team.order!.comparisons).toBe(3);
    expect(team.summary).toMatch(
      /^Stable: across 3 other option orders, 5 identical requests, 2 near-duplicate states, the answer stays within 5 percentage points\.$/,
    );
    expect(report.cards.find((c) => c.question === 'urgent')!.verdict).toBe('stable');
    expect(report.identicalAnswers).toBe(true);
    expect(identicalLine(report.identicalAnswers, 5)).toBe(
      'The server returned identical answers to 5 identical requests.',
    );
    expect(identicalLine(false, 5, 3)).toBe(
      "The server's answers to 5 identical requests on each of 3 rows were not all identical.",
    );
    expect(report.sent).toBe(report.requests);
    expect(report.billedTokens).toBe(40 * report.requests);
  });
});

describe('a server that favours the first option', () => {
  it('names the position bias on the choice question and calls it "moves with order"', () => {
    const { team } = runCheck({ bias: { position: 'first', logit: 1.5 } });
    expect(team.order!.positionBias).toBe('first');
    expect(team.order!.firstGain).toBeGreaterThan(0.1);
    expect(team.verdict).toBe('moves_with_order');
    expect(team.summary).toMatch(
      /^Position bias: the option sent first gains \d+ percentage points on average/,
    );
    expect(team.order!.topChanges).toBeGreaterThan(0);
  });

  it('names the last position when the last option gains', () => {
    const { team } = runCheck({ bias: { position: 'last', logit: 1.5 } });
    expect(team.order!.positionBias).toBe('last');
    expect(team.order!.lastGain).toBeGreaterThan(0.1);
  });

  it('finds the same bias over a sample of several rows', () => {
    const { team, report } = runCheck({ bias: { position: 'first', logit: 1.5 } }, {}, [
      STATE,
      'Refund me',
      'Login broken',
    ]);
    expect(team.order!.comparisons).toBe(9);
    expect(team.order!.positionBias).toBe('first');
    expect(report.requests).toBe(3 * (1 + 3 + 4 + 2));
  });
});

describe('a noisy server', () => {
  it('calls the answer noisy, says identical requests differ, and does not take the noise for a position bias', () => {
    const { report, team } = runCheck({ noise: 0.4 });
    expect(report.identicalAnswers).toBe(false);
    expect(team.repetition!.identical).toBe(false);
    expect(team.repetition!.maxTvd).toBeGreaterThan(0.05);
    expect(team.verdict).toBe('noisy');
    expect(team.order!.positionBias).toBeNull();
    expect(team.summary).toMatch(/identical requests differ by up to \d+ percentage points/i);
  });
});

describe('near-duplicate states', () => {
  it('flags a move beyond the threshold when only the casing changed', () => {
    const { team } = runCheck({ casing: 1.5 });
    const casing = team.variants.find((v) => v.kind === 'casing')!;
    expect(casing.flagged).toBe(true);
    expect(casing.maxTvd).toBeGreaterThan(0.05);
    expect(team.variants.find((v) => v.kind === 'whitespace')!.flagged).toBe(false);
    expect(team.verdict).toBe('moves_with_form');
    expect(team.summary).toMatch(/casing changed moves it by \d+ percentage points/i);
  });
});

describe('the pieces', () => {
  it('measures spread per option as the largest minus the smallest probability', () => {
    expect(
      spreadOf(
        [
          { a: 0.5, b: 0.5 },
          { a: 0.7, b: 0.3 },
          { a: 0.6, b: 0.4 },
        ],
        ['a', 'b'],
      ),
    ).toEqual({
      a: expect.closeTo(0.2, 9),
      b: expect.closeTo(0.2, 9),
    });
  });

  it('has no order statistics for a question that was not reordered', () => {
    const { plan } = runCheck({}, { orders: 1 });
    expect(orderStats('team', [{ orders: plan.states[0]!.plan.orders, answered: [] }])).toBeNull();
  });

  it('states the budget before the run, reused answers costing nothing', () => {
    const budget = budgetOf([
      { tokens: 1000, reused: false },
      { tokens: 1000, reused: true },
      { tokens: 1381, reused: false },
    ]);
    expect(budget).toMatchObject({ requests: 3, reused: 1, toSend: 2, tokens: 2381 });
    expect(describeBudget(budget)).toBe(
      '3 requests (1 answered from stored answers, not billed), about $0.00010',
    );
    expect(describeBudget(budgetOf(Array.from({ length: 12 }, () => ({ tokens: 200, reused: false }))))).toBe(
      '12 requests, about $0.00010',
    );
  });
});

describe('a server that refuses a question (issue 29 sweep: robustness x refusals)', () => {
  it('says how often it refused, and leaves the refusals out of every figure', () => {
    const plan = planCheck([{ state: STATE, label: 'row 1' }], questions, defaultSettings(4), counter);
    const answer = simulate({});
    const answers = new Map<number, RowAnswer>(
      plan.rows.map((r) => {
        const response = answer(r.state, r.questions!);
        return [
          r.number,
          {
            response: {
              ...response,
              answers: { ...response.answers, urgent: { type: 'refusal', question_type: 'noul' } },
            },
            reused: false,
          },
        ];
      }),
    );
    const report = testReport(plan, answers, 'decisions');
    const urgent = report.cards.find((c) => c.question === 'urgent')!;
    expect(urgent.summary).toBe(
      'The server refused this question in every request; refusals are left out of every figure.',
    );
    expect(urgent.repetition).toBeUndefined();
    expect(report.cards.find((c) => c.question === 'team')!.summary).not.toMatch(/refused/);
  });
});
