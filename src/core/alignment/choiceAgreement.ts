// Agreement on a choice question: accuracy, Cohen's kappa, macro F1, precision and recall per label.
import type { Confusion } from './kappa';
import { kappaOf } from './kappa';

/** Accuracy of a confusion matrix: the share on its diagonal; null without rows. */
export function accuracyOf(m: Confusion, K: number): number | null {
  let n = 0;
  let right = 0;
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) {
      n += m[i * K + j]!;
      if (i === j) right += m[i * K + j]!;
    }
  return n === 0 ? null : right / n;
}

/** Precision of label k (of the rows predicted k, the share labelled k); null when nothing was predicted k. */
export function precisionOf(m: Confusion, K: number, k: number): number | null {
  let predicted = 0;
  for (let i = 0; i < K; i++) predicted += m[i * K + k]!;
  return predicted === 0 ? null : m[k * K + k]! / predicted;
}

/** Recall of label k (of the rows labelled k, the share predicted k); null when no row is labelled k. */
export function recallOf(m: Confusion, K: number, k: number): number | null {
  let labelled = 0;
  for (let j = 0; j < K; j++) labelled += m[k * K + j]!;
  return labelled === 0 ? null : m[k * K + k]! / labelled;
}

/**
 * Macro F1: the mean F1 over the labels present in the labels or the predictions (a label absent from both says
 * nothing about the judge). A label's F1 is 0 when it was labelled or predicted but never both.
 */
export function macroF1Of(m: Confusion, K: number): number | null {
  let sum = 0;
  let count = 0;
  for (let k = 0; k < K; k++) {
    let labelled = 0;
    let predicted = 0;
    for (let j = 0; j < K; j++) labelled += m[k * K + j]!;
    for (let i = 0; i < K; i++) predicted += m[i * K + k]!;
    if (labelled + predicted === 0) continue;
    sum += (2 * m[k * K + k]!) / (labelled + predicted);
    count++;
  }
  return count === 0 ? null : sum / count;
}

/** Cohen's kappa of a choice question's confusion matrix (unweighted). */
export const choiceKappa = (m: Confusion, K: number): number | null => kappaOf(m, K);
