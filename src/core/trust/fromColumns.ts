// TrustData from what the alignment table already holds for a question: its annotators' labels (`raters`, row-major
// class indices; a question one column labels is one annotator) with NO_LABEL and INVALID_LABEL read as missing, and
// its answer columns, read under the alignment's conventions: the most probable class (ties to the first) or the
// expected level rounded, P(yes) at a threshold. Confidence is the top probability (noul: max(P(yes), P(no))), never
// the answer's own confidence field.
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

/** The name a question's single label column goes by when it has no raters. */
export const SINGLE_ANNOTATOR = 'label';

export function trustDataFromColumns(
  question: Question,
  column: QuestionColumns,
  reading: JudgeReading = JUDGE_READING_DEFAULTS,
): TrustData {
  const classes = classesOf(question);
  const K = classes.length;
  const n = column.label.length;
  const names = column.raters?.names ?? [SINGLE_ANNOTATOR];
  const given = column.raters?.labels ?? column.label;
  if (given.length !== n * names.length)
    throw new Error(`${given.length} labels for ${n} rows and ${names.length} annotators.`);
  const ratings = given.map((v) => (v >= 0 && v < K ? v : MISSING));
  const judge = new Int32Array(n).fill(MISSING);
  const confidence = new Float64Array(n).fill(Number.NaN);
  const { p, width } = column;
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
    annotators: [...names],
    ratings,
    judge,
    confidence,
    // The answer table's own array: PPI reads each label's probability (a score's expected level) from it.
    probabilities: { p, width },
  };
}
