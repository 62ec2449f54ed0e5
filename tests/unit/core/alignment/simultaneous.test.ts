// Simultaneous intervals over many variants: one variant gives the plain 1.96 interval, perfectly correlated variants
// cost nothing, independent ones cost what Šidák says, and in seeded simulations of variants that are pure noise
// around the base, the best one's adjusted interval covers zero at least 95% of the time while its own does not.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/contract/random';
import { normalQuantile } from '../../../../src/core/trust/distributions';
import { bestOfSentence, simultaneousIntervals } from '../../../../src/core/alignment/simultaneous';
import type { VariantDifference } from '../../../../src/core/alignment/simultaneous';

/** n rows labelled, a base judge right 80% of the time, and K variants that each redraw 30% of its answers with the
 * same 80% accuracy: no variant is truly better. Each variant's accuracy difference and its row influences. */
function noiseVariants(random: () => number, n: number, K: number): VariantDifference[] {
  const base = Array.from({ length: n }, () => (random() < 0.8 ? 1 : 0));
  return Array.from({ length: K }, () => {
    const d = base.map((b) => (random() < 0.3 ? (random() < 0.8 ? 1 : 0) : b) - b);
    const mean = d.reduce((s, x) => s + x, 0) / n;
    // The influence of each row on a mean difference: (d_i − d̄) / n, whose squares sum to the variance of the mean.
    return { estimate: mean, influence: d.map((x) => (x - mean) / n) };
  });
}

describe('simultaneousIntervals', () => {
  it('gives one variant the plain 95% interval', () => {
    const [v] = noiseVariants(seededRandom(1), 300, 1);
    const r = simultaneousIntervals([v!], { seed: 1 });
    expect(r.critical).toBeGreaterThan(1.93);
    expect(r.critical).toBeLessThan(1.99);
  });

  it('costs nothing for copies of one variant, and Šidák’s price for independent ones', () => {
    const [v] = noiseVariants(seededRandom(2), 300, 1);
    expect(simultaneousIntervals([v!, v!, v!, v!], { seed: 2 }).critical).toBeLessThan(1.99);
    // Ten independent variants: c solves (2Φ(c) − 1)^10 = 0.95, c = Φ⁻¹((1 + 0.95^(1/10)) / 2) = 2.80.
    const independent = noiseVariants(seededRandom(3), 4000, 10);
    const sidak = normalQuantile((1 + 0.95 ** (1 / 10)) / 2);
    expect(simultaneousIntervals(independent, { seed: 3 }).critical).toBeCloseTo(sidak, 1);
  });

  it('covers zero with the best of 20 noise variants’ adjusted interval in at least 95% of 400 trials', () => {
    const random = seededRandom(20);
    let adjusted = 0;
    let plain = 0;
    const trials = 400;
    for (let t = 0; t < trials; t++) {
      const r = simultaneousIntervals(noiseVariants(random, 300, 20), { seed: t, draws: 2000 });
      const b = r.intervals[r.best]!;
      if (b.adjustedLo <= 0 && 0 <= b.adjustedHi) adjusted++;
      if (b.lo <= 0 && 0 <= b.hi) plain++;
    }
    expect(adjusted / trials).toBeGreaterThanOrEqual(0.95);
    // The winner's own interval, read as if it were the only one tried, misses zero far more often than 5%.
    expect(plain / trials).toBeLessThan(0.8);
  });

  it('says what the best gains and what luck alone gives', () => {
    const r = simultaneousIntervals(noiseVariants(seededRandom(4), 300, 14), { seed: 4 });
    const text = bestOfSentence(r, 'accuracy');
    expect(text).toMatch(
      /^The best of 14 variants gains [+−]\d\.\d\d accuracy; picking the best of 14 by luck alone gives \+\d\.\d\d on these rows\./,
    );
    expect(r.luck).toBeGreaterThan(0);
    expect(text).not.toMatch(/−0\.00/);
  });
});
