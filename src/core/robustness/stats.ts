// The statistics of a check, per question: how far each option's probability spreads across option orders, how often
// the top choice changes (and when that is only a tie the service broke by position), the largest distance from the
// original order beyond the wire's rounding, which position gains on average, and whether the orders differ more than
// identical requests do; the spread across identical requests; how far each near-duplicate state moves the answer.
import type { Answer, ValueAnswer } from '../../contract';
import type { Distribution } from '../metrics';
import { normalise, topLabel } from '../metrics';
import { canonicalJson } from '../rows/dedup';
import { fUpperTail } from './fTest';
import type { Probe } from './plan';
import type { QuestionOrders } from './orders';
import type { VariantKind } from './variants';

/** An answered probe: the probe and the answers of its response. */
export interface ProbeAnswer {
  probe: Probe;
  answers: Readonly<Record<string, Answer>>;
}

/** One state's check: its order plan and the probes that got an answer. */
export interface StateAnswers {
  orders: QuestionOrders;
  answered: readonly ProbeAnswer[];
}

/** The answer to `name` when it carries numbers: a refused question is left out of every statistic. */
const valued = (
  answers: Readonly<Record<string, Answer>> | undefined,
  name: string,
): ValueAnswer | undefined => {
  const answer = answers?.[name];
  return answer && answer.type !== 'refusal' ? answer : undefined;
};

/** An answer as a distribution over its options: labels, levels ("0", "1", ...) or yes/no. */
export function distributionOf(answer: ValueAnswer): Distribution {
  if (answer.type === 'noul') return { yes: answer.noul, no: 1 - answer.noul };
  return answer.probabilities;
}

/**
 * The wire carries hundredths, and largest-remainder rounding moves each option by less than one: two roundings of the
 * same probability differ by at most one hundredth per option (which option gets a spare hundredth goes by position).
 */
export const HUNDREDTH = 0.01;
// Floating-point slack, so 0.34 - 0.33 still counts as one hundredth.
const EPS = 1e-9;

/**
 * Total variation distance beyond rounding: half the sum over options of how far each moved beyond one hundredth.
 * Spare hundredths the service hands out by position move many options by one each and count for nothing here.
 */
export function roundedDistance(
  p: Distribution,
  q: Distribution,
  labels: readonly string[] = [...new Set([...Object.keys(p), ...Object.keys(q)])],
): number {
  let sum = 0;
  for (const label of labels)
    sum += Math.max(0, Math.abs((p[label] ?? 0) - (q[label] ?? 0)) - HUNDREDTH - EPS);
  return Math.min(1, sum / 2);
}

/** The options within rounding of the top of `d` (in the order of `labels`). */
const nearTop = (d: Distribution, labels: readonly string[]): Set<string> => {
  const top = Math.max(...labels.map((l) => d[l] ?? 0));
  return new Set(labels.filter((l) => (d[l] ?? 0) >= top - HUNDREDTH - EPS));
};

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const sd = (xs: readonly number[]): number => {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};

/** Per option, the largest minus the smallest probability across the distributions (labels of the first, in order). */
export function spreadOf(dists: readonly Distribution[], labels: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const label of labels) {
    const values = dists.map((d) => normalise(d, labels)[label] ?? 0);
    out[label] = values.length ? Math.max(...values) - Math.min(...values) : 0;
  }
  return out;
}

const mergeMax = (into: Record<string, number>, from: Record<string, number>): void => {
  for (const [k, v] of Object.entries(from)) into[k] = Math.max(into[k] ?? 0, v);
};

export interface OrderStats {
  /** Orders compared with the original, over all states. */
  comparisons: number;
  /** Of those, how many changed the top choice by more than rounding. */
  topChanges: number;
  /** Comparisons whose top choice changed between options within rounding of each other: a tie broken by position. */
  ties: number;
  /** The options that tied, in the original order (empty when nothing tied). */
  tied: string[];
  /** Largest distance from the original order beyond rounding (roundedDistance). */
  maxTvd: number;
  /** Per option, the largest spread of its probability across orders (over states). */
  spread: Record<string, number>;
  /** Average gain of the option sent first over that option's mean across orders; likewise for the last. */
  firstGain: number;
  lastGain: number;
}

/**
 * Order statistics of one choice question over states. A position's gain is, per order, the probability of the
 * option sent there minus that option's mean over the state's orders, averaged over orders and states: 0 when
 * position does not matter, positive when whatever sits there gains.
 */
