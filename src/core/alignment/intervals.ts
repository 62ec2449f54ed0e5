// Intervals: Wilson's score interval for proportions and the seeded percentile bootstrap for everything else.
import { resampleCounts, seededStream } from './rng';

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** Wilson's score interval (no continuity correction; Newcombe 1998, method 3) for k successes out of n. */
export function wilson(k: number, n: number, z = Z95): { lo: number; hi: number } {
  if (n === 0) return { lo: 0, hi: 1 };
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const denom = 1 + z2 / n;
  return { lo: Math.max(0, (centre - spread) / denom), hi: Math.min(1, (centre + spread) / denom) };
}

/** The q-quantile of sorted values, linear between order statistics (R's type 7, numpy's default). */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * Resamples to draw when the caller leaves B open: 1,000 up to 10,000 rows, then fewer so a large file keeps the same
 * work (about ten million row visits), never fewer than 200.
 */
export function bootstrapSize(n: number): number {
  if (n <= 10_000) return 1000;
  return Math.max(200, Math.floor(1e7 / n));
}

/** The resampled values of several named statistics: what percentile intervals are read from. */
export interface BootstrapDraws {
  B: number;
  seed: number;
  keys: readonly string[];
  /** B rows of keys.length values (NaN where a statistic was undefined on that resample). */
  values: Float64Array;
}

/**
 * Draws B resamples of n rows (seeded) and evaluates every statistic on each: `fill` gets the resample as row weights
 * (how many times each row was drawn) and writes one value per key into `out` (NaN where undefined, e.g. kappa with
 * one class).
 */
export function bootstrap(
  n: number,
  B: number,
  seed: number,
  keys: readonly string[],
  fill: (weights: Uint32Array, out: Float64Array, draw: number) => void,
): BootstrapDraws {
  const stream = seededStream(seed);
  const weights = new Uint32Array(n);
  const values = new Float64Array(B * keys.length).fill(Number.NaN);
  for (let b = 0; b < B && n > 0; b++)
    fill(resampleCounts(n, stream, weights), values.subarray(b * keys.length, (b + 1) * keys.length), b);
  return { B, seed, keys, values };
}

/** The defined resampled values of one statistic, sorted. */
export function drawsOf(draws: BootstrapDraws, key: string): Float64Array {
  const at = draws.keys.indexOf(key);
  if (at === -1) return new Float64Array(0);
  const list: number[] = [];
  for (let b = 0; b < draws.B; b++) {
    const v = draws.values[b * draws.keys.length + at]!;
    if (Number.isFinite(v)) list.push(v);
  }
  return Float64Array.from(list).sort();
}

/**
 * The 95% percentile interval of one statistic's resamples, or nulls when fewer than half of the resamples defined it
 * (then the interval would describe a different population from the estimate).
 */
export function percentileInterval(
  draws: BootstrapDraws,
  key: string,
): { lo: number | null; hi: number | null } {
  const sorted = drawsOf(draws, key);
  if (sorted.length === 0 || sorted.length < draws.B / 2) return { lo: null, hi: null };
  return { lo: quantileSorted(sorted, 0.025), hi: quantileSorted(sorted, 0.975) };
}

/** The method text of a bootstrap figure. */
export const bootstrapMethod = (draws: Pick<BootstrapDraws, 'B' | 'seed'>, what: string): string =>
  `${what}; 95% percentile bootstrap over rows, B=${draws.B}, seed ${draws.seed}`;
