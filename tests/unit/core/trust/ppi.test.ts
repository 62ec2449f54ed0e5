// Prediction-powered inference for a mean: ppi_py's own tests (the point estimate of test_ppi_mean_pointestimate,
// the coverage of test_ppi_mean_ci), a 10 + 15 row case computed by hand (and with numpy following ppi_py's code),
// and the properties PPI++ promises: a perfect judge narrows the interval, a guessing judge's lambda goes to 0.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/contract/random';
import { normalQuantile } from '../../../../src/core/trust/distributions';
import { ppiLambda, ppiMean } from '../../../../src/core/trust/ppi';
import { normals } from './simulate';

describe('ppi_py tests', () => {
  it('test_ppi_mean_pointestimate: Yhat = Y + 2 and unlabelled predictions all 2 give 0', () => {
    const random = seededRandom(1);
    const y = normals(random, 100);
    const f = y.map((v) => v + 2);
    const fu = new Float64Array(10_000).fill(2);
    const p = ppiMean(y, f, fu)!;
    // lambda clips to 1: theta = 2 + mean(Y - (Y + 2)) = 0.
    expect(p.lambda).toBe(1);
    expect(p.ppi.value).toBeCloseTo(0, 12);
  });

  it('test_ppi_mean_ci: covers the mean at least 1 - alpha - 0.1 of the time for every alpha', () => {
    const alphas = [0.5, 0.2, 0.1, 0.05, 0.01];
    const covered = alphas.map(() => 0);
    const random = seededRandom(7);
    const trials = 100;
    for (let t = 0; t < trials; t++) {
      const y = normals(random, 10_000, 0, 1);
      const f = normals(random, 10_000, -2, 1);
      const fu = normals(random, 10_000, -2, 1);
      alphas.forEach((a, j) => {
        const p = ppiMean(y, f, fu, null, normalQuantile(1 - a / 2))!;
        if (p.ppi.lo <= 0 && p.ppi.hi >= 0) covered[j]!++;
      });
    }
    alphas.forEach((a, j) => expect(covered[j]! / trials).toBeGreaterThanOrEqual(1 - a - 0.1));
  });
});