export function orderStats(name: string, states: readonly StateAnswers[]): OrderStats | null {
  let comparisons = 0;
  let topChanges = 0;
  let ties = 0;
  const tied = new Set<string>();
  let maxTvd = 0;
  const spread: Record<string, number> = {};
  const firstGains: number[] = [];
  const lastGains: number[] = [];
  for (const s of states) {
    const plan = s.orders.labels[name];
    if (!plan) continue;
    const original = plan[0]!;
    const byOrder = new Map<number, Distribution>();
    for (const a of s.answered) {
      if (a.probe.kind !== 'base' && a.probe.kind !== 'order') continue;
      const answer = valued(a.answers, name);
      if (answer) byOrder.set(a.probe.order, normalise(distributionOf(answer), original));
    }
    const base = byOrder.get(0);
    if (!base || byOrder.size < 2) continue;
    const baseTop = topLabel(base, original)!;
    const baseNear = nearTop(base, original);
    for (const [j, d] of byOrder) {
      if (j === 0) continue;
      comparisons++;
      maxTvd = Math.max(maxTvd, roundedDistance(base, d, original));
      const top = topLabel(d, original)!;
      if (top === baseTop) continue;
      // A winner that differs only among options within rounding of the top in both answers is a tie the service
      // broke by position (its rounding hands the spare hundredth to the option sent first), not a change.
      const near = nearTop(d, original);
      const both = original.filter((l) => baseNear.has(l) && near.has(l));
      if (both.includes(top) && both.includes(baseTop)) {
        ties++;
        for (const l of both) tied.add(l);
      } else topChanges++;
    }
    const dists = [...byOrder.values()];
    mergeMax(spread, spreadOf(dists, original));
    const means = Object.fromEntries(original.map((l) => [l, mean(dists.map((d) => d[l] ?? 0))]));
    for (const [j, d] of byOrder) {
      const order = plan[j]!;
      const first = order[0]!;
      const last = order[order.length - 1]!;
      firstGains.push((d[first] ?? 0) - means[first]!);
      lastGains.push((d[last] ?? 0) - means[last]!);
    }
  }
  if (comparisons === 0) return null;
  const labels = states.flatMap((s) => s.orders.labels[name]?.[0] ?? []);
  return {
    comparisons,
    topChanges,
    ties,
    tied: [...new Set(labels)].filter((l) => tied.has(l)),
    maxTvd,
    spread,
    firstGain: mean(firstGains),
    lastGain: mean(lastGains),
  };
}

export interface RepetitionStats {
  /** Identical requests answered, over all states. */
  requests: number;
  /** Largest distance of a repeat from the first answer, beyond rounding. */
  maxTvd: number;
  /** Per option, the largest spread of its probability across repeats. */
  spread: Record<string, number>;
  /** Mean standard deviation of an option's probability across repeats: the noise a single answer carries. */
  noiseSd: number;
  topChanges: number;
  /** Every repeat returned exactly the first answer. */
  identical: boolean;
}

/** Repetition statistics of one question over states: the original and its identical copies. */
export function repetitionStats(name: string, states: readonly StateAnswers[]): RepetitionStats | null {
  let requests = 0;
  let maxTvd = 0;
  let topChanges = 0;
  let identical = true;
  let compared = false;
  const spread: Record<string, number> = {};
  const sds: number[] = [];
  for (const s of states) {
    const answers = s.answered
      .filter((a) => a.probe.kind === 'base' || a.probe.kind === 'repeat')
      .sort((a, b) => a.probe.repeat - b.probe.repeat)
      .flatMap((a) => {
        const answer = valued(a.answers, name);
        return answer ? [answer] : [];
      });
    if (answers.length < 2 || answers[0] === undefined) continue;
    compared = true;
    requests += answers.length;
    const first = answers[0];
    const labels = Object.keys(distributionOf(first));
    const dists = answers.map((a) => normalise(distributionOf(a), labels));
    const baseTop = topLabel(dists[0]!, labels);
    for (let i = 1; i < answers.length; i++) {
      maxTvd = Math.max(maxTvd, roundedDistance(dists[0]!, dists[i]!, labels));
      if (topLabel(dists[i]!, labels) !== baseTop) topChanges++;
      if (canonicalJson(answers[i]) !== canonicalJson(first)) identical = false;
    }
    mergeMax(spread, spreadOf(dists, labels));
    for (const label of labels) sds.push(sd(dists.map((d) => d[label] ?? 0)));
  }
  if (!compared) return null;
  return { requests, maxTvd, spread, noiseSd: mean(sds), topChanges, identical };
}

/** The answers as rows of deviations from each option's mean across them (options in the order of `labels`). */
const centred = (dists: readonly Distribution[], labels: readonly string[]): number[][] => {
  const means = labels.map((l) => mean(dists.map((d) => d[l] ?? 0)));
  return dists.map((d) => labels.map((l, k) => (d[l] ?? 0) - means[k]!));
};
const dot = (a: readonly number[], b: readonly number[]): number =>
  a.reduce((sum, x, k) => sum + x * b[k]!, 0);
// Below this a sum of squares is floating-point residue: answers a hundredth apart already give 1e-5 or more.
const SS_FLOOR = 1e-12;

export interface OrderNoiseTest {
  /** Mean squares, summed over options: of the probabilities across orders, and across identical requests. */
  between: number;
  within: number;
  /** Degrees of freedom of each (orders minus one, repeats minus one, times the noise's effective dimensions). */
  df: [number, number];
  /** How likely identical requests alone would spread the orders this far apart (the F test's upper tail). */
  pValue: number;
}

