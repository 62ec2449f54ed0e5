// One question's labelled and answered rows as flat typed arrays, so every figure and every bootstrap resample is a
// pass over numbers, and the statistics of any set of row indices.
import type { Question } from '../../contract';
import { accuracyOf, macroF1Of, precisionOf, recallOf } from './choiceAgreement';
import { brierRow, eceOf, logLossRow, meanOf } from './calibration';
import { confusionOf, kappaOf, quadraticWeights } from './kappa';
import type { Confusion } from './kappa';
import { aucOf, countsAt } from './noulAgreement';
import { argmax, distributionOf, expectedLevel, expectedRounded, yesProbability } from './prediction';
import { maeOf, rankCodes, spearmanOf } from './scoreAgreement';
import { validLabel } from './labelValues';
import type { AlignRow, AlignmentOptions, LabelValue } from './types';

interface Common {
  name: string;
  /** Row ids, in the order of the arrays. */
  ids: string[];
  /** Class index of the human label (noul: 1 yes, 0 no). */
  y: Int32Array;
  /** Class index predicted (noul: at the threshold). */
  pred: Int32Array;
  /** Probability the reliability diagram and ECE use: the top class's (choice, score) or P(yes) (noul). */
  calP: Float64Array;
  /** 1 when calP came true: the prediction was right (choice, score), or the label is yes (noul). */
  calHit: Float64Array;
  /** The probability of the predicted class, for ordering mistakes and for selective accuracy. */
  predP: Float64Array;
  brier: Float64Array;
  logLoss: Float64Array;
  /** Rows with a valid label, rows with a label but no usable answer, labels that are not valid for the question. */
  labelled: number;
  unanswered: number;
  invalidLabels: number;
  /** Equal-width bins of ECE. */
  bins: number;
}

export interface ChoiceData extends Common {
  type: 'choice';
  classes: string[];
  K: number;
}
export interface ScoreData extends Common {
  type: 'score';
  classes: string[];
  K: number;
  expected: Float64Array;
  weights: Float64Array;
  expectedCodes: ReturnType<typeof rankCodes>;
  labelCodes: ReturnType<typeof rankCodes>;
}
export interface NoulData extends Common {
  type: 'noul';
  classes: ['no', 'yes'];
  K: 2;
  threshold: number;
  p: Float64Array;
  pCodes: ReturnType<typeof rankCodes>;
}
export type QuestionData = ChoiceData | ScoreData | NoulData;

/** The noul threshold in force for a question. */
export const thresholdOf = (options: AlignmentOptions, name: string): number =>
  options.noulThresholds[name] ?? 0.5;

/** Builds a question's arrays from the rows that carry a valid label and an answer of its type. */
export function questionData(
  name: string,
  question: Question,
  rows: readonly AlignRow[],
  options: AlignmentOptions,
): QuestionData {
  const ids: string[] = [];
  const y: number[] = [];
  const pred: number[] = [];
  const calP: number[] = [];
  const calHit: number[] = [];
  const predP: number[] = [];
  const brier: number[] = [];
  const logLoss: number[] = [];
  const expected: number[] = [];
  const pYes: number[] = [];
  let labelled = 0;
  let unanswered = 0;
  let invalidLabels = 0;
  const classes =
    question.type === 'choice'
      ? Object.keys(question.criteria)
      : question.type === 'score'
        ? question.criteria.map((_, i) => String(i))
        : ['no', 'yes'];
  const threshold = thresholdOf(options, name);
  for (const row of rows) {
    const label: LabelValue | undefined = row.labels[name];
    if (label === undefined) continue;
    if (!validLabel(label, question)) {
      invalidLabels++;
      continue;
    }
    labelled++;
    const answer = row.answers?.[name];
    if (question.type === 'noul') {
      const p = yesProbability(answer);
      if (p === null) {
        unanswered++;
        continue;
      }
      const truth = label === true ? 1 : 0;
      const guess = p >= threshold ? 1 : 0;
      ids.push(row.id);
      y.push(truth);
      pred.push(guess);
      pYes.push(p);
      calP.push(p);
      calHit.push(truth);
      predP.push(guess === 1 ? p : 1 - p);
      brier.push((p - truth) * (p - truth));
      logLoss.push(logLossRow(truth === 1 ? p : 1 - p, options.logLossFloor));
      continue;
    }
    const dist = distributionOf(answer, question);
    if (!dist) {
      unanswered++;
      continue;
    }
    const truth = question.type === 'choice' ? classes.indexOf(label as string) : (label as number);
    const top = argmax(dist);
    const guess =
      question.type === 'score' && options.scorePrediction === 'expectedRounded'
        ? expectedRounded(dist)
        : top;
    ids.push(row.id);
    y.push(truth);
    pred.push(guess);
    calP.push(dist[top]!);
    calHit.push(top === truth ? 1 : 0);
    predP.push(dist[guess]!);
    brier.push(brierRow(dist, truth));
    logLoss.push(logLossRow(dist[truth]!, options.logLossFloor));
    if (question.type === 'score') expected.push(expectedLevel(dist));
  }
  const common = {
    name,
    ids,
    y: Int32Array.from(y),
    pred: Int32Array.from(pred),
    calP: Float64Array.from(calP),
    calHit: Float64Array.from(calHit),
    predP: Float64Array.from(predP),
    brier: Float64Array.from(brier),
    logLoss: Float64Array.from(logLoss),
    labelled,
    unanswered,
    invalidLabels,
    bins: options.bins,
  };
  if (question.type === 'choice') return { ...common, type: 'choice', classes, K: classes.length };
  if (question.type === 'score') {
    const exp = Float64Array.from(expected);
    return {
      ...common,
      type: 'score',
      classes,
      K: classes.length,
      expected: exp,
      weights: quadraticWeights(classes.length),
      expectedCodes: rankCodes(exp),
      labelCodes: rankCodes(common.y),
    };
  }
  const p = Float64Array.from(pYes);
  return { ...common, type: 'noul', classes: ['no', 'yes'], K: 2, threshold, p, pCodes: rankCodes(p) };
}

