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
export function rankCodes(values: ArrayLike<number>): {
  codes: Uint32Array;
  distinct: number;
  /** The distinct values, ascending: code c stands for values[c]. */
  values: Float64Array;
} {
  // The distinct values are gathered in an open-addressing table keyed by their bits, and only they are sorted: answers
  // are rounded, so 100,000 rows hold a few hundred distinct values, and sorting every row cost as much as the rest.
  const word = new Float64Array(1);
  const halves = new Uint32Array(word.buffer);
  let bits = 10;
  let keys = new Float64Array(1 << bits);
  let slots = new Int32Array(1 << bits).fill(-1);
  const distinct: number[] = [];
  const slotOf = (v: number): number => {
    word[0] = v;
    // Fibonacci hashing: the product's top bits mix every bit of both halves.
    let at = Math.imul(halves[0]! ^ Math.imul(halves[1]!, 0x85ebca6b), 0x9e3779b1) >>> (32 - bits);
    while (slots[at] !== -1 && keys[at] !== v) at = (at + 1) & ((1 << bits) - 1);
    return at;
  };
  const insert = (v: number, code: number): void => {
    const at = slotOf(v);
    keys[at] = v;
    slots[at] = code;
  };
  for (let i = 0; i < values.length; i++) {
    const v = values[i]! + 0; // + 0: -0 reads as 0
    if (slots[slotOf(v)] !== -1) continue;
    distinct.push(v);
    insert(v, 0);
    if (distinct.length * 2 > 1 << bits) {
      bits++;
      keys = new Float64Array(1 << bits);
      slots = new Int32Array(1 << bits).fill(-1);
      for (const d of distinct) insert(d, 0);
    }
  }
  const sorted = Float64Array.from(distinct).sort();
  for (let c = 0; c < sorted.length; c++) slots[slotOf(sorted[c]!)] = c;
  const codes = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) codes[i] = slots[slotOf(values[i]! + 0)]!;
  return { codes, distinct: sorted.length, values: sorted };
}

/** Midranks (1-based, ties averaged) per code, from counts per code (or per ordered class). */
export function midranks(counts: ArrayLike<number>): Float64Array {
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
