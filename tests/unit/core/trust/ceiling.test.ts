// The ceiling's figures: the same numbers as the standalone statistics (alpha, Fleiss, pairwise kappa, the judge's
// kappa against the majority), each with its n; a seeded bootstrap over the labelled rows; and above LINEARISED_ABOVE
// rows the influence intervals, whose widths agree with the bootstrap's on the same rows.
import { describe, expect, it } from 'vitest';
import { trustBenchData } from '../../../../bench/alignment/trustRows';
import { confusionOf, kappaOf, quadraticWeights } from '../../../../src/core/alignment/kappa';
import { LINEARISED_ABOVE, LINEARISED_METHOD } from '../../../../src/core/alignment/linearised';
import { ceilingFigures } from '../../../../src/core/trust/ceiling';
import { fleissKappa } from '../../../../src/core/trust/fleiss';
import { krippendorffAlpha } from '../../../../src/core/trust/krippendorff';
import { pairwiseKappa } from '../../../../src/core/trust/pairwise';
import { MISSING, majorityOf, ratingsPerRow } from '../../../../src/core/trust/ratings';
import type { TrustData } from '../../../../src/core/trust/ratings';

function judgeMajorityKappa(data: TrustData, weights?: Float64Array): number | null {
  const majority = majorityOf(data);
  const both: number[] = [];
  majority.forEach((m, i) => m !== MISSING && data.judge[i] !== MISSING && both.push(i));
  return kappaOf(confusionOf(majority, data.judge, data.classes.length, both), data.classes.length, weights);
}

describe('ceilingFigures', () => {
  const { data } = trustBenchData('choice', 800, 200, 3);
  // Some rows the judge did not answer.
  for (let i = 0; i < 1000; i += 37) data.judge[i] = MISSING;
  const c = ceilingFigures(data);

  it('gives what the standalone statistics give', () => {
    expect(c.alpha.nominal!.value).toBeCloseTo(krippendorffAlpha(data.ratings, 3, 5, 'nominal').value!, 10);
    expect(c.fleiss.value).toBeCloseTo(fleissKappa(data.ratings, 3, 5).value!, 10);
    expect(c.pairwiseKappa.value).toBeCloseTo(pairwiseKappa(data).value!, 10);
    expect(c.judgeMajority.value).toBeCloseTo(judgeMajorityKappa(data)!, 10);
    pairwiseKappa(data).pairs.forEach((p, k) => {
      expect(c.pairs[k]).toMatchObject({ a: p.a, b: p.b });
      expect(c.pairs[k]!.kappa.value).toBeCloseTo(p.value!, 10);
      expect(c.pairs[k]!.kappa.n).toBe(p.n);
    });
  });

  it('says how many rows each figure rests on', () => {
    const perRow = ratingsPerRow(data);
    expect(c.alpha.nominal!.n).toBe(perRow.filter((m) => m >= 2).length);
    expect(c.fleiss.n).toBe(perRow.filter((m) => m === 3).length);
    expect(c.fleiss.method).toContain(`on the ${c.fleiss.n} rows every annotator rated`);
    const majority = majorityOf(data);
    const judged = [...majority].filter((m, i) => m !== MISSING && data.judge[i] !== MISSING).length;
    expect(c.judgeMajority.n).toBe(judged);
    expect(c.judgeAgreement.n).toBe(judged);
  });

  it('bootstraps the labelled rows, seeded', () => {
    expect(c.intervals).toBe('bootstrap');
    expect(c.bootstrap).toEqual({ B: 1000, seed: 1 });
    expect(c.alpha.nominal!.method).toContain('95% percentile bootstrap over rows, B=1000, seed 1');
    for (const f of [
      c.alpha.nominal!,
      c.fleiss,
      c.pairwiseKappa,
      c.judgeMajority,
      ...c.judgeAnnotators.map((j) => j.kappa),
    ]) {
      expect(f.lo!).toBeLessThan(f.value!);
      expect(f.hi!).toBeGreaterThan(f.value!);
    }
    expect(ceilingFigures(data)).toEqual(c);
    expect(ceilingFigures(data, { B: 1000, seed: 2 }).fleiss.lo).not.toBe(c.fleiss.lo);
  });

  it('gives a score question ordinal and interval alpha and quadratic weighted kappas', () => {
    const { data: score } = trustBenchData('score', 600, 0, 5);
    const s = ceilingFigures(score, { B: 200, seed: 1 });
    expect(Object.keys(s.alpha)).toEqual(['ordinal', 'interval']);
    expect(s.alpha.interval!.value).toBeCloseTo(
      krippendorffAlpha(score.ratings, 3, 5, 'interval').value!,
      10,
    );
    expect(s.judgeMajority.value).toBeCloseTo(judgeMajorityKappa(score, quadraticWeights(5))!, 10);
    expect(s.judgeMajority.method).toContain(
      'quadratic weighted kappa of the judge against the majority label',
    );
  });

  it('marks an undefined figure with its reason, never 0 or NaN', () => {
    const one: TrustData = { ...data, ratings: data.ratings.map((r) => (r === MISSING ? r : 0)) };
    const u = ceilingFigures(one, { B: 50, seed: 1 });
    expect(u.alpha.nominal).toMatchObject({ value: null, lo: null, hi: null });
    expect(u.alpha.nominal!.undefinedReason).toMatch(/every rating the same/);
    expect(u.fleiss.value).toBeNull();
  });
});

describe('ceilingFigures above LINEARISED_ABOVE rows', () => {
  const { data } = trustBenchData('noul', LINEARISED_ABOVE + 5000, 0, 11);
  const linear = ceilingFigures(data);
  const boot = ceilingFigures(data, { B: 300, seed: 1 });

  it('switches to influence intervals and says so', () => {
    expect(linear.intervals).toBe('linearised');
    expect(linear.bootstrap.B).toBe(0);
    expect(linear.fleiss.method).toContain(LINEARISED_METHOD);
    expect(linear.fleiss.value).toBe(boot.fleiss.value);
  });

  it('gives intervals as wide as the bootstrap’s on the same rows, within sampling error', () => {
    const width = (f: { lo: number | null; hi: number | null }): number => f.hi! - f.lo!;
    const pairs: [{ lo: number | null; hi: number | null }, { lo: number | null; hi: number | null }][] = [
      [linear.alpha.nominal!, boot.alpha.nominal!],
      [linear.fleiss, boot.fleiss],
      [linear.pairwiseKappa, boot.pairwiseKappa],
      [linear.pairs[0]!.kappa, boot.pairs[0]!.kappa],
      [linear.judgeMajority, boot.judgeMajority],
      [linear.judgeAnnotators[2]!.kappa, boot.judgeAnnotators[2]!.kappa],
    ];
    for (const [l, b] of pairs) {
      const ratio = width(l) / width(b);
      expect(ratio).toBeGreaterThan(0.85);
      expect(ratio).toBeLessThan(1.15);
    }
  });
});
