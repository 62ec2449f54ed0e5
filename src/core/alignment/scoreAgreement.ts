// Agreement on a score question: exact agreement, within one level, quadratic weighted kappa, Spearman, MAE.
import type { Confusion } from './kappa';
import { kappaOf } from './kappa';

/** Share of rows whose predicted level is within `d` levels of the label (d = 0 is exact agreement). */
export function withinOf(m: Confusion, K: number, d: number): number | null {
  let n = 0;
  let near = 0;
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) {
      n += m[i * K + j]!;
      if (Math.abs(i - j) <= d) near += m[i * K + j]!;
    }
  return n === 0 ? null : near / n;
}

/** Quadratic weighted kappa over the question's K levels. */
export const qwkOf = (m: Confusion, K: number, weights: Float64Array): number | null =>
  kappaOf(m, K, weights);

/** Mean absolute difference between a value per row and the label level, over the given rows. */
export function maeOf(
  values: ArrayLike<number>,
  truth: ArrayLike<number>,
  indices: ArrayLike<number> | null,
): number | null {
  const n = indices ? indices.length : values.length;
  if (n === 0) return null;
  let sum = 0;
  for (let j = 0; j < n; j++) {
    const i = indices ? indices[j]! : j;
    sum += Math.abs(values[i]! - truth[i]!);
  }
  return sum / n;
}

/**
 * Codes for a column of numbers: each value's position among the distinct values, ascending. With codes, ranks of any
 * resample come from counts per code in one pass, without sorting again.
 */
export function rankCodes(values: ArrayLike<number>): { codes: Uint32Array; distinct: number } {
  const sorted = Float64Array.from(values).sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++)
    if (i === 0 || sorted[i] !== sorted[distinct - 1]) sorted[distinct++] = sorted[i]!;
  // A binary search in the distinct values: typed and allocation-free, where a Map of doubles hashed every value.
  const codes = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    let lo = 0;
    let hi = distinct - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    codes[i] = lo;
  }
  return { codes, distinct };
}

/** Midranks (1-based, ties averaged) per code, from counts per code. */
function midranks(counts: Float64Array): Float64Array {
  const ranks = new Float64Array(counts.length);
  let below = 0;
  for (let c = 0; c < counts.length; c++) {
    ranks[c] = below + (counts[c]! + 1) / 2;
    below += counts[c]!;
  }
  return ranks;
}

/**
 * Spearman's rank correlation (Pearson correlation of midranks) between two coded columns over the given rows. Null
 * when either column is constant on those rows.
 */
export function spearmanOf(
  a: { codes: Uint32Array; distinct: number },
  b: { codes: Uint32Array; distinct: number },
  indices: ArrayLike<number> | null,
): number | null {
  const n = indices ? indices.length : a.codes.length;
  if (n < 2) return null;
  const ca = new Float64Array(a.distinct);
  const cb = new Float64Array(b.distinct);
  for (let j = 0; j < n; j++) {
    const i = indices ? indices[j]! : j;
    ca[a.codes[i]!]! += 1;
    cb[b.codes[i]!]! += 1;
  }
  const ra = midranks(ca);
  const rb = midranks(cb);
  const mean = (n + 1) / 2;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let j = 0; j < n; j++) {
    const i = indices ? indices[j]! : j;
    const x = ra[a.codes[i]!]! - mean;
    const y = rb[b.codes[i]!]! - mean;
    sab += x * y;
    saa += x * x;
    sbb += y * y;
  }
  if (saa === 0 || sbb === 0) return null;
  return sab / Math.sqrt(saa * sbb);
}
