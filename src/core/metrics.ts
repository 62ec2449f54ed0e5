// Distances between two answers to the same question: what "these two model versions disagree" means in numbers.
// Pure functions. Distributions come off the wire rounded to 2 decimals, so they may sum to 0.99 or 1.01 and may lack
// a label the other side has: every metric aligns both sides on the union of labels (a missing label counts as 0) and
// normalises each side to sum 1 before comparing.
import type { ChoiceAnswer, NoulAnswer, ScoreAnswer } from '../contract';

/** A probability distribution as it travels on the wire: label (or level index as a string) -> probability. */
export type Distribution = Readonly<Record<string, number>>;

/** A probability that is not a finite non-negative number counts as 0 (a corrupt or hostile value must not poison a sum). */
const clean = (x: number | undefined): number => (x !== undefined && Number.isFinite(x) && x > 0 ? x : 0);

/**
 * Scales a distribution to sum 1 over `labels` (default: its own keys; labels it lacks count as 0). A distribution with
 * no mass at all carries no information about which label is likelier, so it becomes uniform over `labels`.
 */
export function normalise(
  p: Distribution,
  labels: readonly string[] = Object.keys(p),
): Record<string, number> {
  const total = labels.reduce((sum, label) => sum + clean(p[label]), 0);
  const out: Record<string, number> = {};
  for (const label of labels) {
    out[label] = total > 0 ? clean(p[label]) / total : labels.length > 0 ? 1 / labels.length : 0;
  }
  return out;
}

/** The union of the labels of `p` and `q`: p's order first, then the labels only q has, in q's order. */
export function unionLabels(p: Distribution, q: Distribution): string[] {
  const labels = Object.keys(p);
  const seen = new Set(labels);
  for (const label of Object.keys(q)) if (!seen.has(label)) labels.push(label);
  return labels;
}

/** Both distributions as vectors over the same labels, each normalised to sum 1. */
export function alignDistributions(
  p: Distribution,
  q: Distribution,
): { labels: string[]; p: number[]; q: number[] } {
  const labels = unionLabels(p, q);
  const np = normalise(p, labels);
  const nq = normalise(q, labels);
  return { labels, p: labels.map((l) => np[l] ?? 0), q: labels.map((l) => nq[l] ?? 0) };
}

const unit = (x: number): number => Math.min(1, Math.max(0, x));

/**
 * Total variation distance: half the sum of |p_i - q_i|, the largest difference in probability the two give any set of
 * labels. 0 for identical distributions, 1 for disjoint ones.
 */
export function totalVariationDistance(p: Distribution, q: Distribution): number {
  const a = alignDistributions(p, q);
  let sum = 0;
  a.p.forEach((pi, i) => (sum += Math.abs(pi - (a.q[i] ?? 0))));
  return unit(sum / 2);
}

/** p * log2(p / m), with the convention 0 * log(0 / m) = 0. */
const klTerm = (p: number, m: number): number => (p > 0 ? p * Math.log2(p / m) : 0);

/**
 * Jensen-Shannon divergence in bits (logarithm base 2), so it lies in [0, 1]: 0 for identical distributions, 1 for
 * disjoint ones. JSD = (KL(p || m) + KL(q || m)) / 2 with m = (p + q) / 2; symmetric and finite even where one side is 0.
 */
export function jensenShannonDivergence(p: Distribution, q: Distribution): number {
  const a = alignDistributions(p, q);
  let sum = 0;
  a.p.forEach((pi, i) => {
    const qi = a.q[i] ?? 0;
    const m = (pi + qi) / 2;
    sum += klTerm(pi, m) + klTerm(qi, m);
  });
  // NOTE: floating point can land a hair outside [0, 1] (e.g. -1e-17 for identical inputs); clamp it.
  return unit(sum / 2);
}

/**
 * The most probable label; ties go to the label first in `order` (the criteria order, as the service breaks them),
 * then to the distribution's own key order. Undefined for an empty distribution.
 */
