// Intervals that stay honest when the best of many variants is picked: the max-t method (Hothorn, Bretz & Westfall
// 2008) with its critical value from a Gaussian multiplier bootstrap of the maximum statistic (Chernozhukov,
// Chetverikov & Kato 2013). Every variant's difference from the base on the same rows has a row influence vector
// (linearised.ts); their joint covariance is the influences' cross-products, and
//   c = the (1 − α) quantile of max_k |Z_k| / σ_k,  Z ~ N(0, Σ),
// gives intervals est_k ± c σ_k that hold for all K variants at once. Multiplying each row's influence by a standard
// normal weight and summing draws exactly N(0, Σ̂), so the draws come from Σ̂'s Cholesky factor: K² work per draw
// instead of n K.
import { seededRandom } from '../../contract/random';
import { Z95 } from './intervals';

/** One variant's paired difference from the base, and each row's influence on it (the same rows for every variant). */
export interface VariantDifference {
  estimate: number;
  influence: ArrayLike<number>;
}

export interface AdjustedInterval {
  estimate: number;
  se: number;
  /** The pair's own 95% interval, as if it were the only variant tried. */
  lo: number;
  hi: number;
  /** The interval that holds for every variant tried at once. */
  adjustedLo: number;
  adjustedHi: number;
}

export interface SimultaneousIntervals {
  /** How many variants were counted, and the critical value c (1.96 for one variant). */
  tried: number;
  critical: number;
  intervals: AdjustedInterval[];
  /** The variant with the largest estimate, and what the best of `tried` gains by luck alone (the median of the
   * largest of K null differences on these rows). */
  best: number;
  luck: number;
  method: string;
}

export const SIMULTANEOUS_DRAWS = 10_000;

/** Σ_i (u_i − ū)(v_i − v̄): the covariance of two figures from their row influences (centredSquares when u = v). */
function crossProducts(influences: readonly ArrayLike<number>[]): Float64Array {
  const K = influences.length;
  const n = K === 0 ? 0 : influences[0]!.length;
  const centred = influences.map((u) => {
    let m = 0;
    for (let i = 0; i < n; i++) m += u[i]!;
    m /= n;
    return Float64Array.from({ length: n }, (_, i) => u[i]! - m);
  });
  const cov = new Float64Array(K * K);
  for (let a = 0; a < K; a++)
    for (let b = a; b < K; b++) {
      const ua = centred[a]!;
      const ub = centred[b]!;
      let s = 0;
      for (let i = 0; i < n; i++) s += ua[i]! * ub[i]!;
      cov[a * K + b] = s;
      cov[b * K + a] = s;
    }
  return cov;
}

/** The lower Cholesky factor of a K×K correlation matrix, a tiny ridge keeping it positive definite. */
function cholesky(r: Float64Array, K: number): Float64Array {
  const L = new Float64Array(K * K);
  for (let i = 0; i < K; i++)
    for (let j = 0; j <= i; j++) {
      let s = r[i * K + j]! + (i === j ? 1e-9 : 0);
      for (let k = 0; k < j; k++) s -= L[i * K + k]! * L[j * K + k]!;
      L[i * K + j] = i === j ? Math.sqrt(Math.max(s, 0)) : L[j * K + j]! > 0 ? s / L[j * K + j]! : 0;
    }
  return L;
}

/** Standard normal draws (Box-Muller over the contract's seeded generator). */
function normalsInto(random: () => number, out: Float64Array): void {
  for (let i = 0; i < out.length; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - random()));
    const t = 2 * Math.PI * random();
    out[i] = r * Math.cos(t);
    if (i + 1 < out.length) out[i + 1] = r * Math.sin(t);
  }
}

const quantile = (values: Float64Array, q: number): number => {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
};

/**
 * Adjusted intervals for every variant tried on the same rows. Variants whose difference never varies (σ = 0) keep
 * a zero-width interval and take no part in the maximum.
 */
export function simultaneousIntervals(
  variants: readonly VariantDifference[],
  options: { level?: number; draws?: number; seed?: number } = {},
): SimultaneousIntervals {
  const level = options.level ?? 0.95;
  const draws = options.draws ?? SIMULTANEOUS_DRAWS;
  const seed = options.seed ?? 0;
  const K = variants.length;
  const cov = crossProducts(variants.map((v) => v.influence));
  const se = Float64Array.from({ length: K }, (_, k) => Math.sqrt(cov[k * K + k]!));
  const live = [...se.keys()].filter((k) => se[k]! > 0);
  const m = live.length;
  const corr = new Float64Array(m * m);
  for (let a = 0; a < m; a++)
    for (let b = 0; b < m; b++)
      corr[a * m + b] = cov[live[a]! * K + live[b]!]! / (se[live[a]!]! * se[live[b]!]!);
  const L = cholesky(corr, m);
  const random = seededRandom(seed);
  const e = new Float64Array(m);
  const maxAbs = new Float64Array(draws);
  const maxGain = new Float64Array(draws);
  for (let d = 0; d < draws; d++) {
    normalsInto(random, e);
    let top = 0;
    let gain = Number.NEGATIVE_INFINITY;
    for (let a = 0; a < m; a++) {
      let z = 0;
      for (let b = 0; b <= a; b++) z += L[a * m + b]! * e[b]!;
      top = Math.max(top, Math.abs(z));
      gain = Math.max(gain, z * se[live[a]!]!);
    }
    maxAbs[d] = top;
    maxGain[d] = m === 0 ? 0 : gain;
  }
  const critical = m === 0 ? Z95 : quantile(maxAbs, level);
  const intervals = variants.map((v, k) => ({
    estimate: v.estimate,
    se: se[k]!,
    lo: v.estimate - Z95 * se[k]!,
    hi: v.estimate + Z95 * se[k]!,
    adjustedLo: v.estimate - critical * se[k]!,
    adjustedHi: v.estimate + critical * se[k]!,
  }));
  let best = 0;
  for (let k = 1; k < K; k++) if (variants[k]!.estimate > variants[best]!.estimate) best = k;
  return {
    tried: K,
    critical,
    intervals,
    best,
    luck: quantile(maxGain, 0.5),
    method: `${Math.round(level * 100)}% simultaneous intervals over ${K} variant${K === 1 ? '' : 's'} (max-t, critical value ${critical.toFixed(2)} from ${draws.toLocaleString('en-US')} Gaussian multiplier draws of the row influences, seed ${seed})`,
  };
}

/** "The best of 14 variants gains +0.06 kappa; picking the best of 14 by luck alone gives +0.04 on these rows." */
export function bestOfSentence(result: SimultaneousIntervals, figure: string, digits = 2): string {
  if (result.tried === 0) return 'No variant has been tried on these rows.';
  const b = result.intervals[result.best]!;
  // A value that rounds to zero prints without a sign: never "−0.00".
  const sign = (x: number): string =>
    Math.abs(x) < 0.5 * 10 ** -digits
      ? (0).toFixed(digits)
      : `${x > 0 ? '+' : '−'}${Math.abs(x).toFixed(digits)}`;
  const survives = b.adjustedLo > 0;
  return (
    `The best of ${result.tried} variant${result.tried === 1 ? '' : 's'} gains ${sign(b.estimate)} ${figure}; ` +
    `picking the best of ${result.tried} by luck alone gives ${sign(result.luck)} on these rows. ` +
    (survives
      ? `Its gain survives the count (adjusted interval ${sign(b.adjustedLo)} to ${sign(b.adjustedHi)}).`
      : `Its gain does not survive the count (adjusted interval ${sign(b.adjustedLo)} to ${sign(b.adjustedHi)} includes zero).`)
  );
}
