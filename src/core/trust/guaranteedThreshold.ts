// A confidence threshold with a guarantee (Jung, Brahman & Choi 2024, "Trust or Escalate", arXiv 2407.18370): the
// judge settles the rows at or above the threshold and agrees with the human majority on at least 1 - alpha of them,
// with probability at least 1 - delta over the labelled rows. Fixed-sequence testing walks the grid of distinct
// confidences from the highest down; each threshold passes when the exact one-sided Clopper-Pearson upper bound of
// its disagreement rate is at most alpha; the walk stops at the first failure and keeps the last pass. When the first
// fails, no threshold is certified (the authors' code would return the top one uncertified; the paper abstains).
import { rankCodes } from '../alignment/scoreAgreement';
import { clopperPearsonUpper } from './clopperPearson';

export interface ThresholdOptions {
  /** The disagreement rate to stay under: 1 - alpha is the agreement certified. */
  alpha: number;
  /** The chance the certificate may be wrong. */
  delta: number;
  /** Rows a threshold must keep to be on the grid. */
  minRows: number;
}

export const THRESHOLD_DEFAULTS: ThresholdOptions = { alpha: 0.1, delta: 0.1, minRows: 30 };

/** One threshold on the grid: the rows it keeps, their disagreements and the bound. */
export interface ThresholdStep {
  threshold: number;
  rows: number;
  agreement: number;
  bound: number;
}

export interface GuaranteedThreshold {
  alpha: number;
  delta: number;
  minRows: number;
  /** The lowest certified confidence, or null when none is certified. */
  threshold: number | null;
  /** Rows the search read: labelled by a person and answered, with a confidence. */
  eligible: number;
  /** Rows at or above the threshold (0 when none is certified), and their share of the eligible ones. */
  rows: number;
  coverage: number;
  /** Agreement with the majority on the kept rows, and the upper bound of their disagreement rate. */
  agreement: number | null;
  bound: number | null;
  /** Thresholds tested before the walk stopped, and the one that stopped it (null when the grid ran out). */
  tested: number;
  failed: ThresholdStep | null;
}

/**
 * The certified threshold of rows given by their confidence and whether the judge agreed with the majority
 * (1) or not (0). Rows with a confidence that is not a number are left out.
 */
export function guaranteedThreshold(
  confidence: ArrayLike<number>,
  agrees: ArrayLike<number>,
  options: Partial<ThresholdOptions> = {},
): GuaranteedThreshold {
  const o = { ...THRESHOLD_DEFAULTS, ...options };
  // Rows and disagreements per distinct confidence, read from the top down.
  let eligible = 0;
  for (let i = 0; i < confidence.length; i++) if (Number.isFinite(confidence[i]!)) eligible++;
  // Rows without a confidence left out; a copy only when there are some (a million rows' copy is 9 MB).
  let conf = confidence;
  let agreed = agrees;
  if (eligible < confidence.length) {
    const kept = new Float64Array(eligible);
    const keptAgrees = new Uint8Array(eligible);
    for (let i = 0, j = 0; i < confidence.length; i++) {
      if (!Number.isFinite(confidence[i]!)) continue;
      kept[j] = confidence[i]!;
      keptAgrees[j++] = agrees[i] === 1 ? 1 : 0;
    }
    conf = kept;
    agreed = keptAgrees;
  }
  const { codes, values, distinct } = rankCodes(conf);
  const rowsAt = new Float64Array(distinct);
  const wrongAt = new Float64Array(distinct);
  for (let j = 0; j < eligible; j++) {
    rowsAt[codes[j]!]! += 1;
    wrongAt[codes[j]!]! += agreed[j] === 1 ? 0 : 1;
  }
  let rows = 0;
  let wrong = 0;
  let tested = 0;
  let passed: ThresholdStep | null = null;
  let failed: ThresholdStep | null = null;
  for (let c = distinct - 1; c >= 0; c--) {
    rows += rowsAt[c]!;
    wrong += wrongAt[c]!;
    if (rows < o.minRows) continue;
    tested++;
    const step = {
      threshold: values[c]!,
      rows,
      agreement: 1 - wrong / rows,
      bound: clopperPearsonUpper(wrong, rows, o.delta),
    };
    if (step.bound > o.alpha) {
      failed = step;
      break;
    }
    passed = step;
  }
  const base = { alpha: o.alpha, delta: o.delta, minRows: o.minRows, eligible, tested, failed };
  if (!passed) return { ...base, threshold: null, rows: 0, coverage: 0, agreement: null, bound: null };
  return {
    ...base,
    threshold: passed.threshold,
    rows: passed.rows,
    coverage: passed.rows / eligible,
    agreement: passed.agreement,
    bound: passed.bound,
  };
}