/**
 * Whether a choice question's answers differ more between option orders than between identical requests: a variance
 * ratio (F) test of the orders' mean square against the repeats' (the original counts in both). With no order effect
 * both estimate the same noise. Each mean square sums options whose noise is correlated (they add up to 1), so each
 * order or repeat counts for as many degrees of freedom as the noise has effective dimensions, (tr S)^2 / tr(S^2) of
 * the repeats' covariance S (Satterthwaite); estimated from a few repeats that figure comes out low, which errs
 * towards calling noise noise. A server whose identical requests are identical has no noise: any difference between
 * orders is then the order's. Null when the question was not both reordered and repeated.
 */
export function orderNoiseTest(name: string, states: readonly StateAnswers[]): OrderNoiseTest | null {
  let ssBetween = 0;
  let ssWithin = 0;
  let nBetween = 0;
  let nWithin = 0;
  // Satterthwaite sums: each state's noise variance (tr S) and its square spread (tr S^2), weighted by its counts.
  let trB = 0;
  let trSqB = 0;
  let trW = 0;
  let trSqW = 0;
  for (const s of states) {
    const labels = s.orders.labels[name]?.[0];
    if (!labels) continue;
    const orders: Distribution[] = [];
    const repeats: Distribution[] = [];
    for (const a of s.answered) {
      const answer = valued(a.answers, name);
      if (!answer) continue;
      const d = normalise(distributionOf(answer), labels);
      if (a.probe.kind === 'base' || a.probe.kind === 'order') orders.push(d);
      if (a.probe.kind === 'base' || a.probe.kind === 'repeat') repeats.push(d);
    }
    if (orders.length < 2 || repeats.length < 2) continue;
    const o = centred(orders, labels);
    const r = centred(repeats, labels);
    const dfo = orders.length - 1;
    const dfr = repeats.length - 1;
    ssBetween += o.reduce((sum, row) => sum + dot(row, row), 0);
    ssWithin += r.reduce((sum, row) => sum + dot(row, row), 0);
    nBetween += dfo;
    nWithin += dfr;
    // tr S and tr S^2 through the repeats' Gram matrix (repeats x repeats), cheap even for 255 options.
    const gram = r.map((a) => r.map((b) => dot(a, b)));
    const tr = gram.reduce((sum, row, i) => sum + row[i]!, 0) / dfr;
    const trSq = gram.reduce((sum, row) => sum + row.reduce((t, g) => t + g * g, 0), 0) / dfr ** 2;
    trB += dfo * tr;
    trSqB += dfo * trSq;
    trW += dfr * tr;
    trSqW += dfr * trSq;
  }
  if (nBetween === 0 || nWithin === 0) return null;
  const between = ssBetween < SS_FLOOR ? 0 : ssBetween / nBetween;
  const within = ssWithin < SS_FLOOR ? 0 : ssWithin / nWithin;
  // With no noise there are no noise dimensions to count: the plain counts stand.
  const df: [number, number] = within > 0 ? [trB ** 2 / trSqB, trW ** 2 / trSqW] : [nBetween, nWithin];
  const pValue = within > 0 ? fUpperTail(between / within, df[0], df[1]) : between > 0 ? 0 : 1;
  return { between, within, df, pValue };
}

export interface VariantStats {
  kind: VariantKind;
  /** States where this variant was answered. */
  states: number;
  /** Largest distance from the original state's answer, beyond rounding. */
  maxTvd: number;
  /** States where the top choice changed. */
  topChanges: number;
}

/** Near-duplicate statistics of one question over states, one entry per variant kind answered. */
export function variantStats(name: string, states: readonly StateAnswers[]): VariantStats[] {
  const byKind = new Map<VariantKind, VariantStats>();
  for (const s of states) {
    const base = valued(s.answered.find((a) => a.probe.kind === 'base')?.answers, name);
    if (!base) continue;
    const labels = Object.keys(distributionOf(base));
    const p = normalise(distributionOf(base), labels);
    for (const a of s.answered) {
      const kind = a.probe.variant;
      const answer = valued(a.answers, name);
      if (a.probe.kind !== 'variant' || !kind || !answer) continue;
      const q = normalise(distributionOf(answer), labels);
      const entry = byKind.get(kind) ?? { kind, states: 0, maxTvd: 0, topChanges: 0 };
      entry.states++;
      entry.maxTvd = Math.max(entry.maxTvd, roundedDistance(p, q, labels));
      if (topLabel(q, labels) !== topLabel(p, labels)) entry.topChanges++;
      byKind.set(kind, entry);
    }
  }
  return [...byKind.values()];
}

/** True when every identical request of the check got exactly the same answers (null when none was repeated). */
export function identicalAnswers(states: readonly StateAnswers[]): boolean | null {
  let compared = false;
  for (const s of states) {
    const copies = s.answered.filter((a) => a.probe.kind === 'base' || a.probe.kind === 'repeat');
    if (copies.length < 2) continue;
    compared = true;
    const first = canonicalJson(copies[0]!.answers);
    if (copies.some((c) => canonicalJson(c.answers) !== first)) return false;
  }
  return compared ? true : null;
}
