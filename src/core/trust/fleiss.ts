// Fleiss' kappa (Fleiss 1971) for a fixed number of raters per subject: only the rows every annotator rated count,
// and the figure says how many. Each row's agreement P_i and category counts are computed once, so a resample of rows
// is a weighted sum.
import { MISSING } from './ratings';

/** Each unit's agreement and category counts, for the units every annotator rated. */
export interface FleissUnits {
  A: number;
  K: number;
  /** 1 where every annotator rated the unit. */
  complete: Uint8Array;
  /** P_i = (sum_j n_ij^2 - A) / (A (A - 1)): the share of agreeing rater pairs in the unit. */
  agreement: Float64Array;
  /** The unit's category counts, sparse: unit u's are category[start[u]..start[u+1]). */
  start: Uint32Array;
  category: Uint32Array;
  count: Float64Array;
}

export function fleissUnits(ratings: Int32Array, A: number, K: number): FleissUnits {
  const units = A === 0 ? 0 : ratings.length / A;
  const complete = new Uint8Array(units);
  const agreement = new Float64Array(units);
  const start = new Uint32Array(units + 1);
  const categories: number[] = [];
  const counts: number[] = [];
  const n = new Int32Array(K);
  for (let u = 0; u < units; u++) {
    start[u] = categories.length;
    let all = true;
    for (let a = 0; a < A && all; a++) all = ratings[u * A + a] !== MISSING;
    if (!all || A < 2) continue;
    complete[u] = 1;
    for (let a = 0; a < A; a++) n[ratings[u * A + a]!]!++;
    let squares = 0;
    for (let j = 0; j < K; j++) {
      if (n[j] === 0) continue;
      squares += n[j]! * n[j]!;
      categories.push(j);
      counts.push(n[j]!);
      n[j] = 0;
    }
    agreement[u] = (squares - A) / (A * (A - 1));
  }
  start[units] = categories.length;
  return {
    A,
    K,
    complete,
    agreement,
    start,
    category: Uint32Array.from(categories),
    count: Float64Array.from(counts),
  };
}

/**
 * Fleiss' kappa (P-bar - Pe-bar) / (1 - Pe-bar) from its sums over the complete units: N units, the sum of their
 * agreements P_i, and each category's count of ratings. Null with no unit, or when every rating is one category (no
 * chance disagreement).
 */
export function fleissFromSums(
  N: number,
  sumAgreement: number,
  categoryCounts: ArrayLike<number>,
  A: number,
): number | null {
  if (N <= 0) return null;
  let chance = 0;
  for (let j = 0; j < categoryCounts.length; j++) chance += (categoryCounts[j]! / (N * A)) ** 2;
  if (chance >= 1) return null;
  return (sumAgreement / N - chance) / (1 - chance);
}

/** Fleiss' kappa over the complete units, each counted `weights[u]` times (once when null), and their count. */
export function fleissOf(
  units: FleissUnits,
  weights: ArrayLike<number> | null,
): { value: number | null; n: number } {
  const { A, K, complete, agreement, start, category, count } = units;
  const p = new Float64Array(K);
  let N = 0;
  let sumAgreement = 0;
  for (let u = 0; u < complete.length; u++) {
    if (complete[u] === 0) continue;
    const w = weights === null ? 1 : weights[u]!;
    if (w === 0) continue;
    N += w;
    sumAgreement += w * agreement[u]!;
    for (let e = start[u]!; e < start[u + 1]!; e++) p[category[e]!]! += w * count[e]!;
  }
  return { value: fleissFromSums(N, sumAgreement, p, A), n: N };
}

/** Fleiss' kappa of a units-by-raters matrix, on the units every rater rated. */
export const fleissKappa = (ratings: Int32Array, A: number, K: number): { value: number | null; n: number } =>
  fleissOf(fleissUnits(ratings, A, K), null);
