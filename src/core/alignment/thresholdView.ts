// The figures of a yes/no question that move with the threshold slider, read at once from the report's rates on its
// 0.01 grid: the confusion matrix, accuracy and both rates. The slider shows them within a frame; the intervals
// follow when the worker has computed the report again at the new threshold.
import type { QuestionReport } from './compute';

export interface ThresholdView {
  threshold: number;
  /** counts[truth][predicted], no = 0, yes = 1. */
  counts: number[][];
  accuracy: number;
  tpr: number;
  tnr: number;
}

/** The figures at threshold `t` (a multiple of 0.01), or null without both classes or off the grid. */
export function thresholdView(
  report: Pick<QuestionReport, 'confusion' | 'threshold'>,
  t: number,
): ThresholdView | null {
  const grid = report.threshold?.grid;
  const point = grid?.[Math.round(t * 100)];
  if (!point || Math.abs(point.threshold - t) > 1e-9) return null;
  const c = report.confusion.counts;
  const negatives = (c[0]?.[0] ?? 0) + (c[0]?.[1] ?? 0);
  const positives = (c[1]?.[0] ?? 0) + (c[1]?.[1] ?? 0);
  if (positives + negatives === 0) return null;
  // The rates are counts over the class totals, which the threshold does not change: rounding gives the counts back.
  const tp = Math.round(point.tpr * positives);
  const tn = Math.round(point.tnr * negatives);
  return {
    threshold: t,
    counts: [
      [tn, negatives - tn],
      [positives - tp, tp],
    ],
    accuracy: (tp + tn) / (positives + negatives),
    tpr: point.tpr,
    tnr: point.tnr,
  };
}
