// The single entry point: every alignment figure of a run's rows and labels, each with n, a 95% interval and its
// method, under stated conventions. Figures are also listed flat under stable keys ("department.kappa",
// "is_urgent.auroc", "frustration.mae") for headless gates.
import type { Question, Questions } from '../../contract';
import { BIN_EDGE_RULE, reliabilityFromSums } from './calibration';
import type { ReliabilityBin } from './calibration';
import { bootstrap, bootstrapMethod, bootstrapSize, percentileInterval, wilson } from './intervals';
import { bestThreshold, thresholdCurve } from './noulAgreement';
import type { ThresholdPoint } from './noulAgreement';
import { idOf, proportionsOf, questionData, scratchFor, statKeys, statsInto } from './questionData';
import type { ClassIndices, NoulData, QuestionData } from './questionData';
import {
  LINEARISED_ABOVE,
  LINEARISED_METHOD,
  linearise,
  normalInterval,
  rangeOf,
  spearmanInterval,
  sumsOf,
} from './linearised';
import type { Sums } from './linearised';
import { seededRandom } from '../../contract/random';
import { NO_LABEL, alignTableOf } from './table';
import type { AlignTable } from './table';
import { ROGAN_GLADEN_UNDEFINED, roganGladen } from './roganGladen';
import { selectiveCurve, selectiveReadout, selectiveSentence } from './selective';
import type { SelectivePoint } from './selective';
import { DEFAULT_OPTIONS, TRUST_OPTION_DEFAULTS, undefinedFigure } from './types';
import type { TrustFigures } from '../trust';
import { questionSeed } from './rng';
import { questionTrust } from './questionTrust';
import type { CascadeTables } from './questionTrust';
import { trustFigureKeys } from './trustKeys';
import type { AlignRow, AlignmentOptions, Figure, LabelValue } from './types';

/** Mistakes and cell rows a report lists: more than a person reads, few enough to move between threads at once. */
export const DISAGREEMENTS_KEPT = 500;
export const CELL_ROWS_KEPT = 200;

const diagonalOf = (m: Float64Array, K: number): number => {
  let d = 0;
  for (let k = 0; k < K; k++) d += m[k * K + k]!;
  return d;
};

/** A row where judge and label differ. */
export interface Disagreement {
  id: string;
  label: LabelValue;
  predicted: LabelValue;
  /** Probability the judge gave its own (wrong) prediction: high means a confident mistake. */
  pPredicted: number;
  /** Probability the judge gave the human label. */
  pLabel: number;
}

/** Prevalence of one class over the whole file: the judge's share, corrected for its error rates, and the human one. */
export interface Prevalence {
  label: string;
  judge: Figure;
  corrected: Figure;
  human: Figure;
  sensitivity: number | null;
  specificity: number | null;
}

export interface QuestionReport {
  name: string;
  type: 'choice' | 'score' | 'noul';
  classes: string[];
  /** Rows with both a valid label and an answer: the n of every agreement figure. */
  n: number;
  labelled: number;
  unanswered: number;
  /** Of `unanswered`, the rows the judge refused (absent in reports made before refusals were counted apart). */
  refused?: number;
  invalidLabels: number;
  figures: Record<string, Figure>;
  /** counts[truth][predicted], and the row ids behind each cell (the first CELL_ROWS_KEPT in file order). */
  confusion: { counts: number[][]; ids: string[][][] };
  reliability: ReliabilityBin[];
  selective: {
    confidenceName: string;
    points: SelectivePoint[];
    readout: SelectivePoint | null;
    sentence: string;
  };
  /** Noul: the threshold in force, the best balanced-accuracy one and the rates on a 0.01 grid. */
  threshold?: { value: number; best: ThresholdPoint | null; grid: ThresholdPoint[] };
  /** Mistakes, the most confident first (the first DISAGREEMENTS_KEPT), and how many there are in all. */
  disagreements: Disagreement[];
  disagreementCount: number;
  prevalence: Prevalence[];
  /** "Can the judge replace a person?": the human ceiling, the alt-test, the guaranteed threshold and PPI. */
  trust?: TrustFigures;
}

export interface AlignmentReport {
  options: AlignmentOptions;
  /** Sentences stating every convention the figures use. */
  conventions: string[];
  bootstrap: { B: number; seed: number };
  rows: { total: number; answered: number };
  questions: Record<string, QuestionReport>;
  /** Every figure under its stable key, question name first. */
  figures: Record<string, Figure>;
}

