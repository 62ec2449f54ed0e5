// A cascade of judges (Jung, Brahman & Choi 2024, "Cascaded Selective Evaluation"): judges in the order given, the
// cheapest usually first; a row goes to the next judge only when the one before abstains (its confidence is below its
// certified threshold). Judge i certifies its own threshold on the labelled rows that reach it, at delta / k
// (Bonferroni over the k judges), so every certificate holds at once with probability at least 1 - delta; the rows
// the cascade settles then agree with the human majority at least 1 - alpha of the time. The last judge may be
// allowed to answer every row that reaches it, beyond its certificate (a flag, stated in the result).
import { guaranteedThreshold, THRESHOLD_DEFAULTS } from './guaranteedThreshold';
import type { ThresholdOptions } from './guaranteedThreshold';
import { MISSING } from './ratings';

/** One judge of the cascade, over the same rows as the majority labels. */
export interface CascadeJudgeInput {
  name: string;
  /** What one row costs at this judge (any currency, the same for every judge). */
  price: number;
  /** The judge's prediction per row (MISSING without an answer: the judge abstains). */
  judge: Int32Array;
  /** Its top probability per row (NaN without an answer). */
  confidence: Float64Array;
}

export interface CascadeOptions extends ThresholdOptions {
  /** The last judge settles every row that reaches it, certified or not. */
  lastAnswersAll: boolean;
}

export interface CascadeStep {
  name: string;
  price: number;
  /** The certified threshold at delta / k, or null when none certifies. */
  threshold: number | null;
  /** Labelled rows that reached this judge, and those it settled. */
  reached: number;
  settled: number;
  /** Of the settled rows, those at or above its certified threshold. */
  certified: number;
  /** Its agreement with the majority on the rows it settled. */
  agreement: number | null;
  bound: number | null;
}

export interface Cascade {
  alpha: number;
  delta: number;
  /** delta / k: each judge's share of delta. */
  deltaPerJudge: number;
  lastAnswersAll: boolean;
  judges: CascadeStep[];
  /** Labelled rows (with a majority label) the cascade was calibrated on. */
  rows: number;
  /** Share of the rows some judge settled, and of those settled under a certificate. */
  coverage: number;
  certifiedCoverage: number;
  /** 1 - alpha when some judge certified a threshold (it holds on the certified rows), else null. */
  guaranteedAgreement: number | null;
  /** Agreement with the majority on every settled row. */
  agreement: number | null;
  /** Expected price per row: each judge's price times the share of rows that reach it. */
  costPerRow: number;
  /** The last (strongest) judge asked about every row. */
  strongestCostPerRow: number;
  /** 1 - costPerRow / strongestCostPerRow (null when the strongest is free). */
  saving: number | null;
}

/** What the runner needs to route a row: each judge's threshold (null: it never settles) and the flag. */
export interface CascadePlan {
  thresholds: (number | null)[];
  lastAnswersAll: boolean;
}

/** Whether judge i settles a row at this confidence (NaN: it did not answer, so it never settles). */
export function settles(plan: CascadePlan, i: number, confidence: number): boolean {
  if (!Number.isFinite(confidence)) return false;
  if (plan.lastAnswersAll && i === plan.thresholds.length - 1) return true;
  const t = plan.thresholds[i];
  return t !== null && t !== undefined && confidence >= t;
}

/**
 * Which judge settles a row, given its confidence at each judge in cascade order (a runner asks judge i + 1 only
 * when judge i does not settle, so later entries may be missing); -1 when every judge abstains and a person decides.
 */
export function route(plan: CascadePlan, confidences: ArrayLike<number>): number {
  for (let i = 0; i < plan.thresholds.length && i < confidences.length; i++)
    if (settles(plan, i, confidences[i]!)) return i;
  return -1;
}

/** The labelled rows' positions, counted first and written into an array sized once (no plain array of a million). */
function labelledPositions(majority: Int32Array): Uint32Array {
  let labelled = 0;
  for (let i = 0; i < majority.length; i++) if (majority[i] !== MISSING) labelled++;
  const reach = new Uint32Array(labelled);
  for (let i = 0, j = 0; i < majority.length; i++) if (majority[i] !== MISSING) reach[j++] = i;
  return reach;
}

