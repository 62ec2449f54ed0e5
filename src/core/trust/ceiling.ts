// The human ceiling and the judge beside it, each with n and a 95% interval: Krippendorff's alpha (the metric that
// fits the type), Fleiss' kappa on the rows every annotator rated, the mean pairwise Cohen's kappa, and the judge's
// kappa against the majority and against each annotator. The intervals are one percentile bootstrap over the
// labelled rows (items, not single ratings: a row's ratings move together); the rows are folded into patterns first,
// so each resample is a count per pattern and every figure a sum over a few hundred patterns.
import {
  bootstrap,
  bootstrapMethod,
  bootstrapSize,
  percentileInterval,
  wilson,
} from '../alignment/intervals';
import { LINEARISED_ABOVE, LINEARISED_METHOD, normalInterval } from '../alignment/linearised';
import { undefinedFigure } from '../alignment/types';
import type { Figure } from '../alignment/types';
import { agreementSums, evaluate, influenceSe, influences, sumsOf } from './agreementSums';
import type { AlphaMetric } from './krippendorff';
import { annotatorColumn, cellsOf, confusionOfCells } from './pairwise';
import { patternWeights, patternsOf } from './patterns';
import { MISSING, rowCount } from './ratings';
import type { TrustData } from './ratings';

export interface CeilingFigures {
  /** Alpha by metric: nominal for choice and noul; ordinal and interval for score. */
  alpha: Partial<Record<AlphaMetric, Figure>>;
  fleiss: Figure;
  pairwiseKappa: Figure;
  pairs: { a: string; b: string; kappa: Figure }[];
  /** The judge's kappa (score: quadratic weighted) against the majority label, and its plain agreement with it. */
  judgeMajority: Figure;
  judgeAgreement: Figure;
  judgeAnnotators: { name: string; kappa: Figure }[];
  /** The bootstrap's resamples and seed (B 0 when the intervals are linearised). */
  bootstrap: { B: number; seed: number };
  intervals: 'bootstrap' | 'linearised';
}

export const alphaMetricsOf = (type: TrustData['type']): AlphaMetric[] =>
  type === 'score' ? ['ordinal', 'interval'] : ['nominal'];

/** The indices of the rows at least one annotator rated, as a typed array (a plain array of a million costs 8x). */
function labelledRows(data: TrustData): Int32Array {
  const A = data.annotators.length;
  const rated = (i: number): boolean => {
    for (let a = 0; a < A; a++) if (data.ratings[i * A + a] !== MISSING) return true;
    return false;
  };
  let ratedRows = 0;
  for (let i = 0; i < rowCount(data); i++) if (rated(i)) ratedRows++;
  const labelled = new Int32Array(ratedRows);
  for (let i = 0, j = 0; i < rowCount(data); i++) if (rated(i)) labelled[j++] = i;
  return labelled;
}

/** Each figure's interval and the words of its method: from each row's influence, or from bootstrap draws. */
function intervalsOf(
  linear: boolean,
  B: number,
  seed: number,
  at: { sums: ReturnType<typeof agreementSums>; S: ReturnType<typeof sumsOf>; point: Float64Array },
  patterns: ReturnType<typeof patternsOf>,
  rows: number,
): {
  interval: (key: string, at: number) => { lo: number | null; hi: number | null };
  method: (what: string) => string;
} {
  const { sums, S, point } = at;
  const keys = sums.keys;
  const P = patterns.count.length;
  if (linear) {
    const d = influences(sums, S);
    return {
      interval: (_key, i) => normalInterval(point[i]!, influenceSe(d[i]!, patterns.count), [-1, 1]),
      method: (what) => `${what}; ${LINEARISED_METHOD}`,
    };
  }
  const pw = new Float64Array(P);
  const scratch = new Float64Array(sums.size);
  const draws = bootstrap(rows, B, seed, keys, (weights, out) =>
    evaluate(sums, sumsOf(sums, patternWeights(patterns, weights, pw), scratch), out),
  );
  return {
    interval: (key) => percentileInterval(draws, key),
    method: (what) => bootstrapMethod(draws, what),
  };
}

/** The rows (counted through their patterns) whose number of ratings passes `test`. */
function rowsRatedBy(
  patterns: ReturnType<typeof patternsOf>,
  A: number,
  test: (ratings: number) => boolean,
): number {
  let n = 0;
  for (let p = 0; p < patterns.count.length; p++) {
    let r = 0;
    for (let a = 0; a < A; a++) if (patterns.ratings[p * A + a] !== MISSING) r++;
    if (test(r)) n += patterns.count[p]!;
  }
  return n;
}

/** What the judge's figures are read from: the rows' patterns, the majority, each annotator's column, the figures. */
interface JudgeInputs {
  data: TrustData;
  patterns: ReturnType<typeof patternsOf>;
  majority: ReturnType<typeof agreementSums>['majority'];
  columns: ReturnType<typeof annotatorColumn>[];
  K: number;
  figure: (key: string, n: number, what: string, reason: string) => Figure;
  kappaName: string;
  oneClass: string;
}

