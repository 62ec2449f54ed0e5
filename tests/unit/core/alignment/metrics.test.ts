// Each metric against hand-computed values and the published worked examples named in the agreement note.
import { describe, expect, it } from 'vitest';
import { accuracyOf, macroF1Of, precisionOf, recallOf } from '../../../../src/core/alignment/choiceAgreement';
import {
  binOf,
  brierRow,
  eceOf,
  logLossRow,
  meanOf,
  reliabilityBins,
} from '../../../../src/core/alignment/calibration';
import {
  bootstrap,
  percentileInterval,
  quantileSorted,
  wilson,
} from '../../../../src/core/alignment/intervals';
import { confusionOf, kappaOf, quadraticWeights } from '../../../../src/core/alignment/kappa';
import { mcnemar } from '../../../../src/core/alignment/mcnemar';
import { aucOf, bestThreshold, countsAt, thresholdCurve } from '../../../../src/core/alignment/noulAgreement';
import { argmax, distributionOf, expectedRounded } from '../../../../src/core/labels/prediction';
import { roganGladen } from '../../../../src/core/alignment/roganGladen';
import { maeOf, rankCodes, spearmanOf } from '../../../../src/core/alignment/scoreAgreement';
import {
  selectiveCurve,
  selectiveReadout,
  selectiveSentence,
} from '../../../../src/core/alignment/selective';
import { seededRandom } from '../../../../src/core/alignment/rng';

/** A 2x2 matrix [[a, b], [c, d]] (rows: rater A yes/no; columns: rater B yes/no) as the flat confusion. */
const m2 = (a: number, b: number, c: number, d: number): Float64Array => Float64Array.from([a, b, c, d]);

describe("Cohen's kappa", () => {
  it('gives 0.40 on the 50-pair yes/no table of Wikipedia', () => {
    expect(kappaOf(m2(20, 5, 10, 15), 2)).toBeCloseTo(0.4, 10);
  });
  it('gives 0.1304 and 0.2593 on the two "same percentages" tables', () => {
    expect(kappaOf(m2(45, 15, 25, 15), 2)).toBeCloseTo(0.1304, 4);
    expect(kappaOf(m2(25, 35, 5, 35), 2)).toBeCloseTo(0.2593, 4);
  });
  it("matches scikit-learn's cohen_kappa_score example (0.6875)", () => {
    // y1 = [neg, pos, neg, neu, pos], y2 = [neg, pos, neg, neu, neg]; classes neg=0, neu=1, pos=2.
    const m = confusionOf([0, 2, 0, 1, 2], [0, 2, 0, 1, 0], 3, null);
    expect(kappaOf(m, 3)).toBeCloseTo(0.6875, 10);
  });
  it('is undefined when both raters use one and the same class only', () => {
    expect(kappaOf(m2(10, 0, 0, 0), 2)).toBeNull();
  });
  it('quadratic weighted kappa by hand on three levels', () => {
    // truth [0,1,2,2], predicted [0,2,2,1]: weights 0, .25, 1 by distance 0, 1, 2.
    const m = confusionOf([0, 1, 2, 2], [0, 2, 2, 1], 3, null);
    // observed = .25 + .25 = 0.5; rows [1,1,2], cols [1,1,2]; expected = sum w r_i c_j / 4 = 5.5 / 4 = 1.375.
    expect(kappaOf(m, 3, quadraticWeights(3))).toBeCloseTo(1 - 0.5 / 1.375, 12);
  });
});

describe('choice agreement', () => {
  const m = confusionOf([0, 0, 1, 1, 2], [0, 1, 1, 1, 0], 3, null);
  it('accuracy, precision, recall and macro F1 by hand', () => {
    expect(accuracyOf(m, 3)).toBeCloseTo(3 / 5);
    expect(precisionOf(m, 3, 1)).toBeCloseTo(2 / 3);
    expect(recallOf(m, 3, 0)).toBeCloseTo(1 / 2);
    expect(precisionOf(m, 3, 2)).toBeNull();
    // F1: class 0: 2*1/(2+2)=.5; class 1: 2*2/(2+3)=.8; class 2: 0.
    expect(macroF1Of(m, 3)).toBeCloseTo((0.5 + 0.8 + 0) / 3);
  });
});

