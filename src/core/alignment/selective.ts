// Selective accuracy: how right the judge is on the rows it is most sure of, as the confidence threshold rises.

/** One point of the curve: rows with confidence at or above the threshold, their share and their accuracy. */
export interface SelectivePoint {
  threshold: number;
  coverage: number;
  kept: number;
  accuracy: number | null;
}

/** The curve at thresholds 0, 0.05, ..., 1 (a grid, so two runs' curves line up). */
export function selectiveCurve(
  confidence: ArrayLike<number>,
  correct: ArrayLike<number>,
  step = 0.05,
): SelectivePoint[] {
  const n = confidence.length;
  const steps = Math.round(1 / step);
  const thresholds = Array.from({ length: steps + 1 }, (_, s) => Math.round(s * step * 1e6) / 1e6);
  // Each row counts at every threshold up to the highest it reaches: tally that highest one, then sum from the top.
  const keptAt = new Float64Array(steps + 2);
  const rightAt = new Float64Array(steps + 2);
  for (let i = 0; i < n; i++) {
    const c = confidence[i]!;
    let top = Math.min(steps, Math.max(-1, Math.floor((c + 1e-9) / step)));
    while (top < steps && c >= thresholds[top + 1]! - 1e-9) top++;
    while (top >= 0 && c < thresholds[top]! - 1e-9) top--;
    if (top < 0) continue;
    keptAt[top]! += 1;
    rightAt[top]! += correct[i]!;
  }
  const points: SelectivePoint[] = new Array(steps + 1);
  let kept = 0;
  let right = 0;
  for (let s = steps; s >= 0; s--) {
    kept += keptAt[s]!;
    right += rightAt[s]!;
    points[s] = {
      threshold: thresholds[s]!,
      coverage: n === 0 ? 0 : kept / n,
      kept,
      accuracy: kept === 0 ? null : right / kept,
    };
  }
  return points;
}

/**
 * The point to read out: the lowest threshold whose kept rows reach the target accuracy (0.9 by default), or, when
 * none does, the most accurate point that still keeps a tenth of the rows.
 */
export function selectiveReadout(points: readonly SelectivePoint[], target = 0.9): SelectivePoint | null {
  const reaching = points.find((p) => p.accuracy !== null && p.accuracy >= target && p.kept > 0);
  if (reaching) return reaching;
  let best: SelectivePoint | null = null;
  for (const p of points)
    if (p.accuracy !== null && p.coverage >= 0.1 && (!best || p.accuracy > best.accuracy!)) best = p;
  return best;
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;

/** The sentence: "answers with confidence of at least 0.6 are 94% right and cover 71% of rows". */
export function selectiveSentence(point: SelectivePoint | null, confidenceName: string): string {
  if (!point || point.accuracy === null) return 'No row has both an answer and a label yet.';
  return `Answers with ${confidenceName} of at least ${point.threshold.toFixed(2)} are ${pct(point.accuracy)} right and cover ${pct(point.coverage)} of rows.`;
}
