// Exact binomial intervals against Newcombe (1998), "Two-sided confidence intervals for the single proportion",
// Table I, method 5 (Clopper-Pearson), and the one-sided bound's closed form with no failures.
import { describe, expect, it } from 'vitest';
import { clopperPearson, clopperPearsonUpper } from '../../../../src/core/trust/clopperPearson';

describe('clopperPearson', () => {
  it.each([
    [81, 263, 0.2527, 0.3676],
    [15, 148, 0.0578, 0.1617],
    [0, 20, 0, 0.1684],
    [1, 29, 0.0009, 0.1776],
    [29, 29, 0.8806, 1],
  ])('gives Newcombe’s exact interval for %i/%i', (k, n, lo, hi) => {
    const ci = clopperPearson(k, n);
    expect(ci.lo).toBeCloseTo(lo, 4);
    expect(ci.hi).toBeCloseTo(hi, 4);
  });

  it('gives 1 - delta^(1/n) as the one-sided upper bound with no failures, and 1 when all fail', () => {
    expect(clopperPearsonUpper(0, 30, 0.1)).toBeCloseTo(1 - Math.pow(0.1, 1 / 30), 10);
    expect(clopperPearsonUpper(5, 5, 0.1)).toBe(1);
    expect(clopperPearsonUpper(0, 0, 0.1)).toBe(1);
  });

  it('makes the one-sided bound the rate at which k or fewer failures have probability delta', () => {
    // P(X <= 1) for X ~ Bin(31, u) equals delta at the bound.
    const u = clopperPearsonUpper(1, 31, 0.1);
    const cdf = Math.pow(1 - u, 31) + 31 * u * Math.pow(1 - u, 30);
    expect(cdf).toBeCloseTo(0.1, 10);
  });
});
