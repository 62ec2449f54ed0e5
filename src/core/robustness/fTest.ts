// The F distribution's upper tail: how often a ratio of two independent mean squares with d1 and d2 degrees of freedom
// reaches f when both estimate the same variance. The order verdict uses it to hold the spread between option orders
// against the spread between identical requests.

// Lanczos approximation (g = 7, 9 terms): log-gamma to about 15 digits for positive arguments.
const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** The logarithm of the gamma function, for x > 0. */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let a = LANCZOS[0]!;
  const t = y + LANCZOS_G + 0.5;
  for (let i = 1; i < LANCZOS.length; i++) a += LANCZOS[i]! / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

// The continued fraction converges in a few dozen steps for the small degrees of freedom a check has; 300 is ample.
const MAX_STEPS = 300;
// Relative precision the continued fraction stops at.
const EPSILON = 1e-14;
// Stands in for zero in Lentz's method, so no step divides by zero.
const TINY = 1e-300;

/** The continued fraction of the incomplete beta function (modified Lentz). */
function betaFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_STEPS; m++) {
    const m2 = 2 * m;
    for (const aa of [
      (m * (b - m) * x) / ((qam + m2) * (a + m2)),
      (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2)),
    ]) {
      d = 1 + aa * d;
      if (Math.abs(d) < TINY) d = TINY;
      c = 1 + aa / c;
      if (Math.abs(c) < TINY) c = TINY;
      d = 1 / d;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < EPSILON) break;
  }
  return h;
}

/** The regularised incomplete beta function I_x(a, b). */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The fraction converges fast on this side of the mean; the other side by symmetry.
  return x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(a, b, x)) / a
    : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** P(F > f) for F with d1 and d2 degrees of freedom: 1 at f <= 0, 0 at f = Infinity. */
export function fUpperTail(f: number, d1: number, d2: number): number {
  if (!(f > 0)) return 1;
  if (f === Infinity) return 0;
  return regularizedBeta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
}