describe('ppiMean by hand', () => {
  const y = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1];
  const f = [1, 0, 1, 0, 0, 1, 1, 0, 1, 1];
  const fu = [1, 0, 0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1];

  it('power-tunes lambda as ppi_py: cov(Y, f) / ((1 + n/N) var(all f)) = 0.14 / (5/3 * 0.2567) = 18/55', () => {
    // cov over the 10 labelled rows (divided by n) is 0.14; the 25 predictions hold 14 ones: variance 25 * 0.56 *
    // 0.44 / 24.
    expect(ppiLambda(y, f, fu)).toBeCloseTo(18 / 55, 12);
  });

  it('gives the estimate and interval numpy gives following ppi_py’s ppi_mean_ci', () => {
    const p = ppiMean(y, f, fu)!;
    // theta = lambda * 8/15 + mean(Y - lambda f) = 0.17455 + 0.40364.
    expect(p.ppi.value).toBeCloseTo(0.5781818181818181, 12);
    expect(p.ppi.se).toBeCloseTo(0.13850679489254294, 12);
    expect(p.ppi.lo).toBeCloseTo(0.3067134885783577, 10);
    expect(p.ppi.hi).toBeCloseTo(0.8496501477852786, 10);
    // The classical interval: mean 0.6, standard error sqrt(0.24 / 10).
    expect(p.classical.value).toBeCloseTo(0.6, 12);
    expect(p.classical.se).toBeCloseTo(0.15491933384829668, 12);
    expect(p.judgeMean).toBeCloseTo(14 / 25, 12);
    expect(p.widthRatio).toBeCloseTo(0.13850679489254294 / 0.15491933384829668, 10);
    expect(p).toMatchObject({ n: 10, N: 15, tuned: true });
  });

  it('is the classical interval with lambda 0 and plain PPI with lambda 1', () => {
    const classical = ppiMean(y, f, fu, 0)!;
    expect(classical.ppi).toEqual(classical.classical);
    const plain = ppiMean(y, f, fu, 1)!;
    // theta = 8/15 + mean(Y - f) = 8/15 + 0.
    expect(plain.ppi.value).toBeCloseTo(8 / 15, 12);
    expect(plain.tuned).toBe(false);
  });

  it('clips both intervals to the range the mean can take', () => {
    const p = ppiMean([1, 1, 1, 0], [1, 1, 1, 1], [1, 1, 0], null, 1.96, [0, 1])!;
    expect(p.classical.hi).toBe(1);
    expect(p.classical.lo).toBeGreaterThan(0);
    expect(ppiMean([1, 1, 1, 0], [1, 1, 1, 1], [1, 1, 0])!.classical.hi).toBeGreaterThan(1);
  });

  it('needs two labelled rows and one unlabelled one, and the same number of labels and predictions', () => {
    expect(ppiMean([1], [1], [1, 0])).toBeNull();
    expect(ppiMean([1, 0], [1, 0], [])).toBeNull();
    expect(() => ppiMean([1, 0], [1], [1])).toThrow(/2 labels but 1 predictions/);
  });

  it('gives the same figures from counts of distinct values as from the rows written out', () => {
    // The 10 labelled rows as their (y, f) pairs (0,0) x3, (0,1) x1, (1,0) x1, (1,1) x5; the 15 unlabelled as 0 x7, 1 x8.
    const weights = { labelled: [3, 1, 1, 5], unlabelled: [7, 8] };
    for (const lambda of [null, 0, 1]) {
      const counted = ppiMean([0, 0, 1, 1], [0, 1, 0, 1], [0, 1], lambda, 1.96, [0, 1], weights)!;
      const rows = ppiMean(y, f, fu, lambda, 1.96, [0, 1])!;
      expect(counted.n).toBe(10);
      expect(counted.N).toBe(15);
      for (const key of ['lambda', 'judgeMean', 'widthRatio'] as const)
        expect(counted[key], key).toBeCloseTo(rows[key]!, 12);
      for (const part of ['ppi', 'classical'] as const)
        for (const key of ['value', 'lo', 'hi', 'se'] as const)
          expect(counted[part][key], `${part}.${key}`).toBeCloseTo(rows[part][key], 12);
    }
    expect(
      ppiMean([0, 1], [0, 1], [1], null, 1.96, [0, 1], { labelled: [1, 0], unlabelled: [4] }),
    ).toBeNull();
  });

  it('gives a judge whose predictions never vary lambda 0', () => {
    expect(ppiLambda([1, 0, 1], [1, 1, 1], [1, 1])).toBe(0);
  });
});

describe('ppiMean properties', () => {
  /** n labelled and N unlabelled rows of a 0/1 label with prevalence 0.3, and a judge right `accuracy` of the time. */
  function prevalence(seed: number, n: number, N: number, accuracy: number | 'random') {
    const random = seededRandom(seed);
    const row = (): [number, number] => {
      const label = random() < 0.3 ? 1 : 0;
      const guess =
        accuracy === 'random' ? (random() < 0.5 ? 1 : 0) : random() < accuracy ? label : 1 - label;
      return [label, guess];
    };
    const labelled = Array.from({ length: n }, row);
    return {
      y: labelled.map(([l]) => l),
      f: labelled.map(([, g]) => g),
      fu: Array.from({ length: N }, () => row()[1]),
    };
  }

  it('narrows the interval with a perfect judge', () => {
    for (const seed of [1, 2, 3]) {
      const { y, f, fu } = prevalence(seed, 300, 5000, 1);
      const p = ppiMean(y, f, fu)!;
      expect(p.lambda).toBeGreaterThan(0.8);
      expect(p.widthRatio!).toBeLessThan(0.5);
      expect(p.ppi.hi - p.ppi.lo).toBeLessThan(p.classical.hi - p.classical.lo);
    }
  });

  it('takes a guessing judge’s lambda to about 0, and its interval to the classical one', () => {
    for (const seed of [1, 2, 3]) {
      const { y, f, fu } = prevalence(seed, 20_000, 20_000, 'random');
      const p = ppiMean(y, f, fu)!;
      expect(p.lambda).toBeLessThan(0.03);
      expect(p.widthRatio!).toBeGreaterThan(0.99);
      expect(p.widthRatio!).toBeLessThan(1.01);
    }
  });
});
