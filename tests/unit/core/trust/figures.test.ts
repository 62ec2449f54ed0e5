// trustFigures: every figure of one question in a plain record that survives JSON (a worker boundary, a session
// file) and parses with its schema; the rows counted; PPI per label; the cascade when judges are given.
import { describe, expect, it } from 'vitest';
import { trustBenchData } from '../../../../bench/alignment/trustRows';
import { guaranteedThreshold } from '../../../../src/core/trust/guaranteedThreshold';
import {
  TRUST_DEFAULTS,
  thresholdRows,
  trustConventions,
  trustFigures,
} from '../../../../src/core/trust/figures';
import { MISSING, majorityOf } from '../../../../src/core/trust/ratings';
import { TrustFiguresSchema } from '../../../../src/core/trust/schema';

describe('trustFigures', () => {
  const { data, cheap, strong } = trustBenchData('choice', 600, 5000, 9);
  const f = trustFigures(data, { cascade: { judges: [cheap, strong], lastAnswersAll: false } });

  it('is plain data: JSON gives it back whole, and the schema parses it', () => {
    const json = JSON.parse(JSON.stringify(f)) as unknown;
    expect(json).toEqual(f);
    expect(TrustFiguresSchema.parse(json)).toEqual(f);
  });

  it('refuses a stored report that lost a field or holds a share above 1', () => {
    const broken = JSON.parse(JSON.stringify(f)) as { altTest: { omega: number }; threshold?: unknown };
    broken.altTest.omega = 1.5;
    expect(TrustFiguresSchema.safeParse(broken).success).toBe(false);
    delete broken.threshold;
    expect(TrustFiguresSchema.safeParse(broken).success).toBe(false);
  });

  it('counts the rows each part reads', () => {
    expect(f.rows.total).toBe(5600);
    expect(f.rows.answered).toBe(5600);
    // A labelled row skipped by all three annotators (0.1^3 of them) joins the judge-only rows.
    expect(f.rows.labelled + f.rows.judgeOnly).toBe(5600);
    expect(f.rows.judgeOnly).toBeGreaterThanOrEqual(5000);
    expect(f.estimates[0]!.ppi!.N).toBe(f.rows.judgeOnly);
    expect(f.estimates[0]!.ppi!.n).toBe(f.rows.labelled);
    expect(f.threshold.eligible).toBe(f.rows.labelled);
  });

  it('estimates the share of every label of a choice question, and they add up to 1', () => {
    expect(f.estimates.map((e) => e.what)).toEqual(data.classes.map((c) => `Share of ${c}`));
    const sum = f.estimates.reduce((s, e) => s + e.ppi!.ppi.value, 0);
    expect(sum).toBeCloseTo(1, 1);
  });

  it('carries the cascade, the conventions and one sentence per finding', () => {
    expect(f.cascade!.judges.map((j) => j.name)).toEqual(['local', 'hosted']);
    expect(f.conventions.join(' ')).toMatch(/Bonferroni \(delta \/ 2 per judge\)/);
    expect(f.conventions.join(' ')).toMatch(/ties to the first-listed annotator/);
    expect(f.conventions.join(' ')).toMatch(
      /percentile bootstrap over the labelled rows \(items, not single ratings; B=1000, seed 1\)/,
    );
    expect(f.sentences.ceiling).toMatch(/^The judge agrees with the majority at kappa \d\.\d\d \[/);
    expect(f.sentences.cascade).toMatch(/^The cascade settles/);
    expect(f.sentences.estimates).toHaveLength(5);
  });

  it('gives a noul question the share of yes and a score question its mean level', () => {
    const noul = trustFigures(trustBenchData('noul', 300, 1000, 2).data);
    expect(noul.estimates.map((e) => [e.what, e.kind])).toEqual([['Share of yes', 'share']]);
    expect(noul.cascade).toBeNull();
    expect(noul.sentences.cascade).toBeNull();
    const score = trustFigures(trustBenchData('score', 300, 1000, 2).data);
    expect(score.estimates.map((e) => [e.what, e.kind])).toEqual([['Mean level', 'mean']]);
    expect(score.altTest.metric).toBe('neg_rmse');
  });

  it('passes its options through: epsilon, the threshold’s alpha, a plain PPI lambda', () => {
    const g = trustFigures(data, { altTest: { epsilon: 0.1 }, threshold: { alpha: 0.2 }, ppiLambda: 1 });
    expect(g.altTest.epsilon).toBe(0.1);
    expect(g.threshold.alpha).toBe(0.2);
    expect(g.estimates.every((e) => e.ppi!.lambda === 1 && !e.ppi!.tuned)).toBe(true);
  });

  it('states linearised intervals when the ceiling used them', () => {
    const text = trustConventions('score', TRUST_DEFAULTS, { B: 0, linearised: true }).join(' ');
    expect(text).toMatch(/more than 20,000 labelled rows, so normal intervals from each row's influence/);
    expect(text).toMatch(/ordinal and interval metric/);
    expect(text).toMatch(/negative RMSE/);
  });

  // Issue 43: with some answered rows unlabelled, a typed array's filter left boxed copies of a million rows behind
  // (a report peaked at 224 MB). The threshold's rows are now copied in a loop into arrays sized once.
  it('hands the threshold the labelled answered rows in arrays sized once when some answered rows have no label', () => {
    const majority = majorityOf(data);
    const judged: number[] = [];
    for (let i = 0; i < majority.length; i++)
      if (majority[i] !== MISSING && data.judge[i] !== MISSING) judged.push(i);
    expect(judged.length).toBeLessThan(majority.length);
    const { conf, agreed } = thresholdRows(data, majority);
    expect(conf).toBeInstanceOf(Float64Array);
    expect(conf.length).toBe(judged.length);
    expect(agreed.length).toBe(judged.length);
    expect(Array.from(conf)).toEqual(judged.map((i) => data.confidence[i]));
    expect(Array.from(agreed)).toEqual(judged.map((i) => (majority[i] === data.judge[i] ? 1 : 0)));
    expect(f.threshold).toEqual(
      guaranteedThreshold(
        judged.map((i) => data.confidence[i]!),
        judged.map((i) => (majority[i] === data.judge[i] ? 1 : 0)),
      ),
    );
  });

  it("reads the judge's own confidence column, uncopied, when every answered row is labelled", () => {
    const { data: all } = trustBenchData('choice', 300, 0, 4);
    const majority = majorityOf(all);
    const { conf, agreed } = thresholdRows(all, majority);
    expect(conf).toBe(all.confidence);
    expect(agreed.length).toBe(majority.length);
  });
});