describe('score agreement', () => {
  it('Spearman with ties equals Pearson on midranks', () => {
    const a = rankCodes([1, 2, 2, 3]);
    const b = rankCodes([1, 3, 2, 4]);
    // ranks a: 1, 2.5, 2.5, 4; b: 1, 3, 2, 4. Pearson by hand: 0.9486832980505138.
    expect(spearmanOf(a, b, null)).toBeCloseTo(0.9486832980505138, 12);
    expect(spearmanOf(rankCodes([1, 1, 1]), b, null)).toBeNull();
  });
  it('MAE by hand', () => {
    expect(maeOf([0.5, 2, 3], [0, 2, 1], null)).toBeCloseTo((0.5 + 0 + 2) / 3);
  });
});

describe('noul agreement', () => {
  it("ROC AUC matches scikit-learn's roc_auc_score example (0.75)", () => {
    expect(aucOf(rankCodes([0.1, 0.4, 0.35, 0.8]), [0, 0, 1, 1], null)).toBeCloseTo(0.75, 12);
  });
  it('counts a tie between a yes and a no as one half', () => {
    expect(aucOf(rankCodes([0.5, 0.5]), [1, 0], null)).toBe(0.5);
  });
  it('is undefined without negatives', () => {
    expect(aucOf(rankCodes([0.2, 0.9]), [1, 1], null)).toBeNull();
  });
  it('rates at a threshold are inclusive of it', () => {
    expect(countsAt([0.5, 0.49, 0.7, 0.1], [1, 1, 0, 0], 0.5, null)).toEqual({ tp: 1, fn: 1, fp: 1, tn: 1 });
  });
  it('finds the threshold with the best balanced accuracy', () => {
    const curve = thresholdCurve([0.1, 0.3, 0.35, 0.8], [0, 0, 1, 1]);
    const best = bestThreshold(curve)!;
    expect(best.balancedAccuracy).toBe(1);
    expect(best.threshold).toBe(0.35);
  });
});

describe('calibration', () => {
  it("Brier matches scikit-learn's brier_score_loss example (0.0375)", () => {
    const p = [0.1, 0.9, 0.8, 0.3];
    const y = [0, 1, 1, 0];
    expect(
      meanOf(
        p.map((x, i) => (x - y[i]!) ** 2),
        null,
      ),
    ).toBeCloseTo(0.0375, 12);
  });
  it("log loss matches scikit-learn's log_loss example (0.21616)", () => {
    // classes (ham, spam); truth spam, ham, ham, spam.
    const rows = [
      [0.1, 0.9, 1],
      [0.9, 0.1, 0],
      [0.8, 0.2, 0],
      [0.35, 0.65, 1],
    ];
    expect(
      meanOf(
        rows.map(([a, b, t]) => logLossRow(t === 1 ? b! : a!, 1e-15)),
        null,
      ),
    ).toBeCloseTo(0.21616, 5);
  });
  it('floors a zero probability so log loss stays finite', () => {
    expect(logLossRow(0, 1e-15)).toBeCloseTo(-Math.log(1e-15));
  });
  it('multi-class Brier by hand', () => {
    expect(brierRow([0.7, 0.2, 0.1], 1)).toBeCloseTo(0.49 + 0.64 + 0.01);
  });
  it('puts a value on a bin edge in the bin above it', () => {
    expect(binOf(0.3, 10)).toBe(3);
    expect(binOf(0.7, 10)).toBe(7);
    expect(binOf(1, 10)).toBe(9);
    expect(binOf(0.29, 10)).toBe(2);
  });
  it('ECE by hand: two bins off by 0.2 and 0.4', () => {
    // bin 8: p 0.8, 0.8 with one hit (0.5 observed): |0.5-0.8| = 0.3 ; bin 3: p 0.3 twice, both miss: 0.3.
    expect(eceOf([0.8, 0.8, 0.3, 0.3], [1, 0, 0, 0], 10, null)).toBeCloseTo((2 * 0.3 + 2 * 0.3) / 4);
    const bins = reliabilityBins([0.8, 0.8, 0.3, 0.3], [1, 0, 0, 0], 10);
    expect(bins[8]).toMatchObject({ count: 2, observed: 0.5 });
    expect(bins[8]!.meanPredicted).toBeCloseTo(0.8);
  });
});

