// McNemar's test of paired accuracy: exact (binomial) for few discordant pairs, chi-square without correction otherwise.

/** Discordant pairs below which the exact binomial test is used (the chi-square approximation is poor there). */
export const MCNEMAR_EXACT_BELOW = 25;

/** Complementary error function (Numerical Recipes' erfcc, relative error below 1.2e-7). */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Two-sided exact binomial p-value of min(b, c) out of b + c at p = 1/2. */
function exactTwoSided(b: number, c: number): number {
  const n = b + c;
  const k = Math.min(b, c);
  // Sum of C(n, i) / 2^n for i <= k, in logs so large n does not overflow.
  let logC = 0; // log C(n, 0)
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    sum += Math.exp(logC - n * Math.LN2);
  }
  return Math.min(1, 2 * sum);
}

export interface McNemarResult {
  /** Pairs right in A and wrong in B, and the reverse. */
  b: number;
  c: number;
  /** The chi-square statistic (b - c)^2 / (b + c), without continuity correction; null when b + c = 0. */
  chiSquare: number | null;
  pValue: number;
  method: string;
}

/** McNemar's test on the discordant counts b and c. */
export function mcnemar(b: number, c: number): McNemarResult {
  const n = b + c;
  if (n === 0) return { b, c, chiSquare: null, pValue: 1, method: 'McNemar: no discordant pairs' };
  const chiSquare = ((b - c) * (b - c)) / n;
  if (n < MCNEMAR_EXACT_BELOW)
    return { b, c, chiSquare, pValue: exactTwoSided(b, c), method: 'McNemar exact (binomial), two-sided' };
  // Chi-square with 1 degree of freedom: P(X > x) = erfc(sqrt(x / 2)).
  return { b, c, chiSquare, pValue: erfc(Math.sqrt(chiSquare / 2)), method: 'McNemar chi-square, 1 df' };
}
