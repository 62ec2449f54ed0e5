// Calibration from the answers' probabilities (never the contract's `confidence`, which is a sharpness score): Brier
// score, log loss with a stated floor, expected calibration error and the reliability diagram's bins.

/** Edge rule of the bins, stated with every ECE: a value on an edge belongs to the bin above it. */
export const BIN_EDGE_RULE = 'equal-width bins, lower edge closed, 1.0 in the top bin';

/** The bin of a probability among `bins` equal-width bins (lower edge closed; 1.0 in the top bin). */
export function binOf(p: number, bins: number): number {
  // The service rounds to hundredths, so many values sit on an edge; the epsilon keeps 0.3 * 10 in bin 3, not 2.
  return Math.min(bins - 1, Math.max(0, Math.floor(p * bins + 1e-9)));
}

/** Multi-class Brier score of one row: sum over classes of (p_k - y_k)^2 (0 to 2; binary questions use (p - y)^2). */
export function brierRow(probabilities: ArrayLike<number>, truth: number): number {
  let s = 0;
  for (let k = 0; k < probabilities.length; k++) {
    const d = probabilities[k]! - (k === truth ? 1 : 0);
    s += d * d;
  }
  return s;
}

/** Log loss of one row: -ln(max(p_truth, floor)). */
export const logLossRow = (pTruth: number, floor: number): number => -Math.log(Math.max(pTruth, floor));

/** Mean of a per-row value over a resample given as row weights (every row once when null); null without rows. */
export function meanOf(values: ArrayLike<number>, weights: ArrayLike<number> | null): number | null {
  let n = 0;
  let s = 0;
  for (let i = 0; i < values.length; i++) {
    const w = weights === null ? 1 : weights[i]!;
    n += w;
    s += w * values[i]!;
  }
  return n === 0 ? null : s / n;
}

/** One bin of the reliability diagram: mean predicted probability against the observed frequency. */
export interface ReliabilityBin {
  lo: number;
  hi: number;
  count: number;
  meanPredicted: number | null;
  observed: number | null;
}

/**
 * Expected calibration error: the count-weighted mean of |observed - mean predicted| over equal-width bins. `p` is the
 * probability the judge gave (top label's, or P(yes)) and `hit` 1 when that came true, per row.
 */
export function eceOf(
  p: ArrayLike<number>,
  hit: ArrayLike<number>,
  bins: number,
  indices: ArrayLike<number> | null,
): number | null {
  const n = indices ? indices.length : p.length;
  if (n === 0) return null;
  const sumP = new Float64Array(bins);
  const sumHit = new Float64Array(bins);
  const count = new Float64Array(bins);
  for (let j = 0; j < n; j++) {
    const i = indices ? indices[j]! : j;
    const b = binOf(p[i]!, bins);
    sumP[b]! += p[i]!;
    sumHit[b]! += hit[i]!;
    count[b]! += 1;
  }
  let ece = 0;
  for (let b = 0; b < bins; b++) if (count[b]! > 0) ece += Math.abs(sumHit[b]! - sumP[b]!) / n;
  return ece;
}

/** The reliability diagram's bins over every row. */
export function reliabilityBins(
  p: ArrayLike<number>,
  hit: ArrayLike<number>,
  bins: number,
): ReliabilityBin[] {
  const sumP = new Float64Array(bins);
  const sumHit = new Float64Array(bins);
  const count = new Float64Array(bins);
  for (let i = 0; i < p.length; i++) {
    const b = binOf(p[i]!, bins);
    sumP[b]! += p[i]!;
    sumHit[b]! += hit[i]!;
    count[b]! += 1;
  }
  return reliabilityFromSums(sumP, sumHit, count);
}

/** The bins from per-bin sums of probability and hits and the rows in each (what a pass over the rows gathers). */
export function reliabilityFromSums(
  sumP: ArrayLike<number>,
  sumHit: ArrayLike<number>,
  count: ArrayLike<number>,
): ReliabilityBin[] {
  const bins = count.length;
  return Array.from({ length: bins }, (_, b) => ({
    lo: b / bins,
    hi: (b + 1) / bins,
    count: count[b]!,
    meanPredicted: count[b]! > 0 ? sumP[b]! / count[b]! : null,
    observed: count[b]! > 0 ? sumHit[b]! / count[b]! : null,
  }));
}