/** One judge's step over the rows that reach it: its certified threshold, the rows it settles, and those it passes on. */
function judgeStep(
  j: CascadeJudgeInput,
  reach: Uint32Array,
  majority: Int32Array,
  forced: boolean,
  certify: { alpha: number; delta: number; minRows: number },
): { step: CascadeStep; agree: number; next: Uint32Array } {
  const agrees = new Uint8Array(reach.length);
  const confidence = new Float64Array(reach.length);
  reach.forEach((i, r) => {
    const answered = j.judge[i] !== MISSING;
    agrees[r] = answered && j.judge[i] === majority[i] ? 1 : 0;
    confidence[r] = answered ? j.confidence[i]! : Number.NaN;
  });
  const certificate = guaranteedThreshold(confidence, agrees, certify);
  const threshold = certificate.threshold;
  const next = new Uint32Array(reach.length);
  let waiting = 0;
  let settled = 0;
  let certified = 0;
  let agree = 0;
  for (let r = 0; r < reach.length; r++) {
    const c = confidence[r]!;
    // NaN (no answer) fails both tests: the judge abstains.
    const isCertified = threshold !== null && c >= threshold;
    if (isCertified || (forced && Number.isFinite(c))) {
      settled++;
      if (isCertified) certified++;
      agree += agrees[r]!;
    } else next[waiting++] = reach[r]!;
  }
  const step: CascadeStep = {
    name: j.name,
    price: j.price,
    threshold,
    reached: reach.length,
    settled,
    certified,
    agreement: settled === 0 ? null : agree / settled,
    bound: certificate.bound,
  };
  return { step, agree, next: next.subarray(0, waiting) };
}

/** Calibrates the cascade on the labelled rows (majority not MISSING) and reports its coverage, guarantee and cost. */
export function cascadeOf(
  majority: Int32Array,
  judges: readonly CascadeJudgeInput[],
  options: Partial<CascadeOptions> = {},
): Cascade {
  const o = { ...THRESHOLD_DEFAULTS, lastAnswersAll: false, ...options };
  const k = judges.length;
  const deltaPerJudge = o.delta / Math.max(1, k);
  const certify = { alpha: o.alpha, delta: deltaPerJudge, minRows: o.minRows };
  let reach = labelledPositions(majority);
  const rows = reach.length;
  const steps: CascadeStep[] = [];
  let settledAll = 0;
  let certifiedAll = 0;
  let agreeAll = 0;
  let cost = 0;
  judges.forEach((j, at) => {
    const forced = at === k - 1 && o.lastAnswersAll;
    cost += rows === 0 ? 0 : (j.price * reach.length) / rows;
    const { step, agree, next } = judgeStep(j, reach, majority, forced, certify);
    steps.push(step);
    settledAll += step.settled;
    certifiedAll += step.certified;
    agreeAll += agree;
    reach = next;
  });
  const strongest = judges.length === 0 ? 0 : judges[k - 1]!.price;
  return {
    alpha: o.alpha,
    delta: o.delta,
    deltaPerJudge,
    lastAnswersAll: o.lastAnswersAll,
    judges: steps,
    rows,
    coverage: rows === 0 ? 0 : settledAll / rows,
    certifiedCoverage: rows === 0 ? 0 : certifiedAll / rows,
    guaranteedAgreement: certifiedAll > 0 ? 1 - o.alpha : null,
    agreement: settledAll === 0 ? null : agreeAll / settledAll,
    costPerRow: cost,
    strongestCostPerRow: strongest,
    saving: strongest > 0 ? 1 - cost / strongest : null,
  };
}

/** The plan a cascade's calibration gives the runner. */
export const planOf = (cascade: Cascade): CascadePlan => ({
  thresholds: cascade.judges.map((j) => j.threshold),
  lastAnswersAll: cascade.lastAnswersAll,
});
