// Agreement on a noul question: rates at a threshold, ROC AUC (ties count one half), and the threshold with the best
// balanced accuracy.
import { rankCodes } from './scoreAgreement';

/** Counts at a threshold: P(yes) >= threshold predicts yes. */
export interface ThresholdCounts {
  tp: number;
  fn: number;
  tn: number;
  fp: number;
}

export function countsAt(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  threshold: number,
  indices: ArrayLike<number> | null,
): ThresholdCounts {
  const c = { tp: 0, fn: 0, tn: 0, fp: 0 };
  const n = indices ? indices.length : p.length;
  for (let j = 0; j < n; j++) {
    const i = indices ? indices[j]! : j;
    const yes = p[i]! >= threshold;
    if (y[i] === 1) {
      if (yes) c.tp++;
      else c.fn++;
    } else if (yes) c.fp++;
    else c.tn++;
  }
  return c;
}

/**
 * ROC AUC: the chance that a random yes-labelled row has a higher P(yes) than a random no-labelled one, ties counted
 * as one half (Mann-Whitney). Null without both classes.
 */
export function aucOf(
  coded: ReturnType<typeof rankCodes>,
  y: ArrayLike<number>,
  indices: ArrayLike<number> | null,
): number | null {
  const pos = new Float64Array(coded.distinct);
  const neg = new Float64Array(coded.distinct);
  const n = indices ? indices.length : y.length;
  for (let j = 0; j < n; j++) {
    const i = indices ? indices[j]! : j;
    if (y[i] === 1) pos[coded.codes[i]!]! += 1;
    else neg[coded.codes[i]!]! += 1;
  }
  let P = 0;
  let N = 0;
  let wins = 0;
  for (let c = 0; c < coded.distinct; c++) {
    wins += pos[c]! * (N + neg[c]! / 2);
    P += pos[c]!;
    N += neg[c]!;
  }
  return P === 0 || N === 0 ? null : wins / (P * N);
}

/** One point of the threshold curve. */
export interface ThresholdPoint {
  threshold: number;
  tpr: number;
  tnr: number;
  balancedAccuracy: number;
}

/**
 * True-positive and true-negative rates at every threshold that changes a prediction (each distinct P(yes)), plus
 * 0 and above 1. Empty without both classes.
 */
export function thresholdCurve(p: ArrayLike<number>, y: ArrayLike<number>): ThresholdPoint[] {
  let P = 0;
  for (let i = 0; i < y.length; i++) P += y[i] === 1 ? 1 : 0;
  const N = y.length - P;
  if (P === 0 || N === 0) return [];
  // Yes and no counts per distinct P(yes), ascending, from rank codes instead of sorting the rows.
  const { codes, values } = rankCodes(p);
  const pos = new Float64Array(values.length);
  const neg = new Float64Array(values.length);
  for (let i = 0; i < p.length; i++) {
    if (y[i] === 1) pos[codes[i]!]! += 1;
    else neg[codes[i]!]! += 1;
  }
  const points: ThresholdPoint[] = [];
  // At threshold t every row with p >= t is predicted yes; walking up the distinct values moves rows to "no".
  let negBelow = 0;
  let posBelow = 0;
  for (let c = 0; c <= values.length; c++) {
    const t = c < values.length ? values[c]! : Math.min(1.01, values[values.length - 1]! + 0.01);
    const tpr = (P - posBelow) / P;
    const tnr = negBelow / N;
    points.push({ threshold: t, tpr, tnr, balancedAccuracy: (tpr + tnr) / 2 });
    if (c < values.length) {
      posBelow += pos[c]!;
      negBelow += neg[c]!;
    }
  }
  return points;
}

/** The threshold with the best balanced accuracy (ties: the one nearest 0.5, then the lower). */
export function bestThreshold(points: readonly ThresholdPoint[]): ThresholdPoint | null {
  let best: ThresholdPoint | null = null;
  for (const pt of points) {
    if (
      !best ||
      pt.balancedAccuracy > best.balancedAccuracy + 1e-12 ||
      (Math.abs(pt.balancedAccuracy - best.balancedAccuracy) <= 1e-12 &&
        Math.abs(pt.threshold - 0.5) < Math.abs(best.threshold - 0.5))
    )
      best = pt;
  }
  return best;
}
