// Exact binomial (Clopper-Pearson 1934) intervals from beta quantiles: the interval holds at least its stated level
// for every n and p, which is what a guarantee (the certified threshold) needs and a normal or Wilson interval does not
// give for small counts or rates near 0.
import { betaQuantile } from './distributions';

/** The two-sided Clopper-Pearson interval for k successes in n at level 1 - a (default 95%). */
export function clopperPearson(k: number, n: number, a = 0.05): { lo: number; hi: number } {
  if (n === 0) return { lo: 0, hi: 1 };
  return {
    lo: k === 0 ? 0 : betaQuantile(a / 2, k, n - k + 1),
    hi: k === n ? 1 : betaQuantile(1 - a / 2, k + 1, n - k),
  };
}

/**
 * The one-sided upper Clopper-Pearson bound at level 1 - delta: the largest rate p for which seeing k or fewer in n
 * still has probability at least delta. With k = 0 it is 1 - delta^(1/n).
 */
export function clopperPearsonUpper(k: number, n: number, delta: number): number {
  if (n === 0 || k >= n) return 1;
  return betaQuantile(1 - delta, k + 1, n - k);
}
