// Krippendorff's alpha through the coincidence matrix (Krippendorff 2011, "Computing Krippendorff's
// Alpha-Reliability"): alpha = 1 - (n - 1) * sum o_ck d2_ck / sum n_c n_k d2_ck, any number of coders, missing
// values allowed. A unit (row) with fewer than two ratings pairs nothing and adds nothing. Each unit's share of the
// coincidence matrix is computed once, so a resample of units is a weighted sum of shares.
import { MISSING } from './ratings';

export type AlphaMetric = 'nominal' | 'ordinal' | 'interval' | 'ratio';

/** Each unit's share of the coincidence matrix, sparse: unit u's cells are cell[start[u]..start[u+1]). */
export interface UnitCoincidences {
  K: number;
  start: Uint32Array;
  cell: Uint32Array;
  value: Float64Array;
  /** Whether each unit has at least two ratings (pairable). */
  pairable: Uint8Array;
}

/**
 * Each unit's coincidences: with n_uc ratings of value c among m_u >= 2, it adds n_uc n_uk / (m_u - 1) to cell
 * (c, k) for c != k and n_uc (n_uc - 1) / (m_u - 1) to (c, c); its cells sum to m_u.
 */
export function unitCoincidences(ratings: Int32Array, A: number, K: number): UnitCoincidences {
  const units = A === 0 ? 0 : ratings.length / A;
  const start = new Uint32Array(units + 1);
  const cells: number[] = [];
  const values: number[] = [];
  const pairable = new Uint8Array(units);
  const counts = new Int32Array(K);
  const present: number[] = [];
  for (let u = 0; u < units; u++) {
    start[u] = cells.length;
    let m = 0;
    present.length = 0;
    for (let a = 0; a < A; a++) {
      const r = ratings[u * A + a]!;
      if (r === MISSING) continue;
      if (counts[r] === 0) present.push(r);
      counts[r]!++;
      m++;
    }
    if (m >= 2) {
      pairable[u] = 1;
      for (const c of present)
        for (const k of present) {
          cells.push(c * K + k);
          values.push((counts[c]! * (c === k ? counts[c]! - 1 : counts[k]!)) / (m - 1));
        }
    }
    for (const c of present) counts[c] = 0;
  }
  start[units] = cells.length;
  return { K, start, cell: Uint32Array.from(cells), value: Float64Array.from(values), pairable };
}

/** The coincidence matrix o[c * K + k] of the units, each counted `weights[u]` times (once when null). */
export function coincidenceMatrix(
  units: UnitCoincidences,
  weights: ArrayLike<number> | null,
  into: Float64Array = new Float64Array(units.K * units.K),
): Float64Array {
  into.fill(0);
  const { start, cell, value } = units;
  for (let u = 0; u + 1 < start.length; u++) {
    const w = weights === null ? 1 : weights[u]!;
    if (w === 0) continue;
    for (let e = start[u]!; e < start[u + 1]!; e++) into[cell[e]!]! += w * value[e]!;
  }
  return into;
}

/**
 * The squared distance between values c and k under a metric: nominal 0/1; ordinal from the marginals n_g (the
 * values between c and k, halves of the two ends); interval (v_c - v_k)^2; ratio ((v_c - v_k) / (v_c + v_k))^2.
 * `values` gives each class's number (its index when absent).
 */
export function distances(
  metric: AlphaMetric,
  marginals: ArrayLike<number>,
  values?: ArrayLike<number>,
): Float64Array {
  const K = marginals.length;
  const v = (c: number): number => (values ? values[c]! : c);
  const d = new Float64Array(K * K);
  const cumulative = new Float64Array(K + 1);
  for (let g = 0; g < K; g++) cumulative[g + 1] = cumulative[g]! + marginals[g]!;
  for (let c = 0; c < K; c++)
    for (let k = 0; k < K; k++) {
      if (c === k) continue;
      let x: number;
      if (metric === 'nominal') x = 1;
      else if (metric === 'ordinal') {
        const lo = Math.min(c, k);
        const hi = Math.max(c, k);
        x = (cumulative[hi + 1]! - cumulative[lo]! - (marginals[c]! + marginals[k]!) / 2) ** 2;
      } else if (metric === 'interval') x = (v(c) - v(k)) ** 2;
      else x = v(c) + v(k) === 0 ? 0 : ((v(c) - v(k)) / (v(c) + v(k))) ** 2;
      d[c * K + k] = x;
    }
  return d;
}

/** Alpha from a coincidence matrix; null when fewer than two pairable values or no expected disagreement. */
export function alphaOf(
  o: Float64Array,
  K: number,
  metric: AlphaMetric,
  values?: ArrayLike<number>,
): number | null {
  const marginals = new Float64Array(K);
  let n = 0;
  for (let c = 0; c < K; c++)
    for (let k = 0; k < K; k++) {
      marginals[c]! += o[c * K + k]!;
      n += o[c * K + k]!;
    }
  if (n <= 1) return null;
  const d = distances(metric, marginals, values);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < K; c++)
    for (let k = 0; k < K; k++) {
      observed += o[c * K + k]! * d[c * K + k]!;
      expected += marginals[c]! * marginals[k]! * d[c * K + k]!;
    }
  if (expected === 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}

/** Alpha of a units-by-coders matrix, with the units it rests on (those with two ratings or more). */
export function krippendorffAlpha(
  ratings: Int32Array,
  A: number,
  K: number,
  metric: AlphaMetric,
  values?: ArrayLike<number>,
): { value: number | null; units: number } {
  const units = unitCoincidences(ratings, A, K);
  let pairable = 0;
  for (const p of units.pairable) pairable += p;
  return { value: alphaOf(coincidenceMatrix(units, null), K, metric, values), units: pairable };
}