const PROPORTION_METHODS: Record<string, string> = {
  accuracy: 'share of rows where the prediction equals the label',
  exact: 'share of rows where the predicted level equals the label',
  within_one: 'share of rows where the predicted level is within one level of the label',
  tpr: 'true-positive rate at the threshold',
  tnr: 'true-negative rate at the threshold',
};

const STAT_METHODS: Record<string, string> = {
  kappa: "Cohen's kappa",
  macro_f1: 'macro F1 over the labels present',
  qwk: 'quadratic weighted kappa over the question’s levels',
  spearman: 'Spearman correlation (midranks) of the expected score with the label',
  mae: 'mean absolute error of the expected score against the label level',
  auroc: 'ROC AUC of P(yes), ties counted as one half',
  brier: 'Brier score (multi-class: sum over classes of squared error, 0 to 2; noul: (p - y)^2)',
  log_loss: 'log loss',
  ece: 'expected calibration error',
};

/** The conventions in force, one sentence each, for the report and the tooltips. */
export function conventionsOf(options: AlignmentOptions, B: number): string[] {
  return [
    options.scorePrediction === 'mostProbable'
      ? 'Score prediction: the most probable level (ties: the lower level).'
      : 'Score prediction: the expected score rounded to a level (halves up).',
    'Choice prediction: the most probable label (ties: the first in criteria order).',
    'Noul prediction: P(yes) at or above the threshold (0.5 unless moved).',
    'Distributions are renormalised to sum to 1 before any figure.',
    'Calibration uses probabilities, never the answer’s confidence field: the top label’s probability (choice, score) or P(yes) (noul).',
    `ECE and the reliability diagram: ${options.bins} ${BIN_EDGE_RULE}.`,
    `Log loss: probabilities floored at ${options.logLossFloor}.`,
    `Intervals: Wilson for proportions; seeded percentile bootstrap over rows (B=${B}, seed ${options.bootstrap.seed}) for the rest. A bootstrap interval of a biased figure such as ECE need not contain the estimate.`,
    ...(options.bootstrap.B === null
      ? [
          `For a question with more than ${LINEARISED_ABOVE.toLocaleString('en')} labelled rows the rest are linearised instead (normal intervals from the infinitesimal jackknife standard error, which the bootstrap estimates too; ROC AUC by DeLong, Spearman by Fisher’s z with Bonett and Wright’s standard error; corrected prevalence by the delta method), because resampling that many rows hundreds of times costs seconds.`,
        ]
      : []),
    'Corrected prevalence: Rogan-Gladen over every answered row, with sensitivity and specificity measured on the labelled rows; the interval resamples both.',
    (options.trust?.ppiPredictor ?? 'probability') === 'probability'
      ? "Prediction-powered prevalence and mean: the judge's probabilities stand for it (a label's probability for its share, the expected level for a score's mean, P(yes) for a noul); the hard label where an answer has none."
      : "Prediction-powered prevalence and mean: the judge's hard labels stand for it (the predicted label above), as chosen.",
  ];
}

const labelOf = (data: QuestionData, index: number): LabelValue =>
  data.type === 'choice' ? data.classes[index]! : data.type === 'score' ? index : index === 1;

function disagreementsOf(data: QuestionData, probabilityOfLabel: (row: number) => number): Disagreement[] {
  // Only the first DISAGREEMENTS_KEPT are sorted: a histogram of confidence finds the level they start at.
  const levels = 1024;
  const histogram = new Int32Array(levels + 1);
  const level = (i: number): number => Math.min(levels, Math.max(0, Math.floor(data.predP[i]! * levels)));
  for (let i = 0; i < data.n; i++) if (data.y[i] !== data.pred[i]) histogram[level(i)]!++;
  let from = levels;
  for (let kept = histogram[levels]!; from > 0 && kept < DISAGREEMENTS_KEPT;) kept += histogram[--from]!;
  const mistakes: number[] = [];
  for (let i = 0; i < data.n; i++) if (data.y[i] !== data.pred[i] && level(i) >= from) mistakes.push(i);
  // The most confident first; ties in file order.
  mistakes.sort((a, b) => data.predP[b]! - data.predP[a]! || a - b);
  return mistakes.slice(0, DISAGREEMENTS_KEPT).map((i) => ({
    id: idOf(data, i),
    label: labelOf(data, data.y[i]!),
    predicted: labelOf(data, data.pred[i]!),
    pPredicted: data.predP[i]!,
    pLabel: probabilityOfLabel(i),
  }));
}

