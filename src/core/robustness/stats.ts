// The statistics of a check, per question: how far each option's probability spreads across option orders, how often
// the top choice changes, the largest total variation distance from the original order, which position gains on
// average; the spread across identical requests; how far each near-duplicate state moves the answer.
import type { Answer, ValueAnswer } from '../../contract';
import type { Distribution } from '../metrics';
import { normalise, topLabel, totalVariationDistance } from '../metrics';
import { canonicalJson } from '../rows/dedup';
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
  /** Of those, how many changed the top choice. */
  topChanges: number;
  /** Largest total variation distance from the original order. */
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
    // Ties go to the original order's first label, so a tie the server broke by position is not a change.
    const baseTop = topLabel(base, original);
    for (const [j, d] of byOrder) {
      if (j === 0) continue;
      comparisons++;
      if (topLabel(d, original) !== baseTop) topChanges++;
      maxTvd = Math.max(maxTvd, totalVariationDistance(base, d));
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
  return { comparisons, topChanges, maxTvd, spread, firstGain: mean(firstGains), lastGain: mean(lastGains) };
}

export interface RepetitionStats {
  /** Identical requests answered, over all states. */
  requests: number;
  /** Largest total variation distance of a repeat from the first answer. */
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
      maxTvd = Math.max(maxTvd, totalVariationDistance(dists[0]!, dists[i]!));
      if (topLabel(dists[i]!, labels) !== baseTop) topChanges++;
      if (canonicalJson(answers[i]) !== canonicalJson(first)) identical = false;
    }
    mergeMax(spread, spreadOf(dists, labels));
    for (const label of labels) sds.push(sd(dists.map((d) => d[label] ?? 0)));
  }
  if (!compared) return null;
  return { requests, maxTvd, spread, noiseSd: mean(sds), topChanges, identical };
}

export interface VariantStats {
  kind: VariantKind;
  /** States where this variant was answered. */
  states: number;
  /** Largest total variation distance from the original state's answer. */
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
      entry.maxTvd = Math.max(entry.maxTvd, totalVariationDistance(p, q));
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
