// False discovery rate control on Benjamini & Hochberg's (1995) 15 p-values: BH at q = 0.05 rejects 4, BY (the
// alt-test's, valid under any dependence) rejects 3.
import { describe, expect, it } from 'vitest';
import { benjaminiHochberg, benjaminiYekutieli, harmonic } from '../../../../src/core/trust/multipleTesting';

const P = [
  0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719, 0.6528,
  0.759, 1,
];

describe('multiple testing', () => {
  it('rejects the 4 smallest by Benjamini-Hochberg', () => {
    expect(benjaminiHochberg(P, 0.05)).toEqual(P.map((_, i) => i < 4));
  });

  it('rejects the 3 smallest by Benjamini-Yekutieli', () => {
    expect(benjaminiYekutieli(P, 0.05)).toEqual(P.map((_, i) => i < 3));
  });

  it('reports rejections in input order, whatever the order of the p-values', () => {
    const shuffled = [P[9]!, P[2]!, P[0]!, P[14]!, P[1]!, P[3]!];
    // m = 6: BY's q' = 0.05 / 2.45; thresholds 0.0034, 0.0068, 0.0102, ...: 0.0001, 0.0004, 0.0019, 0.0095 all pass.
    expect(benjaminiYekutieli(shuffled, 0.05)).toEqual([false, true, true, false, true, true]);
    expect(harmonic(6)).toBeCloseTo(2.45, 10);
  });
});
