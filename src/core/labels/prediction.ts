// What the judge predicted, read from an answer's distribution under stated conventions: distributions renormalised
// to sum to 1, the most probable class with ties to the first in criteria order (choice) or the lower level (score),
// or the expected score rounded (halves up); P(yes) at or above a threshold for noul.
import type { Answer, Question } from '../../contract';

/** The classes of a question, in the order labels and probabilities are indexed. */
export const classesOf = (question: Question): string[] =>
  question.type === 'choice'
    ? Object.keys(question.criteria)
    : question.type === 'score'
      ? question.criteria.map((_, i) => String(i))
      : ['no', 'yes'];

/**
 * The answer's probabilities over the question's classes, in criteria order, renormalised to sum to 1 (services
 * round to 2 or 4 decimals, so sums of 0.99 or 1.01 occur). A class the answer leaves out gets 0; an all-zero
 * distribution becomes uniform. Null when the answer is not of the question's type.
 */
export function distributionOf(answer: Answer | undefined, question: Question): Float64Array | null {
  const classes = classesOf(question);
  const out = new Float64Array(classes.length);
  return writeDistribution(answer, question, classes, out, 0) ? out : null;
}

/**
 * distributionOf written into `out` from `at` (the alignment table's columns, without a new array per row); false,
 * writing nothing, when the answer is not of the question's type.
 */
export function writeDistribution(
  answer: Answer | undefined,
  question: Question,
  classes: readonly string[],
  out: Float64Array,
  at: number,
): boolean {
  if (!answer || answer.type !== question.type || answer.type === 'noul') return false;
  const probabilities = answer.probabilities;
  let sum = 0;
  for (let k = 0; k < classes.length; k++) {
    const v = probabilities[classes[k]!];
    const x = typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
    out[at + k] = x;
    sum += x;
  }
  for (let k = 0; k < classes.length; k++) out[at + k] = sum === 0 ? 1 / classes.length : out[at + k]! / sum;
  return true;
}

/** Index of the most probable class; ties go to the first (criteria order, or the lower level). */
export function argmax(p: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < p.length; i++) if (p[i]! > p[best]!) best = i;
  return best;
}

/** Expected level of a distribution over levels 0..K-1. */
export function expectedLevel(p: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < p.length; i++) s += i * p[i]!;
  return s;
}

/** The expected level rounded, halves up (2.5 reads as 3), kept within the scale. */
export const expectedRounded = (p: ArrayLike<number>): number => roundedLevel(expectedLevel(p), p.length);

/** An expected level rounded halves up, kept within levels 0..K-1. */
export const roundedLevel = (expected: number, K: number): number =>
  Math.min(K - 1, Math.max(0, Math.floor(expected + 0.5)));

/** P(yes) of a noul answer, clamped to [0, 1]; null when the answer is not noul. */
export function yesProbability(answer: Answer | undefined): number | null {
  if (!answer || answer.type !== 'noul' || !Number.isFinite(answer.noul)) return null;
  return Math.min(1, Math.max(0, answer.noul));
}

/**
 * The class index the judge's answer predicts under the report's conventions (the most probable class, or the
 * expected level rounded; P(yes) at or above the threshold), or null when the answer is not of the question's type.
 * The same reading as the confusion matrix, for one row at a time (the rows screen's filter by answer).
 */
export function predictedClass(
  answer: Answer | undefined,
  question: Question,
  scorePrediction: 'mostProbable' | 'expectedRounded' = 'mostProbable',
  threshold = 0.5,
): number | null {
  if (question.type === 'noul') {
    const p = yesProbability(answer);
    return p === null ? null : p >= threshold ? 1 : 0;
  }
  const d = distributionOf(answer, question);
  if (!d) return null;
  return question.type === 'score' && scorePrediction === 'expectedRounded' ? expectedRounded(d) : argmax(d);
}