/** The judge beside the ceiling: against the majority label (kappa, and the share agreed), and against each annotator. */
function judgeFigures(
  j: JudgeInputs,
): Pick<CeilingFigures, 'judgeMajority' | 'judgeAgreement' | 'judgeAnnotators'> {
  const { data, patterns, majority, K, figure, kappaName, oneClass } = j;
  const P = patterns.count.length;
  const rowsIn = (cells: Int32Array): number => confusionOfCells(cells, K, patterns.count).n;
  const majorityCells = cellsOf(majority, patterns.judge, K);
  const annotatorCells = j.columns.map((column) => cellsOf(column, patterns.judge, K));
  const agreementRows = rowsIn(majorityCells);
  let agreed = 0;
  for (let p = 0; p < P; p++)
    if (majorityCells[p]! >= 0 && majority[p] === patterns.judge[p]) agreed += patterns.count[p]!;
  const agreementInterval = wilson(agreed, agreementRows);
  return {
    judgeMajority: figure(
      'judge.majority',
      agreementRows,
      `${kappaName} of the judge against the majority label (${majorityRule(data.type)})`,
      oneClass,
    ),
    judgeAgreement:
      agreementRows === 0
        ? undefinedFigure(0, 'agreement with the majority', 'undefined: no rows')
        : {
            value: agreed / agreementRows,
            lo: agreementInterval.lo,
            hi: agreementInterval.hi,
            n: agreementRows,
            method: 'share of rows where the judge predicts the majority label; Wilson interval',
          },
    judgeAnnotators: data.annotators.map((name, a) => ({
      name,
      kappa: figure(
        `judge.${a}`,
        rowsIn(annotatorCells[a]!),
        `${kappaName} of the judge against ${name}`,
        oneClass,
      ),
    })),
  };
}

/** Every figure of the ceiling and the judge beside it, over the rows at least one annotator rated. */
export function ceilingFigures(
  data: TrustData,
  options: { B: number | null; seed: number } = { B: null, seed: 1 },
): CeilingFigures {
  const A = data.annotators.length;
  const K = data.classes.length;
  const labelled = labelledRows(data);
  // Above LINEARISED_ABOVE rows (B left open) a normal interval from each row's influence, as the alignment figures:
  // the first-order variance the bootstrap estimates, without hundreds of passes over the rows.
  const linear = options.B === null && labelled.length > LINEARISED_ABOVE;
  const patterns = patternsOf(data, labelled, !linear);
  const sums = agreementSums(data, patterns, alphaMetricsOf(data.type));
  const { keys, metrics, majority } = sums;
  const S = sumsOf(sums, patterns.count);
  const point = new Float64Array(keys.length);
  evaluate(sums, S, point);
  const B = linear ? 0 : (options.B ?? bootstrapSize(labelled.length));
  const { interval, method } = intervalsOf(
    linear,
    B,
    options.seed,
    { sums, S, point },
    patterns,
    labelled.length,
  );
  const figure = (key: string, n: number, what: string, reason: string): Figure => {
    const at = keys.indexOf(key);
    const v = point[at]!;
    if (!Number.isFinite(v)) return undefinedFigure(n, what, reason);
    return { value: v, ...interval(key, at), n, method: method(what) };
  };
  const columns = data.annotators.map((_, a) => annotatorColumn(patterns, a));
  const pairs = sums.pairs.map(({ a, b }) => ({ a, b, cells: cellsOf(columns[a]!, columns[b]!, K) }));
  const kappaName = sums.kappaWeights ? 'quadratic weighted kappa' : "Cohen's kappa";
  const oneClass = 'undefined: no disagreement is possible by chance (one class only), or no rows';
  const pairable = rowsRatedBy(patterns, A, (r) => r >= 2);
  const complete = rowsRatedBy(patterns, A, (r) => r === A);
  const rowsIn = (cells: Int32Array): number => confusionOfCells(cells, K, patterns.count).n;
  return {
    alpha: Object.fromEntries(
      metrics.map((metric) => [
        metric,
        figure(
          `alpha.${metric}`,
          pairable,
          `Krippendorff's alpha (${metric}) over the rows with two ratings or more`,
          'undefined: fewer than two rows with two ratings, or every rating the same',
        ),
      ]),
    ),
    fleiss: figure(
      'fleiss',
      complete,
      `Fleiss' kappa on the ${complete} rows every annotator rated`,
      oneClass,
    ),
    pairwiseKappa: figure(
      'pairwise',
      pairable,
      `mean ${kappaName} over the ${pairs.length} pairs of annotators, each on the rows both rated`,
      oneClass,
    ),
    pairs: pairs.map((p) => ({
      a: data.annotators[p.a]!,
      b: data.annotators[p.b]!,
      kappa: figure(`pair.${p.a}.${p.b}`, rowsIn(p.cells), `${kappaName} on the rows both rated`, oneClass),
    })),
    ...judgeFigures({ data, patterns, majority, columns, K, figure, kappaName, oneClass }),
    bootstrap: { B, seed: options.seed },
    intervals: linear ? 'linearised' : 'bootstrap',
  };
}

/** The majority rule in words, for the methods and the documentation. */
export const majorityRule = (type: TrustData['type']): string =>
  `the most frequent ${type === 'score' ? 'level' : 'label'}, ties to the first-listed annotator among the tied ${type === 'score' ? 'levels' : 'labels'}`;
