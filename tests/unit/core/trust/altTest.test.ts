// The alt-test: a 30-row case computed by hand (p-values checked against scipy's ttest_1samp with
// alternative='less'), its minimums, the score variant, and the properties the paper relies on: a judge that copies
// an annotator passes, a judge that guesses fails.
import { describe, expect, it } from 'vitest';
import { altTest, pairedTTest } from '../../../../src/core/trust/altTest';
import { studentTCdf } from '../../../../src/core/trust/distributions';
import { trustDataOf } from '../../../../src/core/trust/ratings';
import { annotated } from './simulate';

/** Rows 1-20 everyone says 0; rows 21-30 A says 0, B and C say 1; the judge's labels are given. */
function handCase(judge: number[]) {
  const a = Array.from({ length: 30 }, () => 0);
  const bc = Array.from({ length: 30 }, (_, i) => (i < 20 ? 0 : 1));
  return trustDataOf({ type: 'choice', classes: ['x', 'y'], columns: { A: a, B: bc, C: bc }, judge });
}

describe('altTest by hand', () => {
  // The judge says 1 on rows 1-10 (where all say 0) and on rows 21-30.
  const judge = Array.from({ length: 30 }, (_, i) => (i < 10 || i >= 20 ? 1 : 0));
  const result = altTest(handCase(judge));

  it('computes each annotator’s advantage indicators and t-test', () => {
    const [A, B, C] = result.annotators;
    // A: d = W_h - W_f is +1 on rows 1-10, 0 on 11-20, -1 on 21-30: mean 0, variance 20/29.
    expect(A!.n).toBe(30);
    expect(A!.judgeAdvantage).toBeCloseTo(20 / 30, 12);
    expect(A!.annotatorAdvantage).toBeCloseTo(20 / 30, 12);
    expect(A!.t).toBeCloseTo(-0.2 / Math.sqrt(20 / 29 / 30), 12);
    expect(A!.p).toBeCloseTo(0.09873008940377137, 8);
    // B: +1 on rows 1-10, ties (both align 1/2 with A and C) on 21-30: mean 1/3.
    expect(B!.t).toBeCloseTo(1.5231546211727816, 10);
    expect(B!.p).toBeCloseTo(0.9307242631557018, 8);
    expect(C!.p).toBe(B!.p);
    // Alignment: the judge matches the others on 20 rows of 30, as A does.
    expect(A!.judgeAlignment).toBeCloseTo(2 / 3, 12);
    expect(A!.annotatorAlignment).toBeCloseTo(2 / 3, 12);
  });

  it('rejects none after Benjamini-Yekutieli: omega 0, the judge cannot replace an annotator', () => {
    // m = 3: BY's thresholds are 0.0091, 0.0182, 0.0273; the smallest p is 0.0987.
    expect(result.annotators.map((a) => a.won)).toEqual([false, false, false]);
    expect(result.omega).toBe(0);
    expect(result.rho).toBeCloseTo(2 / 3, 12);
    expect(result.verdict).toBe('cannot replace');
    expect(result.reason).toMatch(/won against 0 of 3 annotators \(omega 0\.00 < 0\.5/);
  });

  it('passes a judge that follows the majority: it never aligns worse than the one left out', () => {
    const pass = altTest(handCase(Array.from({ length: 30 }, (_, i) => (i < 20 ? 0 : 1))));
    // A: d = -1 on rows 21-30 (t -6.09, p 6.2e-7); B and C: d = 0 on every row, no spread, so p = 0.
    expect(pass.annotators[0]!.p).toBeCloseTo(6.178867400074036e-7, 12);
    expect(pass.annotators[1]!.t).toBeNull();
    expect(pass.annotators[1]!.p).toBe(0);
    expect(pass.omega).toBe(1);
    expect(pass.verdict).toBe('can replace');
  });
});

describe('pairedTTest', () => {
  it('is the one-sided t-test of mean d >= epsilon', () => {
    // d = 1, 0, 0, -1, 1: mean 0.2, sd sqrt(0.7).
    const t = pairedTTest(1, 3, 5, 0);
    expect(t.t).toBeCloseTo(0.2 / Math.sqrt(0.7 / 5), 12);
    expect(t.p).toBeCloseTo(studentTCdf(t.t!, 4), 12);
  });

  it('gives p 0 or 1 when d never varies, by the side of epsilon its mean is on', () => {
    expect(pairedTTest(-30, 30, 30, 0.2)).toEqual({ t: null, p: 0 });
    expect(pairedTTest(30, 30, 30, 0.2)).toEqual({ t: null, p: 1 });
    expect(pairedTTest(1, 1, 1, 0.2)).toEqual({ t: null, p: null });
  });
});

describe('altTest minimums', () => {
  it('gives no verdict with two annotators', () => {
    const data = annotated(1, 100, { A: 2, judge: 0.9 });
    const r = altTest(data);
    expect(r.verdict).toBeNull();
    expect(r.omega).toBeNull();
    expect(r.reason).toBe('No verdict: 2 annotators; the alt-test needs at least 3.');
  });

  it('leaves out an annotator with fewer than 30 shared rows and gives no verdict when fewer than 3 remain', () => {
    const data = annotated(2, 60, { A: 3, judge: 0.9 });
    // The third annotator rates only 20 rows.
    for (let i = 20; i < 60; i++) data.ratings[i * 3 + 2] = -1;
    const r = altTest(data);
    expect(r.annotators[2]!.n).toBe(20);
    expect(r.annotators[2]!.leftOut).toBe(
      'annotator_3 rated 20 rows with another annotator; the test needs 30',
    );
    expect(r.tested).toBe(2);
    expect(r.verdict).toBeNull();
    expect(r.reason).toMatch(/2 of 3 annotators rated at least 30 rows/);
  });

  it('uses only rows with two ratings and an answer of the judge', () => {
    const data = annotated(3, 50, { A: 3, judge: 0.9 });
    data.judge[0] = -1;
    data.ratings[1 * 3 + 1] = -1;
    data.ratings[1 * 3 + 2] = -1;
    const r = altTest(data);
    expect(r.rows).toBe(48);
    expect(r.annotators[0]!.n).toBe(48);
    expect(r.annotators[1]!.n).toBe(48);
  });
});

describe('altTest properties', () => {
  it('passes a judge that copies one annotator', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = altTest(annotated(seed, 100, { A: 3, judge: 'copy', accuracy: 0.75 }));
      expect(r.verdict).toBe('can replace');
      expect(r.omega).toBeGreaterThanOrEqual(0.5);
    }
  });

  it('fails a judge that guesses', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = altTest(annotated(seed, 100, { A: 4, judge: 'random', accuracy: 0.8 }));
      expect(r.verdict).toBe('cannot replace');
      expect(r.wins).toBe(0);
      expect(r.rho!).toBeLessThan(0.6);
    }
  });

  it('scores a score question by negative RMSE against the others', () => {
    // Levels: A = 0, B = 2, C = 4 on every row; the judge says 2. Leaving A out, the judge's RMSE to {2, 4} is
    // sqrt(2) and A's is sqrt(10): the judge aligns better. Leaving B out, B's RMSE to {0, 4} equals the judge's.
    const columns = { A: Array(30).fill(0), B: Array(30).fill(2), C: Array(30).fill(4) };
    const data = trustDataOf({
      type: 'score',
      classes: ['0', '1', '2', '3', '4'],
      columns,
      judge: Array(30).fill(2),
    });
    const r = altTest(data);
    expect(r.metric).toBe('neg_rmse');
    expect(r.annotators[0]!.judgeAlignment).toBeCloseTo(-Math.sqrt(2), 12);
    expect(r.annotators[0]!.annotatorAlignment).toBeCloseTo(-Math.sqrt(10), 12);
    expect(r.annotators[1]!.judgeAdvantage).toBe(1);
    expect(r.annotators[1]!.annotatorAdvantage).toBe(1);
    expect(r.verdict).toBe('can replace');
  });
});
