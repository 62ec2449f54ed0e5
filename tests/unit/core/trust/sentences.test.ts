// The one-sentence readers: each says its finding with its numbers, and says plainly when there is none.
import { describe, expect, it } from 'vitest';
import type { AltTest } from '../../../../src/core/trust/altTest';
import type { Cascade } from '../../../../src/core/trust/cascade';
import type { CeilingFigures } from '../../../../src/core/trust/ceiling';
import type { GuaranteedThreshold } from '../../../../src/core/trust/guaranteedThreshold';
import type { PpiMean } from '../../../../src/core/trust/ppi';
import {
  altTestSentence,
  cascadeSentence,
  ceilingSentence,
  estimateSentence,
  thresholdSentence,
} from '../../../../src/core/trust/sentences';

const fig = (value: number | null, lo: number | null, hi: number | null, n: number) => ({
  value,
  lo,
  hi,
  n,
  method: '',
});

describe('sentences', () => {
  it('sets the judge beside the ceiling', () => {
    const c = {
      alpha: { nominal: fig(0.72, 0.68, 0.76, 580) },
      judgeMajority: fig(0.49, 0.43, 0.55, 600),
    } as unknown as CeilingFigures;
    expect(ceilingSentence(c)).toBe(
      'The judge agrees with the majority at kappa 0.49 [0.43, 0.55] (n = 600); people agree with each other at alpha 0.72 [0.68, 0.76] (n = 580).',
    );
    const undefinedKappa = { ...c, judgeMajority: { ...fig(null, null, null, 0), undefinedReason: 'x' } };
    expect(ceilingSentence(undefinedKappa as CeilingFigures)).toContain('at kappa undefined (n = 0)');
  });

  it('gives the alt-test’s verdict with its reason, or why there is none', () => {
    const t = {
      verdict: 'can replace',
      rho: 0.81,
      reason:
        'The judge won against 3 of 3 annotators (omega 1.00 >= 0.5, epsilon 0.2, Benjamini-Yekutieli at q = 0.05).',
    } as AltTest;
    expect(altTestSentence(t)).toBe(
      'The judge can replace an annotator: it won against 3 of 3 annotators (omega 1.00 >= 0.5, epsilon 0.2, Benjamini-Yekutieli at q = 0.05). Its average advantage probability is 0.81.',
    );
    const none = {
      verdict: null,
      reason: 'No verdict: 2 annotators; the alt-test needs at least 3.',
    } as AltTest;
    expect(altTestSentence(none)).toBe('No verdict: 2 annotators; the alt-test needs at least 3.');
  });

  it('names the certified threshold and its coverage, or says no threshold certifies', () => {
    const base = { alpha: 0.1, delta: 0.1, minRows: 30, eligible: 600, tested: 12, failed: null };
    const t = {
      ...base,
      threshold: 0.83,
      rows: 246,
      coverage: 0.41,
      agreement: 0.95,
      bound: 0.09,
    } as GuaranteedThreshold;
    expect(thresholdSentence(t)).toBe(
      'The judge certifies 90% agreement with the majority (with 90% confidence) at confidence >= 0.83, covering 41% of the labelled rows (246 of 600; agreement there 95%).',
    );
    const none = {
      ...base,
      threshold: null,
      rows: 0,
      coverage: 0,
      agreement: null,
      bound: null,
      failed: { threshold: 0.97, rows: 31, agreement: 0.87, bound: 0.24 },
    } as GuaranteedThreshold;
    expect(thresholdSentence(none)).toMatch(
      /^No threshold certifies 90% agreement with the majority with 90% confidence \(at the highest, confidence >= 0\.97, 31 rows agree 87%/,
    );
    expect(thresholdSentence(none)).toMatch(/every row goes to a person\.$/);
    expect(thresholdSentence({ ...none, eligible: 12, failed: null, tested: 0 })).toBe(
      'No threshold certifies 90% agreement with the majority with 90% confidence (12 labelled rows the judge answered; a threshold must keep at least 30): every row goes to a person.',
    );
  });

  it('compares the cascade’s cost with its strongest judge alone', () => {
    const c = {
      delta: 0.1,
      deltaPerJudge: 0.05,
      lastAnswersAll: false,
      rows: 100,
      coverage: 0.9,
      certifiedCoverage: 0.9,
      guaranteedAgreement: 0.9,
      costPerRow: 0.0031,
      strongestCostPerRow: 0.01,
      saving: 0.69,
      judges: [
        { name: 'local', settled: 52 },
        { name: 'hosted', settled: 38 },
      ],
    } as Cascade;
    expect(cascadeSentence(c)).toBe(
      'The cascade settles 90% of the labelled rows (local 52%, hosted 38%) with at least 90% agreement guaranteed on the 90% settled under a certificate (delta 0.1 split as 0.05 per judge), at 0.0031 per row against 0.01 for hosted alone (69% less).',
    );
  });

  it('sets PPI beside the classical interval and the judge’s raw share', () => {
    const p = {
      n: 600,
      N: 5000,
      lambda: 0.84,
      tuned: true,
      ppi: { value: 0.231, lo: 0.21, hi: 0.252, se: 0.0107 },
      classical: { value: 0.225, lo: 0.198, hi: 0.252, se: 0.0138 },
      judgeMean: 0.27,
      widthRatio: 0.042 / 0.054,
    } as PpiMean;
    expect(estimateSentence('Share of urgent', p, true)).toBe(
      "Share of urgent: 23.1% [21.0%, 25.2%] by prediction-powered inference (lambda 0.84, 600 labelled and 5000 judge-only rows), 22% narrower than 22.5% [19.8%, 25.2%] from the labelled rows alone; the judge's raw share is 27.0%.",
    );
    expect(estimateSentence('Mean level', null, false)).toMatch(/no prediction-powered estimate/);
  });

  it('names the predictor: the judge’s probabilities (and its mean probability) or its hard labels', () => {
    const p = {
      n: 600,
      N: 5000,
      lambda: 0.9,
      tuned: true,
      ppi: { value: 0.231, lo: 0.215, hi: 0.247, se: 0.008 },
      classical: { value: 0.225, lo: 0.198, hi: 0.252, se: 0.0138 },
      judgeMean: 0.24,
      widthRatio: 0.008 / 0.0138,
    } as PpiMean;
    expect(estimateSentence('Share of urgent', p, true, 'probability')).toMatch(
      /^Share of urgent: 23\.1% \[21\.5%, 24\.7%\] by prediction-powered inference on the judge's probabilities \(lambda 0\.90,.*; the judge's mean probability is 24\.0%\.$/,
    );
    expect(estimateSentence('Mean level', p, false, 'probability')).toMatch(
      /the judge's mean expected level is 0\.24\.$/,
    );
    expect(estimateSentence('Share of urgent', p, true, 'label')).toMatch(
      /inference on the judge's hard labels \(lambda.*the judge's raw share is 24\.0%\.$/,
    );
  });
});
