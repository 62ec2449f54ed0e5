// The distribution functions the trust statistics need, in one place: jstat is imported here and nowhere else, so a
// replacement (or a hand-written incomplete beta) changes one file.
import jStat from 'jstat';

/** P(T <= t) for Student's t with `dof` degrees of freedom. */
export function studentTCdf(t: number, dof: number): number {
  if (t === Number.NEGATIVE_INFINITY) return 0;
  if (t === Number.POSITIVE_INFINITY) return 1;
  return jStat.studentt.cdf(t, dof);
}

/** The p-quantile of Beta(a, b), a and b positive. */
export function betaQuantile(p: number, a: number, b: number): number {
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  return jStat.beta.inv(p, a, b);
}

/** The p-quantile of the standard normal distribution. */
export function normalQuantile(p: number): number {
  return jStat.normal.inv(p, 0, 1);
}