describe('intervals', () => {
  it('Wilson reproduces Newcombe (1998) Table I', () => {
    const cases: [number, number, number, number][] = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ];
    for (const [k, n, lo, hi] of cases) {
      const w = wilson(k, n);
      expect(w.lo).toBeCloseTo(lo, 4);
      expect(w.hi).toBeCloseTo(hi, 4);
    }
  });
  it('type-7 quantiles', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075);
  });
  it('a seeded bootstrap is the same twice and differs by seed', () => {
    const values = Float64Array.from({ length: 50 }, (_, i) => (i * 37) % 11);
    const mean = (weights: Uint32Array, out: Float64Array) => {
      out[0] = meanOf(values, weights)!;
    };
    const a = percentileInterval(bootstrap(50, 200, 7, ['mean'], mean), 'mean');
    const b = percentileInterval(bootstrap(50, 200, 7, ['mean'], mean), 'mean');
    const c = percentileInterval(bootstrap(50, 200, 8, ['mean'], mean), 'mean');
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(a.lo!).toBeLessThan(meanOf(values, null)!);
    expect(a.hi!).toBeGreaterThan(meanOf(values, null)!);
  });
  it('the generator is seeded', () => {
    expect(seededRandom(3)()).toBe(seededRandom(3)());
  });
});

describe('McNemar', () => {
  it("gives chi-square 17.36 on Agresti's presidential approval table", () => {
    const r = mcnemar(150, 86);
    expect(r.chiSquare).toBeCloseTo(17.36, 2);
    expect(r.pValue).toBeLessThan(0.0001);
    expect(r.method).toMatch(/chi-square/);
  });
  it('is exact for few discordant pairs: 1 against 9 gives p = 0.0215', () => {
    const r = mcnemar(1, 9);
    // 2 * (C(10,0) + C(10,1)) / 2^10 = 22 / 1024.
    expect(r.pValue).toBeCloseTo(22 / 1024, 10);
    expect(r.method).toMatch(/exact/);
  });
});

describe('Rogan-Gladen', () => {
  it('corrects an apparent prevalence by hand', () => {
    // 23 of 150 positive, se 0.96, sp 0.89 (the epiR epi.prev brucellosis example): (0.1533 + 0.89 - 1) / 0.85.
    expect(roganGladen(23 / 150, 0.96, 0.89)).toBeCloseTo((23 / 150 - 0.11) / 0.85, 12);
  });
  it('clips to 0 when the apparent prevalence is below the false-positive rate', () => {
    expect(roganGladen(0.05, 0.9, 0.9)).toBe(0);
  });
  it('is undefined when the judge is no better than chance', () => {
    expect(roganGladen(0.3, 0.5, 0.5)).toBeNull();
  });
});

describe('predictions', () => {
  const choice = { type: 'choice' as const, criteria: { a: null, b: null, c: null } };
  it('renormalises a distribution that sums to 1.01 and reads ties as the first label', () => {
    const d = distributionOf(
      { type: 'choice', choice: 'a', confidence: 0, probabilities: { a: 0.4, b: 0.4, c: 0.21 } },
      choice,
    )!;
    expect(d.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
    expect(argmax(d)).toBe(0);
  });
  it('rounds the expected score halves up', () => {
    expect(expectedRounded([0.5, 0, 0.5])).toBe(1);
    expect(expectedRounded([0.5, 0.5])).toBe(1);
  });
});

describe('selective accuracy', () => {
  it('reads out the lowest threshold reaching 90% in a sentence', () => {
    const conf = [0.95, 0.9, 0.8, 0.6, 0.4];
    const correct = [1, 1, 1, 0, 0];
    const points = selectiveCurve(conf, correct);
    const readout = selectiveReadout(points)!;
    expect(readout.threshold).toBe(0.65);
    expect(readout.accuracy).toBe(1);
    expect(readout.coverage).toBe(0.6);
    expect(selectiveSentence(readout, 'top probability')).toBe(
      'Answers with top probability of at least 0.65 are 100% right and cover 60% of rows.',
    );
  });
});