/** Statistics that count rows (they get Wilson intervals): numerator and denominator per key. */
export type Proportions = Record<string, { k: number; n: number }>;

/** The proportions of a question over all its rows, from its confusion matrix. */
export function proportionsOf(data: QuestionData, m: Confusion): Proportions {
  const K = data.K;
  const n = data.ids.length;
  const out: Proportions = {};
  let diag = 0;
  let near = 0;
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) {
      if (i === j) diag += m[i * K + j]!;
      if (Math.abs(i - j) <= 1) near += m[i * K + j]!;
    }
  if (data.type === 'score') {
    out['exact'] = { k: diag, n };
    out['within_one'] = { k: near, n };
  } else out['accuracy'] = { k: diag, n };
  if (data.type === 'noul') {
    const c = countsAt(data.p, data.y, data.threshold, null);
    out['tpr'] = { k: c.tp, n: c.tp + c.fn };
    out['tnr'] = { k: c.tn, n: c.tn + c.fp };
  }
  if (data.type === 'choice') {
    data.classes.forEach((label, k) => {
      let predicted = 0;
      let labelled = 0;
      for (let i = 0; i < K; i++) predicted += m[i * K + k]!;
      for (let j = 0; j < K; j++) labelled += m[k * K + j]!;
      out[`precision.${label}`] = { k: m[k * K + k]!, n: predicted };
      out[`recall.${label}`] = { k: m[k * K + k]!, n: labelled };
    });
  }
  return out;
}

/**
 * Every statistic of the question over the given rows (all when null): what point estimates and bootstrap resamples
 * both use, so the two never disagree on a definition. Also per class the sensitivity and specificity that the
 * prevalence correction needs.
 */
export function statsOf(
  data: QuestionData,
  indices: ArrayLike<number> | null,
): Record<string, number | null> {
  const m = confusionOf(data.y, data.pred, data.K, indices);
  const out: Record<string, number | null> = {
    brier: meanOf(data.brier, indices),
    log_loss: meanOf(data.logLoss, indices),
    ece: eceOf(data.calP, data.calHit, data.bins, indices),
  };
  if (data.type === 'choice') {
    out['accuracy'] = accuracyOf(m, data.K);
    out['kappa'] = kappaOf(m, data.K);
    out['macro_f1'] = macroF1Of(m, data.K);
    data.classes.forEach((label, k) => {
      out[`precision.${label}`] = precisionOf(m, data.K, k);
      out[`recall.${label}`] = recallOf(m, data.K, k);
    });
  } else if (data.type === 'score') {
    out['qwk'] = kappaOf(m, data.K, data.weights);
    out['spearman'] = spearmanOf(data.expectedCodes, data.labelCodes, indices);
    out['mae'] = maeOf(data.expected, data.y, indices);
  } else {
    out['accuracy'] = accuracyOf(m, 2);
    out['auroc'] = aucOf(data.pCodes, data.y, indices);
    out['kappa'] = kappaOf(m, 2);
  }
  // Sensitivity and specificity of each class against the rest, for Rogan-Gladen.
  const K = data.K;
  let n = 0;
  for (const c of m) n += c;
  for (let k = data.type === 'noul' ? 1 : 0; k < K; k++) {
    let labelled = 0;
    let predicted = 0;
    for (let j = 0; j < K; j++) labelled += m[k * K + j]!;
    for (let i = 0; i < K; i++) predicted += m[i * K + k]!;
    const tp = m[k * K + k]!;
    const negatives = n - labelled;
    out[`se.${data.classes[k]}`] = labelled === 0 ? null : tp / labelled;
    out[`sp.${data.classes[k]}`] = negatives === 0 ? null : (negatives - (predicted - tp)) / negatives;
  }
  return out;
}
