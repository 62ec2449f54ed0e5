// Shared shapes of the alignment figures: every figure carries its n, a 95% interval and the method that made them.
import type { Answer } from '../../contract';
import type { PpiPredictor } from '../trust/estimates';
import type { LabelValue } from '../labels/values';
import type { Annotations } from '../labels/annotators';

export type { LabelValue } from '../labels/values';

/**
 * One figure: the value with a 95% interval, the rows it rests on and how it was computed. A figure that cannot be
 * computed (kappa with one class, AUC without negatives) has `value: null` and says why in `undefinedReason`.
 */
export interface Figure {
  value: number | null;
  lo: number | null;
  hi: number | null;
  n: number;
  method: string;
  undefinedReason?: string;
}

/** One row as the metrics see it: its id, the judge's answers (when answered) and the human labels it has. */
export interface AlignRow {
  id: string;
  answers?: Record<string, Answer>;
  labels: Record<string, LabelValue>;
  /** Each annotator's label, by question then annotator, where several labelled a question (`labels` is their majority). */
  annotations?: Annotations;
}

/** The conventions a report is computed under; each is stated next to the figures. */
export interface AlignmentOptions {
  /** Prediction of a score question: the most probable level (default) or the expected score rounded. */
  scorePrediction: 'mostProbable' | 'expectedRounded';
  /** P(yes) at or above this predicts yes, per noul question (default 0.5). */
  noulThresholds: Record<string, number>;
  /** Equal-width reliability bins for ECE and the diagram. */
  bins: number;
  /** Percentile bootstrap: resamples and seed; null B chooses by row count (see bootstrapSize). */
  bootstrap: { B: number | null; seed: number };
  /** Probability floor in log loss, so a label given 0 costs a finite amount. */
  logLossFloor: number;
  /**
   * "Can the judge replace a person?": the alt-test's margin epsilon, and the guaranteed threshold's target (agree with
   * the majority at least 1 - alpha of the time, with probability at least 1 - delta). Optional so reports kept
   * before them still parse. PPI's predictor: the judge's probabilities (default) or its hard labels.
   */
  trust?: { epsilon: number; alpha: number; delta: number; ppiPredictor?: PpiPredictor };
}

export const TRUST_OPTION_DEFAULTS = {
  epsilon: 0.2,
  alpha: 0.1,
  delta: 0.1,
  ppiPredictor: 'probability',
} as const satisfies NonNullable<AlignmentOptions['trust']>;

export const DEFAULT_OPTIONS: AlignmentOptions = {
  scorePrediction: 'mostProbable',
  noulThresholds: {},
  bins: 10,
  bootstrap: { B: null, seed: 1 },
  logLossFloor: 1e-15,
  trust: { ...TRUST_OPTION_DEFAULTS },
};

/** An undefined figure, with its reason. */
export const undefinedFigure = (n: number, method: string, reason: string): Figure => ({
  value: null,
  lo: null,
  hi: null,
  n,
  method,
  undefinedReason: reason,
});
