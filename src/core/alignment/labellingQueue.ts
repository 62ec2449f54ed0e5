// A certified threshold applied to a whole file run: the rows the judge settles (its confidence at or above the
// threshold) and the rest, a queue for people to label. Confidence is the top probability, as the threshold was
// certified on; a row the judge did not answer (or refused) goes to the queue.
import type { Answer, Question } from '../../contract';
import { classesOf, distributionOf, predictedClass, yesProbability } from '../labels/prediction';
import { guaranteedThreshold } from '../trust';
import type { GuaranteedThreshold } from '../trust';
import { labelIndex } from './table';
import type { ResultRow } from '../rows/results';

/** The judge's top probability on a row for a question; null when it gave no answer of the question's type. */
export const topProbability = (row: ResultRow, name: string, question: Question): number | null =>
  topProbabilityOf(row.response?.answers[name], question);

/** An answer's top probability (noul: max(P(yes), P(no))); null when it is not of the question's type. */
export function topProbabilityOf(answer: Answer | undefined, question: Question): number | null {
  if (question.type === 'noul') {
    const yes = yesProbability(answer);
    return yes === null ? null : Math.max(yes, 1 - yes);
  }
  const p = distributionOf(answer, question);
  return p === null ? null : Math.max(...p);
}

/** The rows the judge settles at `threshold`, and the queue (every row when no threshold is certified). */
export function splitByThreshold(
  rows: readonly ResultRow[],
  name: string,
  question: Question,
  threshold: number | null,
): { settled: ResultRow[]; queue: ResultRow[] } {
  const settled: ResultRow[] = [];
  const queue: ResultRow[] = [];
  for (const row of rows) {
    const top = threshold === null ? null : topProbability(row, name, question);
    if (top !== null && threshold !== null && top >= threshold) settled.push(row);
    else queue.push(row);
  }
  return { settled, queue };
}

/**
 * The first judge's threshold in a cascade of `judges`: certified on the labelled rows with delta split by Bonferroni
 * (delta / judges), as the cascade certifies each judge; the rows under it are the ones escalated to the next judge.
 */
export function escalationThreshold(
  rows: readonly ResultRow[],
  name: string,
  question: Question,
  judges: number,
  options: {
    alpha: number;
    delta: number;
    scorePrediction: 'mostProbable' | 'expectedRounded';
    noulThreshold: number;
  },
): GuaranteedThreshold {
  const classes = classesOf(question);
  const confidence: number[] = [];
  const agrees: number[] = [];
  for (const row of rows) {
    const label = row.labels?.[name];
    const answer = row.response?.answers[name];
    if (label === undefined || !answer) continue;
    const top = topProbability(row, name, question);
    const predicted = predictedClass(answer, question, options.scorePrediction, options.noulThreshold);
    if (top === null || predicted === null) continue;
    confidence.push(top);
    agrees.push(predicted === labelIndex(label, question, classes) ? 1 : 0);
  }
  return guaranteedThreshold(confidence, agrees, { alpha: options.alpha, delta: options.delta / judges });
}
