import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChoiceAnswer, NoulAnswer, ScoreAnswer } from '../../../src/contract';
import {
  alignDistributions,
  choiceMetrics,
  disagreementOf,
  expectedLevel,
  expectedScoreDifference,
  jensenShannonDivergence,
  noulMetrics,
  normalise,
  scoreMetrics,
  topChoiceAgreement,
  topLabel,
  totalVariationDistance,
  yesProbabilityDifference,
} from '../../../src/core/metrics';

describe('totalVariationDistance', () => {
  it('is 0 for identical distributions', () => {
    expect(totalVariationDistance({ a: 0.5, b: 0.3, c: 0.2 }, { a: 0.5, b: 0.3, c: 0.2 })).toBe(0);
  });

  it('is 1 for disjoint distributions', () => {
    // (|1 - 0| + |0 - 1|) / 2 = 1
    expect(totalVariationDistance({ a: 1, b: 0 }, { a: 0, b: 1 })).toBe(1);
    // labels never shared at all: {a, b} vs {c}: (0.6 + 0.4 + 1) / 2 = 1
    expect(totalVariationDistance({ a: 0.6, b: 0.4 }, { c: 1 })).toBe(1);
  });

  it('matches a hand computation on the contract example', () => {
    // p = (0.14, 0.81, 0.05), q = (0.30, 0.60, 0.10)
    // |0.14-0.30| + |0.81-0.60| + |0.05-0.10| = 0.16 + 0.21 + 0.05 = 0.42; / 2 = 0.21
    const p = { billing: 0.14, technical: 0.81, other: 0.05 };
    const q = { billing: 0.3, technical: 0.6, other: 0.1 };
    expect(totalVariationDistance(p, q)).toBeCloseTo(0.21, 12);
  });

  it('counts a label missing from one side as 0', () => {
    // p = (a 0.5, b 0.5, c 0), q = (a 0.5, b 0.25, c 0.25): (0 + 0.25 + 0.25) / 2 = 0.25
    expect(totalVariationDistance({ a: 0.5, b: 0.5 }, { a: 0.5, b: 0.25, c: 0.25 })).toBeCloseTo(0.25, 12);
  });

  it('normalises sums of 0.99 and 1.01 before comparing', () => {
    // (0.33, 0.66) sums 0.99 -> (1/3, 2/3); (0.34, 0.68) sums 1.02 -> (1/3, 2/3): the same distribution
    expect(totalVariationDistance({ a: 0.33, b: 0.66 }, { a: 0.34, b: 0.68 })).toBeCloseTo(0, 12);
    // (0.50, 0.51) / 1.01 = (0.4950495, 0.5049505); (0.50, 0.49) / 0.99 = (0.5050505, 0.4949495)
    // (|0.4950495 - 0.5050505| + |0.5049505 - 0.4949495|) / 2 = 0.0100010
    expect(totalVariationDistance({ a: 0.5, b: 0.51 }, { a: 0.5, b: 0.49 })).toBeCloseTo(0.010001, 6);
  });
});

describe('jensenShannonDivergence (base 2, in [0, 1])', () => {
  it('is 0 for identical distributions', () => {
    expect(jensenShannonDivergence({ a: 0.5, b: 0.3, c: 0.2 }, { a: 0.5, b: 0.3, c: 0.2 })).toBe(0);
  });

  it('is 1 for disjoint distributions', () => {
    // m = (0.5, 0.5); KL(p||m) = 1 * log2(1 / 0.5) = 1; KL(q||m) = 1; (1 + 1) / 2 = 1
    expect(jensenShannonDivergence({ a: 1, b: 0 }, { a: 0, b: 1 })).toBeCloseTo(1, 12);
    // m = (0.3, 0.2, 0.5); KL(p||m) = 0.6 log2(2) + 0.4 log2(2) = 1; KL(q||m) = 1 log2(2) = 1 -> 1
    expect(jensenShannonDivergence({ a: 0.6, b: 0.4 }, { c: 1 })).toBeCloseTo(1, 12);
  });

  it('matches a hand computation', () => {
    // p = (1, 0), q = (0.5, 0.5), m = (0.75, 0.25)
    // KL(p||m) = 1 * log2(1 / 0.75) = log2(4/3) = 0.4150375
    // KL(q||m) = 0.5 log2(0.5 / 0.75) + 0.5 log2(0.5 / 0.25) = 0.5 * (-0.5849625) + 0.5 * 1 = 0.2075187
    // JSD = (0.4150375 + 0.2075187) / 2 = 0.3112781
    expect(jensenShannonDivergence({ a: 1, b: 0 }, { a: 0.5, b: 0.5 })).toBeCloseTo(0.3112781, 6);
  });

  it('matches a hand computation with a label missing from one side', () => {
    // p = (a 0.5, b 0.5, c 0), q = (a 0.5, b 0, c 0.5), m = (0.5, 0.25, 0.25)
    // KL(p||m) = 0.5 log2(1) + 0.5 log2(2) = 0.5; KL(q||m) = 0.5; JSD = 0.5
    expect(jensenShannonDivergence({ a: 0.5, b: 0.5 }, { a: 0.5, c: 0.5 })).toBeCloseTo(0.5, 12);
  });

  it('normalises rounded sums before comparing', () => {
    // (0.33, 0.66) and (0.34, 0.68) both normalise to (1/3, 2/3)
    expect(jensenShannonDivergence({ a: 0.33, b: 0.66 }, { a: 0.34, b: 0.68 })).toBeCloseTo(0, 12);
  });
});

