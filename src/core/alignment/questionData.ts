// One question's labelled and answered rows as flat typed arrays, so every figure and every bootstrap resample is a
// pass over numbers, and the statistics of any resample of them (row weights).
import type { Question } from '../../contract';
import { macroF1Of, precisionOf, recallOf } from './choiceAgreement';
import { binOf, logLossRow } from './calibration';
import { kappaOf, quadraticWeights } from './kappa';
import type { Confusion } from './kappa';
import { countsAt } from './noulAgreement';
import { rankCodes } from './scoreAgreement';
import { classesOf, roundedLevel } from '../labels/prediction';
import { INVALID_LABEL, NO_LABEL, REFUSED } from './table';
import type { AlignTable, RowIds } from './table';
import type { AlignmentOptions } from './types';

/** Class indices of a million rows: one byte each where the question has at most 255 classes (nearly always). */
export type ClassIndices = Uint8Array | Int32Array;

const classIndices = (K: number, length: number): ClassIndices =>
  K <= 255 ? new Uint8Array(length) : new Int32Array(length);

interface Common {
  name: string;
  /** Rows with a valid label and an answer: how long every per-row array is. */
  n: number;
  /** Each of those rows' position in the table, and the table's ids (idOf reads a row's). */
  rows: Int32Array;
  ids: RowIds;
  /** Class index of the human label (noul: 1 yes, 0 no). */
  y: ClassIndices;
  /** Class index predicted (noul: at the threshold). */
  pred: ClassIndices;
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
  /** Of the labelled rows without an answer, those the judge refused (a refusal is never counted as a mistake). */
  refused: number;
  invalidLabels: number;
  /** The class predicted for every answered row of the file, labelled or not: the judge's share. */
  predicted: ClassIndices;
  /** Equal-width bins of ECE, and each row's bin. */
  bins: number;
  bin: Uint8Array;
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

/** The id of the i-th row of a question's arrays. */
export const idOf = (data: QuestionData, i: number): string => data.ids.at(data.rows[i]!);

/** The noul threshold in force for a question. */
export const thresholdOf = (options: AlignmentOptions, name: string): number =>
  options.noulThresholds[name] ?? 0.5;

/** A question's per-row arrays, sized for every row of the table and filled up to the rows kept. */
interface RowArrays extends Pick<
  Common,
  'rows' | 'y' | 'pred' | 'calP' | 'calHit' | 'predP' | 'brier' | 'logLoss' | 'bin' | 'predicted'
> {
  /** A score's expected value, and a noul's P(yes), per row (empty for the other types). */
  expected: Float64Array;
  pYes: Float64Array;
}

/** One allocation per array, viewed up to the rows kept afterwards: no copy. */
function rowArrays(type: Question['type'], K: number, total: number, expectedRounding: boolean): RowArrays {
  const pYes = new Float64Array(type === 'noul' ? total : 0);
  // Arrays that would hold the same numbers are one: noul calibrates on P(yes) itself, and a prediction by the most
  // probable class has the top probability as its own (8 MB a million rows each).
  const calP = type === 'noul' ? pYes : new Float64Array(total);
  return {
    rows: new Int32Array(total),
    y: classIndices(K, total),
    pred: classIndices(K, total),
    calP,
    calHit: new Float64Array(total),
    predP: type === 'noul' || expectedRounding ? new Float64Array(total) : calP,
    brier: new Float64Array(total),
    logLoss: new Float64Array(total),
    expected: new Float64Array(type === 'score' ? total : 0),
    pYes,
    bin: new Uint8Array(total),
    predicted: classIndices(K, total),
  };
}

/** What one walk over the rows counted: labels, answers, and the rows kept (`n`) and answered. */
interface RowCounts {
  labelled: number;
  unanswered: number;
  refused: number;
  invalidLabels: number;
  n: number;
  answered: number;
}

/** Counts a row's label, and whether a labelled row went unanswered or refused. */
function countLabel(counts: RowCounts, truth: number, probability: number, isAnswered: boolean): void {
  if (truth === INVALID_LABEL) counts.invalidLabels++;
  else if (truth !== NO_LABEL) {
    counts.labelled++;
    if (!isAnswered) counts.unanswered++;
    if (probability === REFUSED) counts.refused++;
  }
}

/** What the walk reads beside the table: the question's shape and the options' settings. */
interface WalkSettings {
  type: Question['type'];
  K: number;
  threshold: number;
  floor: number;
  expectedRounding: boolean;
  bins: number;
}

/**
 * One walk over every row: each answered row's prediction counts toward the judge's share over the whole file; the
 * labelled ones also fill the arrays the figures read.
 */
function walkRows(
  column: AlignTable['columns'][string],
  total: number,
  a: RowArrays,
  set: WalkSettings,
): RowCounts {
  const { label, p: probs, width } = column;
  const { rows, y, pred, calP, calHit, predP, brier, logLoss, expected, pYes, bin, predicted } = a;
  const { type, K, threshold, floor, expectedRounding, bins } = set;
  const counts: RowCounts = { labelled: 0, unanswered: 0, refused: 0, invalidLabels: 0, n: 0, answered: 0 };
  let n = 0;
  let answered = 0;
  for (let i = 0; i < total; i++) {
    const truth = label[i]!;
    const at = i * width;
    // NaN (no answer) and REFUSED (-1) both fail this test: neither is a probability.
    const isAnswered = probs[at]! >= 0;
    countLabel(counts, truth, probs[at]!, isAnswered);
    if (!isAnswered) continue;
    if (type === 'noul') {
      const p = probs[at]!;
      const guess = p >= threshold ? 1 : 0;
      predicted[answered++] = guess;
      if (truth < 0) continue;
      rows[n] = i;
      y[n] = truth;
      pred[n] = guess;
      pYes[n] = p;
      calHit[n] = truth;
      predP[n] = guess === 1 ? p : 1 - p;
      brier[n] = (p - truth) * (p - truth);
      logLoss[n] = logLossRow(truth === 1 ? p : 1 - p, floor);
    } else {
      // argmax (ties to the first), the expected level and the Brier sum in one walk over the row's classes.
      let top = 0;
      let mean = 0;
      let b = 0;
      for (let k = 0; k < K; k++) {
        const pk = probs[at + k]!;
        if (pk > probs[at + top]!) top = k;
        mean += k * pk;
        const d = pk - (k === truth ? 1 : 0);
        b += d * d;
      }
      const guess = expectedRounding ? roundedLevel(mean, K) : top;
      predicted[answered++] = guess;
      if (truth < 0) continue;
      rows[n] = i;
      y[n] = truth;
      pred[n] = guess;
      calP[n] = probs[at + top]!;
      calHit[n] = top === truth ? 1 : 0;
      predP[n] = probs[at + guess]!;
      brier[n] = b;
      logLoss[n] = logLossRow(probs[at + truth]!, floor);
      if (type === 'score') expected[n] = mean;
    }
    bin[n] = binOf(calP[n]!, bins);
    n++;
  }
  counts.n = n;
  counts.answered = answered;
  return counts;
}

/** Builds a question's arrays from the rows of the table that carry a valid label and an answer of its type. */
export function questionData(
  name: string,
  question: Question,
  table: AlignTable,
  options: AlignmentOptions,
): QuestionData {
  const total = table.ids.length;
  const classes = classesOf(question);
  const K = classes.length;
  const threshold = thresholdOf(options, name);
  const expectedRounding = question.type === 'score' && options.scorePrediction === 'expectedRounded';
  const a = rowArrays(question.type, K, total, expectedRounding);
  const { type } = question;
  const { bins, logLossFloor: floor } = options;
  const counts = walkRows(table.columns[name]!, total, a, {
    type,
    K,
    threshold,
    floor,
    expectedRounding,
    bins,
  });
  const { n, labelled, unanswered, refused, invalidLabels } = counts;
  const common = {
    name,
    n,
    rows: a.rows.subarray(0, n),
    ids: table.ids,
    y: a.y.subarray(0, n),
    pred: a.pred.subarray(0, n),
    calP: a.calP.subarray(0, n),
    calHit: a.calHit.subarray(0, n),
    predP: a.predP.subarray(0, n),
    brier: a.brier.subarray(0, n),
    logLoss: a.logLoss.subarray(0, n),
    labelled,
    unanswered,
    refused,
    invalidLabels,
    bins,
    bin: a.bin.subarray(0, n),
    predicted: a.predicted.subarray(0, counts.answered),
  };
  if (question.type === 'choice') return { ...common, type: 'choice', classes, K };
  if (question.type === 'score') {
    const expected = a.expected.subarray(0, n);
    const expectedCodes = rankCodes(expected);
    return { ...common, type: 'score', classes, K, expected, weights: quadraticWeights(K), expectedCodes };
  }
  const pv = a.pYes.subarray(0, n);
  return { ...common, type: 'noul', classes: ['no', 'yes'], K: 2, threshold, p: pv, pCodes: rankCodes(pv) };
}

/** Statistics that count rows (they get Wilson intervals): numerator and denominator per key. */
export type Proportions = Record<string, { k: number; n: number }>;

/** The proportions of a question over all its rows, from its confusion matrix. */
export function proportionsOf(data: QuestionData, m: Confusion): Proportions {
  const K = data.K;
  const n = data.n;
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

/** The names of statsOf's values for a question, in the order statsInto writes them. */
export function statKeys(data: QuestionData): string[] {
  const perClass = (data.type === 'noul' ? ['yes'] : data.classes).flatMap((c) => [`se.${c}`, `sp.${c}`]);
  const common = ['brier', 'log_loss', 'ece'];
  if (data.type === 'choice')
    return [
      'accuracy',
      'kappa',
      'macro_f1',
      ...data.classes.flatMap((c) => [`precision.${c}`, `recall.${c}`]),
      ...common,
      ...perClass,
    ];
  if (data.type === 'score') return ['exact', 'qwk', 'spearman', 'mae', ...common, ...perClass];
  return ['accuracy', 'auroc', 'kappa', ...common, ...perClass];
}

/** Buffers one question's resamples reuse, so a thousand resamples allocate nothing. */
export interface Scratch {
  m: Float64Array;
  sumP: Float64Array;
  sumHit: Float64Array;
  count: Float64Array;
  codeCounts: Float64Array;
  codeNeg: Float64Array;
  ranksA: Float64Array;
  ranksB: Float64Array;
  /** The resample's row count, Brier sum, log-loss sum and absolute-error sum, in that order. */
  sums: Float64Array;
}

export function scratchFor(data: QuestionData): Scratch {
  const distinct =
    data.type === 'score' ? data.expectedCodes.distinct : data.type === 'noul' ? data.pCodes.distinct : 0;
  return {
    m: new Float64Array(data.K * data.K),
    sumP: new Float64Array(data.bins),
    sumHit: new Float64Array(data.bins),
    count: new Float64Array(data.bins),
    codeCounts: new Float64Array(distinct),
    codeNeg: new Float64Array(distinct),
    ranksA: new Float64Array(distinct),
    ranksB: new Float64Array(data.K),
    sums: new Float64Array(4),
  };
}

/**
 * Every statistic of the question over a resample given as row weights (how many times each row was drawn; every row
 * once when null), written into `out` in statKeys order (NaN where undefined). Weights instead of drawn indices keep
 * each pass sequential over the rows, which is what makes a thousand resamples cheap. One fused pass (a second for
 * Spearman): what point estimates and every bootstrap resample use, so the two never disagree on a definition. Also
 * per class the sensitivity and specificity that the prevalence correction needs.
 */
export function statsInto(
  data: QuestionData,
  weights: Uint32Array | null,
  s: Scratch,
  out: Float64Array,
): void {
  gather(data, weights, s);
  finish(data, weights, s, out, true);
}

/** Sums a resample's rows into the scratch: confusion counts, bin sums, code counts and the row sums. */
export function gather(data: QuestionData, weights: Uint32Array | null, s: Scratch): void {
  const K = data.K;
  const rows = data.n;
  const { m, sumP, sumHit, count, codeCounts, codeNeg } = s;
  m.fill(0);
  sumP.fill(0);
  sumHit.fill(0);
  count.fill(0);
  codeCounts.fill(0);
  codeNeg.fill(0);
  let n = 0;
  let brier = 0;
  let logLoss = 0;
  let absErr = 0;
  const { y, pred, calP, calHit, bin } = data;
  const brierRows = data.brier;
  const lossRows = data.logLoss;
  // The shared pass, with every array in a local so the loop stays monomorphic.
  for (let i = 0; i < rows; i++) {
    const w = weights === null ? 1 : weights[i]!;
    n += w;
    m[y[i]! * K + pred[i]!]! += w;
    brier += w * brierRows[i]!;
    logLoss += w * lossRows[i]!;
    const b = bin[i]!;
    sumP[b]! += w * calP[i]!;
    sumHit[b]! += w * calHit[i]!;
    count[b]! += w;
  }
  // The type's own pass: expected-score ranks and error, or yes/no counts per distinct P(yes).
  if (data.type === 'score') {
    const codes = data.expectedCodes.codes;
    const expected = data.expected;
    for (let i = 0; i < rows; i++) {
      const w = weights === null ? 1 : weights[i]!;
      codeCounts[codes[i]!]! += w;
      absErr += w * Math.abs(expected[i]! - y[i]!);
    }
  } else if (data.type === 'noul') {
    const codes = data.pCodes.codes;
    for (let i = 0; i < rows; i++) {
      const w = weights === null ? 1 : weights[i]!;
      if (y[i] === 0) codeNeg[codes[i]!]! += w;
      else codeCounts[codes[i]!]! += w;
    }
  }
  s.sums[0] = n;
  s.sums[1] = brier;
  s.sums[2] = logLoss;
  s.sums[3] = absErr;
}

/**
 * Every statistic from the sums `gather` left in the scratch, in statKeys order. Spearman needs one more pass over the
 * rows with the resample's weights; `spearman` false skips it (NaN), for callers that only move the sums.
 */
export function finish(
  data: QuestionData,
  weights: Uint32Array | null,
  s: Scratch,
  out: Float64Array,
  spearman: boolean,
): void {
  const K = data.K;
  const { m, sumP, sumHit, count, codeCounts, codeNeg } = s;
  const n = s.sums[0]!;
  const brier = s.sums[1]!;
  const logLoss = s.sums[2]!;
  const absErr = s.sums[3]!;
  const nan = Number.NaN;
  const none = n === 0;
  let ece = 0;
  for (let b = 0; b < data.bins; b++) if (count[b]! > 0) ece += Math.abs(sumHit[b]! - sumP[b]!) / n;
  let w = 0;
  const put = (v: number | null): void => {
    out[w++] = v === null ? nan : v;
  };
  let diag = 0;
  for (let k = 0; k < K; k++) diag += m[k * K + k]!;
  if (data.type === 'choice') {
    put(none ? null : diag / n);
    put(kappaOf(m, K));
    put(macroF1Of(m, K));
    for (let k = 0; k < K; k++) {
      put(precisionOf(m, K, k));
      put(recallOf(m, K, k));
    }
  } else if (data.type === 'score') {
    put(none ? null : diag / n);
    put(kappaOf(m, K, data.weights));
    put(spearman ? spearmanFromCounts(data, weights, n, s) : null);
    put(none ? null : absErr / n);
  } else {
    put(none ? null : diag / n);
    // AUC from yes (codeCounts) and no (codeNeg) counts per distinct P(yes), ascending; ties count one half.
    let P = 0;
    let N = 0;
    let wins = 0;
    for (let c = 0; c < codeCounts.length; c++) {
      wins += codeCounts[c]! * (N + codeNeg[c]! / 2);
      P += codeCounts[c]!;
      N += codeNeg[c]!;
    }
    put(P === 0 || N === 0 ? null : wins / (P * N));
    put(kappaOf(m, K));
  }
  put(none ? null : brier / n);
  put(none ? null : logLoss / n);
  put(none ? null : ece);
  for (let k = data.type === 'noul' ? 1 : 0; k < K; k++) {
    let labelled = 0;
    let predicted = 0;
    for (let j = 0; j < K; j++) labelled += m[k * K + j]!;
    for (let i = 0; i < K; i++) predicted += m[i * K + k]!;
    const tp = m[k * K + k]!;
    const negatives = n - labelled;
    put(labelled === 0 ? null : tp / labelled);
    put(negatives === 0 ? null : (negatives - (predicted - tp)) / negatives);
  }
}

/** Spearman of the expected score with the label, from the counts statsInto gathered (midranks, ties averaged). */
function spearmanFromCounts(
  data: ScoreData,
  weights: Uint32Array | null,
  n: number,
  s: Scratch,
): number | null {
  if (n < 2) return null;
  const K = data.K;
  let below = 0;
  for (let c = 0; c < s.codeCounts.length; c++) {
    s.ranksA[c] = below + (s.codeCounts[c]! + 1) / 2;
    below += s.codeCounts[c]!;
  }
  below = 0;
  for (let k = 0; k < K; k++) {
    let labelled = 0;
    for (let j = 0; j < K; j++) labelled += s.m[k * K + j]!;
    s.ranksB[k] = below + (labelled + 1) / 2;
    below += labelled;
  }
  const mean = (n + 1) / 2;
  const codes = data.expectedCodes.codes;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  const rows = data.n;
  for (let i = 0; i < rows; i++) {
    const w = weights === null ? 1 : weights[i]!;
    const x = s.ranksA[codes[i]!]! - mean;
    const yy = s.ranksB[data.y[i]!]! - mean;
    sab += w * x * yy;
    saa += w * x * x;
    sbb += w * yy * yy;
  }
  if (saa === 0 || sbb === 0) return null;
  return sab / Math.sqrt(saa * sbb);
}

/** Every statistic of the question over the given rows, by name (null where undefined). */
export const statsOf = (data: QuestionData, weights: Uint32Array | null): Record<string, number | null> =>
  statsWithSums(data, weights).points;

/** Every statistic by name, with the sums they came from (the scratch), for callers that read both. */
export function statsWithSums(
  data: QuestionData,
  weights: Uint32Array | null,
): { s: Scratch; points: Record<string, number | null> } {
  const keys = statKeys(data);
  const out = new Float64Array(keys.length);
  const s = scratchFor(data);
  statsInto(data, weights, s, out);
  return { s, points: Object.fromEntries(keys.map((k, i) => [k, Number.isNaN(out[i]!) ? null : out[i]!])) };
}
