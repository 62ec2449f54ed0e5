// Rows folded into their distinct patterns (every annotator's rating and the judge's prediction), with how many rows
// share each. Every figure of agreement depends on a row only through its pattern, so a resample of 100,000 rows is a
// count per pattern (a few hundred with three annotators and five classes), and the figures are sums over patterns.
import { MISSING, rowCount } from './ratings';
import type { TrustData } from './ratings';

export interface Patterns {
  A: number;
  K: number;
  /** Distinct patterns: P by A ratings, row-major, MISSING where not rated. */
  ratings: Int32Array;
  /** The judge's prediction of each pattern, MISSING where it did not answer. */
  judge: Int32Array;
  /** Rows of each pattern. */
  count: Float64Array;
  /** Each row's pattern (by position among the rows folded). */
  of: Uint32Array;
}

/** Above this many possible patterns the key goes through a Map instead of a direct table. */
const DIRECT_TABLE = 1 << 20;

/**
 * Folds the rows (the given ones, or all) into patterns, in order of first appearance. `rowPatterns` false leaves
 * `of` empty: only a resample reads it, and a million rows' is 4 MB.
 */
export function patternsOf(
  data: TrustData,
  rows: ArrayLike<number> | null = null,
  rowPatterns = true,
): Patterns {
  const A = data.annotators.length;
  const K = data.classes.length;
  const n = rows ? rows.length : rowCount(data);
  const base = K + 1;
  const possible = base ** (A + 1);
  const table = possible <= DIRECT_TABLE ? new Int32Array(possible).fill(-1) : null;
  const byKey = new Map<number | string, number>();
  const of = new Uint32Array(rowPatterns ? n : 0);
  const firstRow: number[] = [];
  const counts: number[] = [];
  for (let r = 0; r < n; r++) {
    const i = rows ? rows[r]! : r;
    let at: number | undefined;
    if (table || possible <= Number.MAX_SAFE_INTEGER) {
      // The pattern as a number in base K + 1 (a missing value is digit 0).
      let code = data.judge[i]! + 1;
      for (let a = 0; a < A; a++) code = code * base + data.ratings[i * A + a]! + 1;
      if (table) {
        at = table[code]! >= 0 ? table[code] : undefined;
        if (at === undefined) table[code] = firstRow.length;
      } else {
        at = byKey.get(code);
        if (at === undefined) byKey.set(code, firstRow.length);
      }
    } else {
      const key = `${data.judge[i]}|${data.ratings.subarray(i * A, (i + 1) * A).join(',')}`;
      at = byKey.get(key);
      if (at === undefined) byKey.set(key, firstRow.length);
    }
    if (at === undefined) {
      at = firstRow.length;
      firstRow.push(i);
      counts.push(0);
    }
    counts[at]!++;
    if (rowPatterns) of[r] = at;
  }
  const P = firstRow.length;
  const ratings = new Int32Array(P * A);
  const judge = new Int32Array(P);
  firstRow.forEach((i, p) => {
    ratings.set(data.ratings.subarray(i * A, (i + 1) * A), p * A);
    judge[p] = data.judge[i]!;
  });
  return { A, K, ratings, judge, count: Float64Array.from(counts), of };
}

/** A resample's row weights summed per pattern, into `into`. */
export function patternWeights(
  patterns: Patterns,
  rowWeights: ArrayLike<number>,
  into: Float64Array,
): Float64Array {
  into.fill(0);
  const of = patterns.of;
  for (let i = 0; i < of.length; i++) into[of[i]!]! += rowWeights[i]!;
  return into;
}

/** Whether annotator a rated pattern p. */
export const rated = (patterns: Patterns, p: number, a: number): boolean =>
  patterns.ratings[p * patterns.A + a] !== MISSING;