export function topLabel(p: Distribution, order: readonly string[] = []): string | undefined {
  const labels = [...order.filter((l) => l in p), ...Object.keys(p).filter((l) => !order.includes(l))];
  let best: string | undefined;
  let bestP = -1;
  for (const label of labels) {
    const value = clean(p[label]);
    if (value > bestP) {
      best = label;
      bestP = value;
    }
  }
  return best;
}

/** Whether both distributions put the most probability on the same label (ties broken by `order`). */
export function topChoiceAgreement(p: Distribution, q: Distribution, order: readonly string[] = []): boolean {
  const a = topLabel(p, order);
  return a !== undefined && a === topLabel(q, order);
}

/** Expected level of a score distribution keyed by level index ("0", "1", ...): sum of i * p_i after normalising. */
export function expectedLevel(p: Distribution): number {
  const levels = Object.keys(p).filter((k) => /^\d+$/.test(k));
  const np = normalise(p, levels);
  return levels.reduce((sum, k) => sum + Number(k) * (np[k] ?? 0), 0);
}

/** Expected score of `q` minus expected score of `p`, in levels (signed: positive when `q` rates higher). */
export const expectedScoreDifference = (p: Distribution, q: Distribution): number =>
  expectedLevel(q) - expectedLevel(p);

/** Probability of yes of `q` minus that of `p` (signed), each clamped to [0, 1]. */
export const yesProbabilityDifference = (p: number, q: number): number => unit(clean(q)) - unit(clean(p));

/** How two answers to a choice question differ. */
export interface ChoiceMetrics {
  kind: 'choice';
  /** Both chose the same label (the answers' own `choice`, which the service picked before rounding). */
  topChoiceAgrees: boolean;
  totalVariation: number;
  jensenShannon: number;
}

/** How two answers to a score question differ. */
export interface ScoreMetrics {
  kind: 'score';
  /** Expected score of the other answer minus the baseline's, in levels. */
  scoreDifference: number;
  totalVariation: number;
}

/** How two answers to a noul question differ. */
export interface NoulMetrics {
  kind: 'noul';
  /** Probability of yes of the other answer minus the baseline's. */
  yesDifference: number;
}

export type PairMetrics = ChoiceMetrics | ScoreMetrics | NoulMetrics;

/** Choice metrics of `other` against `baseline`. */
export function choiceMetrics(baseline: ChoiceAnswer, other: ChoiceAnswer): ChoiceMetrics {
  return {
    kind: 'choice',
    // NOTE: the answers' `choice` is authoritative: two labels rounded to the same 0.50 may still have a winner.
    topChoiceAgrees: baseline.choice === other.choice,
    totalVariation: totalVariationDistance(baseline.probabilities, other.probabilities),
    jensenShannon: jensenShannonDivergence(baseline.probabilities, other.probabilities),
  };
}

/**
 * Score metrics of `other` against `baseline`. The difference uses the answers' `score` fields: the service computes
 * them before rounding the probabilities, and they are what the score cards mark.
 */
export function scoreMetrics(baseline: ScoreAnswer, other: ScoreAnswer): ScoreMetrics {
  return {
    kind: 'score',
    scoreDifference: other.score - baseline.score,
    totalVariation: totalVariationDistance(baseline.probabilities, other.probabilities),
  };
}

/** Noul metrics of `other` against `baseline`. */
export function noulMetrics(baseline: NoulAnswer, other: NoulAnswer): NoulMetrics {
  return { kind: 'noul', yesDifference: yesProbabilityDifference(baseline.noul, other.noul) };
}

/**
 * One number for how far apart two answers are, in [0, 1]: the total variation distance for choice and score, |Δp(yes)|
 * for noul (which is the total variation distance between the two yes/no distributions, so one threshold fits all).
 */
export function disagreementOf(m: PairMetrics): number {
  switch (m.kind) {
    case 'choice':
    case 'score':
      return m.totalVariation;
    case 'noul':
      return Math.abs(m.yesDifference);
  }
}
