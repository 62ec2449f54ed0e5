// The wire's rounding is never a finding: a service rounds to hundredths by largest remainder and hands the spare
// hundredths out by position, so over many options (or three that tie) the hundredths move with the order though
// nothing else does. The check must say stable, name a tie as a tie, and still find a real move.
import { describe, expect, it } from 'vitest';
import type { ChoiceAnswer, EvaluateResponse, Questions } from '../../../../src/contract';
import { planCheck } from '../../../../src/core/robustness/check';
import type { RowAnswer } from '../../../../src/core/robustness/check';
import { defaultOrderCount } from '../../../../src/core/robustness/orders';
import { defaultSettings } from '../../../../src/core/robustness/plan';
import { roundedDistance } from '../../../../src/core/robustness/stats';
import { testReport } from '../../../helpers/robustness';

/** Largest-remainder rounding to hundredths; equal remainders go to the option sent first (by position). */
function byPosition(ps: readonly number[]): number[] {
  const cents = ps.map((p) => Math.floor(p * 100 + 1e-9));
  let missing = 100 - cents.reduce((a, b) => a + b, 0);
  const order = ps
    .map((p, i) => [p * 100 - cents[i]!, i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; missing > 0; k++, missing--) cents[order[k]![1]]! += 1;
  return cents.map((c) => c / 100);
}

/** A service answering from each label's strength, plus a logit for whatever is sent first; no noise. */
function service(strength: (label: string) => number, firstBias = 0) {
  return (sent: Questions): EvaluateResponse => {
    const labels = Object.keys((sent.q as { criteria: object }).criteria);
    const logits = labels.map((l, i) => strength(l) + (i === 0 ? firstBias : 0));
    const exps = logits.map(Math.exp);
    const sum = exps.reduce((a, b) => a + b, 0);
    const p = byPosition(exps.map((e) => e / sum));
    const q: ChoiceAnswer = {
      type: 'choice',
      choice: labels[p.indexOf(Math.max(...p))]!,
      confidence: 0.01,
      probabilities: Object.fromEntries(labels.map((l, i) => [l, p[i]!])),
    };
    return { model: 'model-1.13.0', answers: { q }, usage: { input_tokens: 10, output_tokens: 0 } };
  };
}

const choice = (labels: readonly string[]): Questions => ({
  q: {
    type: 'choice',
    instructions: 'Which one?',
    criteria: Object.fromEntries(labels.map((l) => [l, null])),
  },
});

function check(questions: Questions, answer: (sent: Questions) => EvaluateResponse) {
  const plan = planCheck(
    [{ state: 'Hello there', label: 'state' }],
    questions,
    { ...defaultSettings(defaultOrderCount(questions)), variants: [] },
    { stateTokens: () => 5, questionTokens: () => 5 },
  );
  const answers = new Map<number, RowAnswer>(
    plan.rows.map((r) => [r.number, { response: answer(r.questions!), reused: false }]),
  );
  const report = testReport(plan, answers);
  return report.cards[0]!;
}

const many = Array.from({ length: 255 }, (_, i) => `option_${i + 1}`);

describe('255 options on an unbiased service (issue 29, item 13)', () => {
  it('hands out the spare hundredths by position, and the check still reads stable', () => {
    const answer = service(() => 0);
    // The premise: every option is 1/255, so the first 100 options sent get 0.01 and the rest 0.
    const sent = (answer(choice(many)).answers.q as ChoiceAnswer).probabilities;
    expect(Object.values(sent).filter((p) => p === 0.01)).toHaveLength(100);

    const card = check(choice(many), answer);
    expect(card.order!.comparisons).toBe(7);
    expect(card.verdict).toBe('stable');
    expect(card.order!.maxTvd).toBe(0);
    expect(card.order!.positionBias).toBeNull();
    // A flat answer: every option ties, and the spare hundredths only say so.
    expect(card.summary).toMatch(
      /^All 255 options tie within rounding; the service breaks the tie by position\. Stable: across 7 other option orders, 5 identical requests/,
    );
    expect(card.summary).not.toMatch(/moves with|top choice changed/i);
  });

  it('still finds a real move among 255 options', () => {
    // One option far stronger, and whatever is sent first gains: the strong option loses the lead when not first.
    const card = check(
      choice(many),
      service((l) => (l === 'option_7' ? 6 : 0), 6),
    );
    expect(card.verdict).toBe('moves_with_order');
    expect(card.order!.positionBias).toBe('first');
    expect(card.order!.maxTvd).toBeGreaterThan(0.2);
  });

  it('discounts up to one hundredth per option, never more', () => {
    const p = { a: 0.01, b: 0.0, c: 0.5, d: 0.49 };
    const q = { a: 0.0, b: 0.01, c: 0.47, d: 0.52 };
    // a and b move by a hundredth each (rounding); c and d by 0.03: 0.02 each beyond rounding, halved.
    expect(roundedDistance(p, q, ['a', 'b', 'c', 'd'])).toBeCloseTo(0.02, 6);
    expect(roundedDistance(p, p, ['a', 'b', 'c', 'd'])).toBe(0);
  });
});

describe('a tie broken by position (issue 29, item 15)', () => {
  const colours = choice(['red', 'green', 'blue']);

  it('names the tie, does not count it as a change, and reads stable', () => {
    // 1/3 each: 0.34 to the option sent first, 0.33 to the others; the first sent wins.
    const card = check(
      colours,
      service(() => 0),
    );
    expect(card.summary).toMatch(
      /^Options red, green and blue tie within rounding; the service breaks the tie by position\. Stable: across 2 other option orders/,
    );
    expect(card.order!.comparisons).toBe(2);
    expect(card.order!.topChanges).toBe(0);
    expect(card.order!.ties).toBe(2);
    expect(card.order!.tied).toEqual(['red', 'green', 'blue']);
    expect(card.verdict).toBe('stable');
    expect(card.summary).not.toMatch(/top choice changed|moves with/i);
  });

  it('names two options that tie while a third trails', () => {
    // 0.455, 0.455 and 0.09: the spare hundredth goes to whichever of red and green is sent first (0.46 to 0.45).
    const card = check(
      colours,
      service((l) => (l === 'blue' ? Math.log(0.09 / 0.455) : 0)),
    );
    expect(card.order!.topChanges).toBe(0);
    expect(card.order!.tied).toEqual(['red', 'green']);
    expect(card.summary).toMatch(
      /^Options red and green tie within rounding; the service breaks the tie by position\./,
    );
    expect(card.verdict).toBe('stable');
  });

  it('still calls a winner that changes by more than rounding a change', () => {
    const card = check(
      colours,
      service((l) => (l === 'red' ? 0.3 : 0), 0.6),
    );
    expect(card.order!.topChanges).toBeGreaterThan(0);
    expect(card.order!.ties ?? 0).toBe(0);
    expect(card.verdict).toBe('moves_with_order');
    expect(card.summary).not.toMatch(/tie/);
  });
});
