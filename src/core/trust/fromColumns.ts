// TrustData from what the alignment already holds: one label column per annotator (the alignment table's class
// indices, NO_LABEL and INVALID_LABEL read as missing) and the question's answer columns, read under the alignment's
// conventions: the most probable class (ties to the first) or the expected level rounded, P(yes) at a threshold.
// Confidence is the top probability (noul: max(P(yes), P(no))), never the answer's own confidence field.
import type { Question } from '../../contract';
import type { QuestionColumns } from '../alignment/table';
import { classesOf, roundedLevel } from '../labels/prediction';
import { MISSING } from './ratings';
import type { TrustData } from './ratings';

export interface JudgeReading {
  scorePrediction: 'mostProbable' | 'expectedRounded';
  /** P(yes) at or above this predicts yes. */
  noulThreshold: number;
}

export const JUDGE_READING_DEFAULTS: JudgeReading = { scorePrediction: 'mostProbable', noulThreshold: 0.5 };

export function trustDataFromColumns(
  question: Question,
  annotators: readonly { name: string; label: Int32Array }[],
  answers: QuestionColumns,
  reading: JudgeReading = JUDGE_READING_DEFAULTS,
): TrustData {
  const classes = classesOf(question);
  const K = classes.length;
  const A = annotators.length;
  const n = answers.p.length / answers.width;
  const ratings = new Int32Array(n * A);
  annotators.forEach(({ name, label }, a) => {
    if (label.length !== n) throw new Error(`Annotator ${name} has ${label.length} rows, the answers ${n}.`);
    for (let i = 0; i < n; i++) ratings[i * A + a] = label[i]! >= 0 && label[i]! < K ? label[i]! : MISSING;
  });
  const judge = new Int32Array(n).fill(MISSING);
  const confidence = new Float64Array(n).fill(Number.NaN);
  const { p, width } = answers;
  for (let i = 0; i < n; i++) {
    const at = i * width;
    // NaN (no answer) and REFUSED (-1) both fail: neither is a probability.
    if (!(p[at]! >= 0)) continue;
    if (question.type === 'noul') {
      judge[i] = p[at]! >= reading.noulThreshold ? 1 : 0;
      confidence[i] = Math.max(p[at]!, 1 - p[at]!);
      continue;
    }
    let top = 0;
    let mean = 0;
    for (let k = 0; k < K; k++) {
      if (p[at + k]! > p[at + top]!) top = k;
      mean += k * p[at + k]!;
    }
    judge[i] =
      question.type === 'score' && reading.scorePrediction === 'expectedRounded'
        ? roundedLevel(mean, K)
        : top;
    confidence[i] = p[at + top]!;
  }
  return {
    type: question.type,
    classes,
    annotators: annotators.map((a) => a.name),
    ratings,
    judge,
    confidence,
  };
}