/** Rows of the file above which the judge's share is resampled from a normal draw instead of row by row. */
const EXACT_APPARENT_WORK = 2e6;

function normalDraw(random: () => number): number {
  // Box-Muller; 1 - u keeps the logarithm finite.
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** How many of the values fall in each class 0..K-1. */
function classCounts(values: ClassIndices, K: number): Float64Array {
  const counts = new Float64Array(K);
  for (let i = 0; i < values.length; i++) counts[values[i]!]! += 1;
  return counts;
}

function prevalenceOf(
  data: QuestionData,
  allCounts: Float64Array,
  /** Answered rows of the file: the judge's share's denominator. */
  N: number,
  point: Record<string, number | null>,
  corrected: (label: string) => { lo: number | null; hi: number | null; method: string },
): Prevalence[] {
  const classes = data.type === 'noul' ? [1] : data.classes.map((_, k) => k);
  const humanCounts = classCounts(data.y, data.K);
  return classes.map((k) => {
    const label = data.classes[k]!;
    const hits = allCounts[k]!;
    const human = humanCounts[k]!;
    const w = wilson(hits, N);
    const hw = wilson(human, data.n);
    const apparent = N === 0 ? null : hits / N;
    const se = point[`se.${label}`] ?? null;
    const sp = point[`sp.${label}`] ?? null;
    const value = apparent === null || se === null || sp === null ? null : roganGladen(apparent, se, sp);
    const interval = corrected(label);
    const method = `Rogan-Gladen over ${N} answered rows with sensitivity and specificity from ${data.n} labelled rows, clipped to [0, 1]; ${interval.method}`;
    return {
      label,
      sensitivity: se,
      specificity: sp,
      judge:
        N === 0
          ? undefinedFigure(0, 'share of answered rows the judge assigns', 'No row is answered.')
          : {
              value: apparent,
              lo: w.lo,
              hi: w.hi,
              n: N,
              method: 'share of answered rows the judge assigns; Wilson 95% interval',
            },
      human:
        data.n === 0
          ? undefinedFigure(0, 'share of labelled rows with this label', 'No labelled row is answered.')
          : {
              value: human / data.n,
              lo: hw.lo,
              hi: hw.hi,
              n: data.n,
              method: 'share of labelled rows with this label; Wilson 95% interval',
            },
      corrected:
        value === null
          ? undefinedFigure(
              N,
              method,
              se === null || sp === null
                ? 'The labelled rows hold only one side of this label, so its error rates are unknown.'
                : ROGAN_GLADEN_UNDEFINED,
            )
          : { value, lo: interval.lo, hi: interval.hi, n: N, method },
    };
  });
}

/** How a question's intervals are drawn: each figure's interval and method, and the corrected prevalence's. */
interface Intervals {
  interval: (key: string, value: number) => { lo: number | null; hi: number | null };
  method: (what: string) => string;
  corrected: (label: string) => { lo: number | null; hi: number | null; method: string };
}

/** Percentile bootstrap over the labelled rows, with the judge's share over the whole file resampled alongside. */
function bootstrapIntervals(
  data: QuestionData,
  all: ClassIndices,
  allCounts: Float64Array,
  B: number,
  seed: number,
): Intervals {
  const n = data.n;
  const N = all.length;
  const exactApparent = N * B <= EXACT_APPARENT_WORK;
  const classCount = data.type === 'noul' ? 1 : data.K;
  const classIndex = (c: number): number => (data.type === 'noul' ? 1 : c);
  const shares = Array.from({ length: classCount }, (_, c) => (N === 0 ? 0 : allCounts[classIndex(c)]! / N));
  const prevalenceRandom = seededRandom(seed ^ 0x9e3779b9);
  const allIdxCounts = new Float64Array(data.K);
  const statNames = statKeys(data);
  const correctedKeys = Array.from(
    { length: classCount },
    (_, c) => `corrected.${data.classes[classIndex(c)]}`,
  );
  const sePos = Array.from({ length: classCount }, (_, c) =>
    statNames.indexOf(`se.${data.classes[classIndex(c)]}`),
  );
  const scratch = scratchFor(data);
  const draws = bootstrap(n, B, seed, [...statNames, ...correctedKeys], (weights, out) => {
    statsInto(data, weights, scratch, out);
    // The judge's share over the whole file, resampled alongside: row by row when affordable.
    if (exactApparent) {
      allIdxCounts.fill(0);
      for (let j = 0; j < N; j++) allIdxCounts[all[Math.floor(prevalenceRandom() * N)]!]! += 1;
    }
    for (let c = 0; c < classCount; c++) {
      const share = shares[c]!;
      const apparent = exactApparent
        ? allIdxCounts[classIndex(c)]! / Math.max(1, N)
        : Math.min(
            1,
            Math.max(
              0,
              share + normalDraw(prevalenceRandom) * Math.sqrt((share * (1 - share)) / Math.max(1, N)),
            ),
          );
      const se = out[sePos[c]!]!;
      const sp = out[sePos[c]! + 1]!;
      const v = Number.isNaN(se) || Number.isNaN(sp) || N === 0 ? null : roganGladen(apparent, se, sp);
      out[statNames.length + c] = v === null ? Number.NaN : v;
    }
  });
  return {
    interval: (key) => percentileInterval(draws, key),
    method: (what) => bootstrapMethod(draws, what),
    corrected: (label) => ({
      ...percentileInterval(draws, `corrected.${label}`),
      method: `95% percentile bootstrap resampling the labelled rows and ${exactApparent ? 'the answered rows' : 'the judge’s share (normal approximation of its binomial draw)'}, B=${draws.B}, seed ${draws.seed}`,
    }),
  };
}

/** Linearised intervals (delta method), for questions with more labelled rows than resampling can afford. */
function linearIntervals(data: QuestionData, sums: Sums, allCounts: Float64Array, N: number): Intervals {
  const lin = linearise(data, sums);
  return {
    interval: (key, value) =>
      key === 'spearman'
        ? spearmanInterval(value, data.n)
        : normalInterval(value, lin.se(key), rangeOf(key, data.K)),
    method: (what) =>
      what.startsWith('Spearman')
        ? `${what}; 95% interval from Fisher’s z with Bonett and Wright’s standard error`
        : `${what}; ${LINEARISED_METHOD}`,
    corrected: (label) => {
      const k = data.type === 'noul' ? 1 : data.classes.indexOf(label);
      const a = N === 0 ? Number.NaN : allCounts[k]! / N;
      const se = lin.point(`se.${label}`);
      const sp = lin.point(`sp.${label}`);
      const J = se + sp - 1;
      const raw = (a + sp - 1) / J;
      // Delta method: the judge's share is binomial over the answered rows; sensitivity and specificity move with the
      // labelled rows' influences.
      const variance = (a * (1 - a)) / (J * J * N) + lin.senSpecVariance(k, -raw / J, (1 - raw) / J);
      const value = roganGladen(a, se, sp);
      const interval =
        value === null ? { lo: null, hi: null } : normalInterval(value, Math.sqrt(variance), [0, 1]);
      return {
        ...interval,
        method: `${LINEARISED_METHOD}, the judge’s share binomial over the answered rows`,
      };
    },
  };
}

/** The proportion figures (accuracy, precision and recall by class...), each with its Wilson interval. */
function proportionFigures(data: QuestionData, m: Float64Array, figures: Record<string, Figure>): void {
  for (const [key, { k, n: denom }] of Object.entries(proportionsOf(data, m))) {
    const what =
      PROPORTION_METHODS[key] ??
      (key.startsWith('precision.') ? `precision of ${key.slice(10)}` : `recall of ${key.slice(7)}`);
    const method = `${what}; Wilson 95% interval`;
    if (denom === 0) {
      figures[key] = undefinedFigure(
        0,
        method,
        key.startsWith('precision.')
          ? 'The judge never predicted this label.'
          : data.n === 0
            ? 'No row has both a label and an answer.'
            : 'No labelled row falls in this class.',
      );
      continue;
    }
    const w = wilson(k, denom);
    figures[key] = { value: k / denom, lo: w.lo, hi: w.hi, n: denom, method };
  }
}

/** Why a statistic has no value for this question. */
function undefinedStatReason(key: string, n: number): string {
  if (n === 0) return 'No row has both a label and an answer.';
  if (key === 'auroc') return 'AUC needs labelled rows of both classes (yes and no).';
  if (key === 'spearman')
    return 'The labels or the expected scores do not vary, so there are no ranks to correlate.';
  return 'Labels and answers all fall in one and the same class, so agreement by chance is already complete.';
}

/** The statistics of the question's type (kappa, QWK, AUROC...) and its calibration, with their intervals. */
function statFigures(
  data: QuestionData,
  point: Record<string, number | null>,
  intervals: Intervals,
  options: AlignmentOptions,
  figures: Record<string, Figure>,
): void {
  const n = data.n;
  const figureKeys =
    data.type === 'choice'
      ? ['kappa', 'macro_f1']
      : data.type === 'score'
        ? ['qwk', 'spearman', 'mae']
        : ['auroc'];
  for (const key of [...figureKeys, 'brier', 'log_loss', 'ece']) {
    let what = STAT_METHODS[key]!;
    if (key === 'ece') what += ` (${options.bins} ${BIN_EDGE_RULE})`;
    if (key === 'log_loss') what += ` (probabilities floored at ${options.logLossFloor})`;
    const method = intervals.method(what);
    const value = point[key] ?? null;
    if (value === null) {
      figures[key] = undefinedFigure(n, method, undefinedStatReason(key, n));
      continue;
    }
    const { lo, hi } = intervals.interval(key, value);
    figures[key] = { value, lo, hi, n, method };
  }
}

/** counts[truth][predicted] and the first CELL_ROWS_KEPT row ids of each cell, in file order. */
function confusionOf(data: QuestionData, m: Float64Array): QuestionReport['confusion'] {
  const counts: number[][] = [];
  const ids: string[][][] = [];
  for (let i = 0; i < data.K; i++) {
    counts.push(Array.from({ length: data.K }, (_, j) => m[i * data.K + j]!));
    ids.push(Array.from({ length: data.K }, () => []));
  }
  for (let r = 0; r < data.n; r++) {
    const cell = ids[data.y[r]!]![data.pred[r]!]!;
    if (cell.length < CELL_ROWS_KEPT) cell.push(idOf(data, r));
  }
  return { counts, ids };
}

/** Accuracy as the judge keeps only its more confident answers, with its readout in words. */
function selectiveOf(data: QuestionData): QuestionReport['selective'] {
  const confidenceName = data.type === 'noul' ? 'probability of the predicted side' : 'top probability';
  const correct = new Uint8Array(data.n);
  for (let i = 0; i < data.n; i++) correct[i] = data.y[i] === data.pred[i] ? 1 : 0;
  const points = selectiveCurve(data.predP, correct);
  const readout = selectiveReadout(points);
  return { confidenceName, points, readout, sentence: selectiveSentence(readout, confidenceName) };
}

/** The probability the judge gave a row's human label. */
const labelProbabilityOf =
  (data: QuestionData) =>
  (row: number): number => {
    if (data.type === 'noul') return data.y[row] === 1 ? data.p[row]! : 1 - data.p[row]!;
    // The probability of the label: recovered from log loss when above the floor, which is exact there.
    return Math.exp(-data.logLoss[row]!);
  };

/** A yes/no question's threshold, the best one, and the curve read at every hundredth for the slider. */
function thresholdReportOf(data: NoulData): NonNullable<QuestionReport['threshold']> {
  const curve = thresholdCurve(data.p, data.y);
  const grid: ThresholdPoint[] = [];
  let at = 0;
  for (let g = 0; g <= 100 && curve.length > 0; g++) {
    const t = g / 100;
    while (at < curve.length - 1 && curve[at]!.threshold < t - 1e-9) at++;
    const pt = curve[at]!;
    grid.push({ threshold: t, tpr: pt.tpr, tnr: pt.tnr, balancedAccuracy: pt.balancedAccuracy });
  }
  return { value: data.threshold, best: bestThreshold(curve), grid };
}

/** Every figure of one question. */
function questionReport(
  name: string,
  question: Question,
  table: AlignTable,
  options: AlignmentOptions,
  B: number,
  seed: number,
): QuestionReport {
  const data = questionData(name, question, table, options);
  const n = data.n;
  // The sums over every row, gathered once for the figures and, above the threshold, their influences.
  const sums = sumsOf(data);
  const point = sums.points;
  // The confusion counts are among the sums: counts[truth][predicted] over every labelled row once.
  const m = sums.s.m;
  const all = data.predicted;
  const allCounts = classCounts(all, data.K);
  const intervals =
    options.bootstrap.B === null && n > LINEARISED_ABOVE
      ? linearIntervals(data, sums, allCounts, all.length)
      : bootstrapIntervals(data, all, allCounts, B, seed);
  const figures: Record<string, Figure> = {};
  proportionFigures(data, m, figures);
  statFigures(data, point, intervals, options, figures);
  const report: QuestionReport = {
    name,
    type: data.type,
    classes: data.classes,
    n,
    labelled: data.labelled,
    unanswered: data.unanswered,
    refused: data.refused,
    invalidLabels: data.invalidLabels,
    figures,
    confusion: confusionOf(data, m),
    // The bin sums gathered with every row once: the same figures as reliabilityBins, without another pass.
    reliability: reliabilityFromSums(sums.s.sumP, sums.s.sumHit, sums.s.count),
    selective: selectiveOf(data),
    disagreements: disagreementsOf(data, labelProbabilityOf(data)),
    disagreementCount: n - diagonalOf(m, data.K),
    prevalence: prevalenceOf(data, allCounts, all.length, point, intervals.corrected),
  };
  if (data.type === 'noul') report.threshold = thresholdReportOf(data);
  return report;
}

/** Merges partial options over the defaults. */
export const withDefaults = (options: Partial<AlignmentOptions> = {}): AlignmentOptions => ({
  ...DEFAULT_OPTIONS,
  ...options,
  bootstrap: { ...DEFAULT_OPTIONS.bootstrap, ...options.bootstrap },
  noulThresholds: { ...DEFAULT_OPTIONS.noulThresholds, ...options.noulThresholds },
  trust: { ...TRUST_OPTION_DEFAULTS, ...options.trust },
});

/** Every alignment figure of a run: per question and flat under stable keys. */
export function computeAlignment(
  questions: Questions,
  input: AlignTable | readonly AlignRow[],
  partial: Partial<AlignmentOptions> = {},
  cascade?: CascadeTables,
  /**
   * Called after each question's figures and after its trust figures, once their per-row arrays are garbage: the
   * command line runs a full collection there, so a million rows' arrays are let go before the next are made.
   */
  release: () => void = () => {},
): AlignmentReport {
  const options = withDefaults(partial);
  const table = Array.isArray(input) ? alignTableOf(questions, input) : (input as AlignTable);
  const reports: Record<string, QuestionReport> = {};
  const figures: Record<string, Figure> = {};
  const labelledCount = (name: string): number => {
    let count = 0;
    for (const v of table.columns[name]?.label ?? []) if (v !== NO_LABEL) count++;
    return count;
  };
  const sizes = new Map(Object.keys(questions).map((name) => [name, labelledCount(name)]));
  const names = [...sizes].filter(([, size]) => size > 0).map(([name]) => name);
  const maxN = Math.max(0, ...sizes.values());
  const B = options.bootstrap.B ?? bootstrapSize(maxN);
  names.forEach((name) => {
    // Each question draws its own resamples from a seed derived from the run's seed and its name, so adding a
    // question moves no other question's interval.
    const report = questionReport(
      name,
      questions[name]!,
      table,
      options,
      B,
      questionSeed(options.bootstrap.seed, name),
    );
    release();
    // The trust figures' intervals follow the question's own: linearised above LINEARISED_ABOVE rows with B left
    // open (resampling 100,000 rows took 400 ms of the screen's 600), else the same B.
    const linear = options.bootstrap.B === null && (sizes.get(name) ?? 0) > LINEARISED_ABOVE;
    const trust = questionTrust(name, questions[name]!, table, options, linear ? null : B, cascade);
    release();
    if (trust) report.trust = trust;
    reports[name] = report;
    for (const [key, figure] of Object.entries(report.figures)) figures[`${name}.${key}`] = figure;
    if (trust)
      for (const [key, figure] of Object.entries(trustFigureKeys(trust))) figures[`${name}.${key}`] = figure;
    for (const p of report.prevalence) {
      const base = report.type === 'noul' ? `${name}.prevalence` : `${name}.prevalence.${p.label}`;
      figures[`${base}.judge`] = p.judge;
      figures[`${base}.corrected`] = p.corrected;
      figures[`${base}.human`] = p.human;
    }
  });
  const answered = table.answered;
  return {
    options,
    conventions: conventionsOf(options, B),
    bootstrap: { B, seed: options.bootstrap.seed },
    rows: { total: table.ids.length, answered },
    questions: reports,
    figures,
  };
}