describe('metric properties', () => {
  const distribution = fc
    .array(fc.integer({ min: 0, max: 100 }), { minLength: 2, maxLength: 12 })
    .filter((xs) => xs.some((x) => x > 0))
    .map((xs) => Object.fromEntries(xs.map((x, i) => [`l${i}`, x / 100])));

  it('TVD and JSD are symmetric, lie in [0, 1] and ignore scale', () => {
    fc.assert(
      fc.property(distribution, distribution, (p, q) => {
        const tvd = totalVariationDistance(p, q);
        const jsd = jensenShannonDivergence(p, q);
        expect(tvd).toBeGreaterThanOrEqual(0);
        expect(tvd).toBeLessThanOrEqual(1);
        expect(jsd).toBeGreaterThanOrEqual(0);
        expect(jsd).toBeLessThanOrEqual(1);
        expect(totalVariationDistance(q, p)).toBeCloseTo(tvd, 12);
        expect(jensenShannonDivergence(q, p)).toBeCloseTo(jsd, 12);
        const doubled = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v * 2]));
        expect(totalVariationDistance(doubled, q)).toBeCloseTo(tvd, 12);
        expect(totalVariationDistance(p, p)).toBeCloseTo(0, 12);
        expect(jensenShannonDivergence(p, p)).toBeCloseTo(0, 12);
      }),
    );
  });
});

describe('normalise and alignDistributions', () => {
  it('scales to sum 1 and treats missing, negative and non-finite values as 0', () => {
    // 0.2 + 0.6 = 0.8 of mass: (0.25, 0.75, 0, 0)
    const n = normalise({ a: 0.2, b: 0.6, c: -1, d: Number.NaN });
    expect(n.a).toBeCloseTo(0.25, 12);
    expect(n.b).toBeCloseTo(0.75, 12);
    expect([n.c, n.d]).toEqual([0, 0]);
  });

  it('makes a distribution without mass uniform, since it says nothing about which label is likelier', () => {
    expect(normalise({ a: 0, b: 0 })).toEqual({ a: 0.5, b: 0.5 });
  });

  it('aligns both sides on the union of labels, first side first', () => {
    const a = alignDistributions({ b: 0.5, a: 0.5 }, { c: 1, a: 0 });
    expect(a.labels).toEqual(['b', 'a', 'c']);
    expect(a.p).toEqual([0.5, 0.5, 0]);
    expect(a.q).toEqual([0, 0, 1]);
  });
});

describe('top choice', () => {
  it('takes the most probable label', () => {
    expect(topLabel({ a: 0.2, b: 0.7, c: 0.1 })).toBe('b');
  });

  it('breaks ties by the criteria order, then by key order', () => {
    expect(topLabel({ a: 0.4, b: 0.4, c: 0.2 }, ['b', 'a', 'c'])).toBe('b');
    expect(topLabel({ a: 0.4, b: 0.4, c: 0.2 })).toBe('a');
    expect(topLabel({})).toBeUndefined();
  });

  it('agrees only when both tops are the same label', () => {
    expect(topChoiceAgreement({ a: 0.6, b: 0.4 }, { a: 0.51, b: 0.49 })).toBe(true);
    expect(topChoiceAgreement({ a: 0.6, b: 0.4 }, { a: 0.49, b: 0.51 })).toBe(false);
    expect(topChoiceAgreement({}, {})).toBe(false);
  });
});

