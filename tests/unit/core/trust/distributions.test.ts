// The distribution functions behind the alt-test and the exact bounds, against table values.
import { describe, expect, it } from 'vitest';
import { betaQuantile, normalQuantile, studentTCdf } from '../../../../src/core/trust/distributions';

describe('distributions', () => {
  it("gives Student's t table values", () => {
    // t(0.95, 29) = 1.699127, t(0.975, 29) = 2.045230, t(0.975, 1) = 12.7062.
    expect(studentTCdf(-1.699127, 29)).toBeCloseTo(0.05, 6);
    expect(studentTCdf(2.04523, 29)).toBeCloseTo(0.975, 6);
    expect(studentTCdf(12.7062, 1)).toBeCloseTo(0.975, 5);
    expect(studentTCdf(Number.NEGATIVE_INFINITY, 5)).toBe(0);
  });

  it('gives beta quantiles, including the closed form 1 - (1 - p)^(1/b) of Beta(1, b)', () => {
    expect(betaQuantile(0.9, 1, 30)).toBeCloseTo(1 - Math.pow(0.1, 1 / 30), 10);
    expect(betaQuantile(0.5, 2, 2)).toBeCloseTo(0.5, 10);
    expect(betaQuantile(0, 3, 4)).toBe(0);
    expect(betaQuantile(1, 3, 4)).toBe(1);
  });

  it('gives the normal quantile of a 95% interval', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963985, 8);
  });
});
