// "Can the judge replace a person?" for one question: every figure of issue 32 from one TrustData, as a plain
// serialisable record (numbers, arrays, strings) that crosses a worker boundary and is kept in session files, with
// the conventions it was computed under and one sentence per finding.
import { altTest, ALT_TEST_DEFAULTS } from './altTest';
import type { AltTest, AltTestOptions } from './altTest';
import { cascadeOf } from './cascade';
import type { Cascade, CascadeJudgeInput } from './cascade';
import { alphaMetricsOf, ceilingFigures, majorityRule } from './ceiling';
import type { CeilingFigures } from './ceiling';
import { guaranteedThreshold, THRESHOLD_DEFAULTS } from './guaranteedThreshold';
import type { GuaranteedThreshold, ThresholdOptions } from './guaranteedThreshold';
import { LINEARISED_ABOVE } from '../alignment/linearised';
import { estimatesOf, predictorOf } from './estimates';
import type { PpiPredictor, TrustEstimate } from './estimates';
import { MISSING, majorityOf, ratingsPerRow, rowCount } from './ratings';
import type { TrustData, TrustType } from './ratings';
import {
  altTestSentence,
  cascadeSentence,
  ceilingSentence,
  estimateSentence,
  thresholdSentence,
} from './sentences';

export interface TrustOptions {
  /** Percentile bootstrap over the labelled rows: resamples (null: by row count) and seed. */
  bootstrap: { B: number | null; seed: number };
  altTest: Partial<AltTestOptions>;
  threshold: Partial<ThresholdOptions>;
  /** Judges in cascade order (the question's own judge is not added: list it where it belongs), or null. */
  cascade: { judges: CascadeJudgeInput[]; lastAnswersAll: boolean } | null;
  /** PPI's lambda: null to power-tune it (PPI++), 1 for plain PPI. */
  ppiLambda: number | null;
  /** PPI's predictor: the judge's probabilities where the answers carry them (default), or its hard labels. */
  ppiPredictor: PpiPredictor;
}

export const TRUST_DEFAULTS: TrustOptions = {
  bootstrap: { B: null, seed: 1 },
  altTest: {},
  threshold: {},
  cascade: null,
  ppiLambda: null,
  ppiPredictor: 'probability',
};

export interface TrustFigures {
  type: TrustType;
  classes: string[];
  annotators: string[];
  rows: {
    total: number;
    /** Rated by at least one annotator, by two or more, by every annotator. */
    labelled: number;
    pairable: number;
    complete: number;
    /** Answered by the judge, and answered with no rating at all (PPI's unlabelled rows). */
    answered: number;
    judgeOnly: number;
  };
  ceiling: CeilingFigures;
  altTest: AltTest;
  threshold: GuaranteedThreshold;
  /**
   * The threshold as the first judge of a two-judge cascade certifies it (delta / 2, Bonferroni): the rows under it
   * are the ones a next judge is asked about. Absent in reports kept before it was computed here.
   */
  escalation?: GuaranteedThreshold;
  cascade: Cascade | null;
  estimates: TrustEstimate[];
  conventions: string[];
  sentences: {
    ceiling: string;
    altTest: string;
    threshold: string;
    cascade: string | null;
    estimates: string[];
  };
}

/** The conventions the figures were computed under, one sentence each. */
export function trustConventions(
  type: TrustType,
  o: TrustOptions,
  intervals: { B: number; linearised: boolean },
): string[] {
  const alt = { ...ALT_TEST_DEFAULTS, ...o.altTest };
  const th = { ...THRESHOLD_DEFAULTS, ...o.threshold };
  return [
    `Majority label: ${majorityRule(type)}; a row with one rating has that label.`,
    `Krippendorff's alpha: ${alphaMetricsOf(type).join(' and ')} metric, through the coincidence matrix; rows with fewer than two ratings add nothing. Fleiss' kappa only on the rows every annotator rated.`,
    intervals.linearised
      ? `Intervals: more than ${LINEARISED_ABOVE.toLocaleString('en')} labelled rows, so normal intervals from each row's influence (the infinitesimal jackknife, the first-order variance a bootstrap over rows estimates); the judge's plain agreement with the majority has a Wilson interval.`
      : `Intervals: seeded percentile bootstrap over the labelled rows (items, not single ratings; B=${intervals.B}, seed ${o.bootstrap.seed}); the judge's plain agreement with the majority has a Wilson interval.`,
    `Alt-test (Calderon, Reichart & Dror 2025): ${type === 'score' ? 'negative RMSE' : 'accuracy'} against the other annotators, one-sided paired t-test on the advantage indicators with epsilon ${alt.epsilon}, Benjamini-Yekutieli at q = ${alt.q}; a verdict needs ${alt.minAnnotators} annotators with ${alt.minRows} rows each, rows with ${alt.minPerRow} ratings or more; an annotator whose differences never vary gets p = 0 when their mean is below epsilon, else 1.`,
    `Guaranteed threshold (Jung, Brahman & Choi 2024): confidence is the judge's top probability; a grid of the distinct confidences keeping ${th.minRows} rows or more, tested from the highest down (fixed sequence), each against the exact one-sided Clopper-Pearson bound at level 1 - delta (alpha ${th.alpha}, delta ${th.delta}); none passing means no threshold.`,
    ...(o.cascade
      ? [
          `Cascade: delta split by Bonferroni (delta / ${o.cascade.judges.length} per judge); a row goes on only when a judge abstains; the last judge ${o.cascade.lastAnswersAll ? 'answers every row that reaches it' : 'settles only rows above its own certified threshold'}.`,
        ]
      : []),
    `Prevalence and mean: PPI${o.ppiLambda === null ? '++ with the power-tuned lambda' : ` with lambda ${o.ppiLambda}`} (ppi_py's formulas) on ${o.ppiPredictor === 'probability' ? "the judge's probabilities (a label's share from that label's probability, a score's mean from the expected level, a noul's from P(yes))" : "the judge's predicted labels (hard labels)"}, normal 95% interval clipped to the figure's range; the classical interval is the normal one of the labelled rows alone (ppi_py's classical_mean_ci), so the two compare like with like.`,
  ];
}