describe('expected score', () => {
  it('is the probability-weighted level', () => {
    // 0 * 0.12 + 1 * 0.34 + 2 * 0.54 = 0.34 + 1.08 = 1.42
    expect(expectedLevel({ '0': 0.12, '1': 0.34, '2': 0.54 })).toBeCloseTo(1.42, 12);
  });

  it('is normalised when the rounded probabilities do not sum to 1', () => {
    // (0.50, 0.51) sums 1.01: 1 * 0.51 / 1.01 = 0.5049505
    expect(expectedLevel({ '0': 0.5, '1': 0.51 })).toBeCloseTo(0.5049505, 6);
  });

  it('differs by the second minus the first', () => {
    // E[q] = 0 * 0.5 + 1 * 0.5 = 0.5; E[p] = 1.42; 0.5 - 1.42 = -0.92
    expect(
      expectedScoreDifference({ '0': 0.12, '1': 0.34, '2': 0.54 }, { '0': 0.5, '1': 0.5, '2': 0 }),
    ).toBeCloseTo(-0.92, 12);
  });
});

describe('yesProbabilityDifference', () => {
  it('is the second minus the first, each clamped to [0, 1]', () => {
    // 0.40 - 0.93 = -0.53
    expect(yesProbabilityDifference(0.93, 0.4)).toBeCloseTo(-0.53, 12);
    // clamp(1.2) - clamp(-0.1) = 1 - 0 = 1
    expect(yesProbabilityDifference(-0.1, 1.2)).toBe(1);
  });
});

describe('answer metrics', () => {
  const choice = (chosen: string, probabilities: Record<string, number>): ChoiceAnswer => ({
    type: 'choice',
    choice: chosen,
    confidence: 0,
    probabilities,
  });
  const score = (value: number, probabilities: Record<string, number>): ScoreAnswer => ({
    type: 'score',
    score: value,
    confidence: 0,
    legend: {},
    probabilities,
  });
  const noul = (p: number): NoulAnswer => ({ type: 'noul', noul: p });

  it('compares choice answers: agreement from the answers, TVD and JSD from the distributions', () => {
    // rounded to a tie at 0.50 each, but the service chose differently: agreement follows the answers
    const m = choiceMetrics(choice('a', { a: 0.5, b: 0.5 }), choice('b', { a: 0.5, b: 0.5 }));
    expect(m).toEqual({ kind: 'choice', topChoiceAgrees: false, totalVariation: 0, jensenShannon: 0 });
    // disjoint: TVD 1, JSD 1
    const d = choiceMetrics(choice('a', { a: 1, b: 0 }), choice('b', { a: 0, b: 1 }));
    expect(d.topChoiceAgrees).toBe(false);
    expect(d.totalVariation).toBe(1);
    expect(d.jensenShannon).toBeCloseTo(1, 12);
    expect(disagreementOf(d)).toBe(1);
  });

  it('compares score answers by their reported expected scores and their distributions', () => {
    // Δ = 0.9 - 1.42 = -0.52; TVD = (|0.12-0.3| + |0.34-0.5| + |0.54-0.2|) / 2 = (0.18 + 0.16 + 0.34) / 2 = 0.34
    const m = scoreMetrics(
      score(1.42, { '0': 0.12, '1': 0.34, '2': 0.54 }),
      score(0.9, { '0': 0.3, '1': 0.5, '2': 0.2 }),
    );
    expect(m.scoreDifference).toBeCloseTo(-0.52, 12);
    expect(m.totalVariation).toBeCloseTo(0.34, 12);
    expect(disagreementOf(m)).toBeCloseTo(0.34, 12);
  });

  it('compares noul answers by the difference in probability of yes; disagreement is its size', () => {
    // 0.25 - 0.75 = -0.5
    const m = noulMetrics(noul(0.75), noul(0.25));
    expect(m.yesDifference).toBeCloseTo(-0.5, 12);
    expect(disagreementOf(m)).toBeCloseTo(0.5, 12);
  });
});