/** Every figure of trust for one question. */
export function trustFigures(data: TrustData, options: Partial<TrustOptions> = {}): TrustFigures {
  const o: TrustOptions = { ...TRUST_DEFAULTS, ...options };
  const n = rowCount(data);
  const A = data.annotators.length;
  const majority = majorityOf(data);
  const perRow = ratingsPerRow(data);
  let labelled = 0;
  let pairable = 0;
  let complete = 0;
  let answered = 0;
  let judgeOnly = 0;
  for (let i = 0; i < n; i++) {
    const m = perRow[i]!;
    if (m >= 1) labelled++;
    if (m >= 2) pairable++;
    if (m === A && A > 0) complete++;
    if (data.judge[i] !== MISSING) {
      answered++;
      if (m === 0) judgeOnly++;
    }
  }
  const ceiling = ceilingFigures(data, o.bootstrap);
  const alt = altTest(data, o.altTest);
  const { conf, agreed } = thresholdRows(data, majority);
  const threshold = guaranteedThreshold(conf, agreed, o.threshold);
  // Computed here, once per report, so the page never certifies it again over every row as a setting moves.
  const delta = o.threshold.delta ?? THRESHOLD_DEFAULTS.delta;
  const escalation = guaranteedThreshold(conf, agreed, { ...o.threshold, delta: delta / 2 });
  const cascade = o.cascade
    ? cascadeOf(majority, o.cascade.judges, { ...o.threshold, lastAnswersAll: o.cascade.lastAnswersAll })
    : null;
  const estimates = estimatesOf(data, majority, perRow, o.ppiLambda, o.ppiPredictor);
  return {
    type: data.type,
    classes: [...data.classes],
    annotators: [...data.annotators],
    rows: { total: n, labelled, pairable, complete, answered, judgeOnly },
    ceiling,
    altTest: alt,
    threshold,
    escalation,
    cascade,
    estimates,
    conventions: trustConventions(
      data.type,
      { ...o, ppiPredictor: predictorOf(data, o.ppiPredictor) },
      {
        B: ceiling.bootstrap.B,
        linearised: ceiling.intervals === 'linearised',
      },
    ),
    sentences: {
      ceiling: ceilingSentence(ceiling),
      altTest: altTestSentence(alt),
      threshold: thresholdSentence(threshold),
      cascade: cascade ? cascadeSentence(cascade) : null,
      estimates: estimates.map((e) => estimateSentence(e.what, e.ppi, e.kind === 'share', e.predictor)),
    },
  };
}

/**
 * The rows the threshold reads, those a person labelled and the judge answered: each one's confidence and whether the
 * judge agreed with the majority. The judge's own confidence column when every answered row is labelled (no copy of a
 * million rows); else those rows copied in a loop into arrays sized once. NOTE: a typed array's `filter` gathers its
 * elements in a plain array first (a boxed number each: 50 MB left behind at a million rows, issue 43).
 */
export function thresholdRows(
  data: TrustData,
  majority: Int32Array,
): { conf: ArrayLike<number>; agreed: Uint8Array } {
  const n = majority.length;
  let judged = 0;
  let answered = 0;
  for (let i = 0; i < n; i++) {
    if (data.judge[i] === MISSING) continue;
    answered++;
    if (majority[i] !== MISSING) judged++;
  }
  const copy = judged < answered;
  const conf = copy ? new Float64Array(judged) : data.confidence;
  const agreed = new Uint8Array(copy ? judged : n);
  for (let i = 0, j = 0; i < n; i++) {
    if (data.judge[i] === MISSING) continue;
    if (majority[i] === MISSING) continue;
    const at = copy ? j++ : i;
    if (copy) (conf as Float64Array)[at] = data.confidence[i]!;
    agreed[at] = majority[i] === data.judge[i] ? 1 : 0;
  }
  return { conf, agreed };
}
