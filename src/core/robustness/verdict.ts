// The verdict per question: stable, moves with order, noisy, or moves with the state's form, from the statistics,
// with the thresholds applied so that noise the server shows on identical requests is not taken for an order effect.
import type { Question, Questions } from '../../contract';
import type { RobustnessCard, Verdict } from './card';
import { VARIANT_LABELS } from './variants';
import type { RepetitionStats, StateAnswers } from './stats';
import { orderStats, repetitionStats, variantStats } from './stats';

/** Differences this small are the two-decimal rounding of the wire, never a finding. */
const ROUNDING = 0.011;

const pct = (x: number): string => `${Math.round(x * 100)} percentage points`;

/**
 * How far an answer may move before it counts as moving: the threshold, and at least twice what identical requests
 * already move (a noisy server's orders and variants differ by its noise alone).
 */
export function moveLimit(threshold: number, repetition: RepetitionStats | null): number {
  return Math.max(threshold, ROUNDING, 2 * (repetition?.maxTvd ?? 0));
}

/** The position whose option gains beyond the limit (first wins a tie), or null. */
export function namedPosition(
  firstGain: number,
  lastGain: number,
  threshold: number,
  repetition: RepetitionStats | null,
): 'first' | 'last' | null {
  // A gain is an average, so it is held against the noise of one answer (its standard deviation), not the largest move.
  const limit = Math.max(threshold, ROUNDING, 2 * (repetition?.noiseSd ?? 0));
  if (firstGain >= limit && firstGain >= lastGain) return 'first';
  if (lastGain >= limit) return 'last';
  return null;
}

/** The card of one question from the answers of every state checked. */
export function questionCard(
  name: string,
  question: Question,
  states: readonly StateAnswers[],
  threshold: number,
): RobustnessCard {
  const repetition = repetitionStats(name, states);
  const limit = moveLimit(threshold, repetition);
  const order = question.type === 'choice' ? orderStats(name, states) : null;
  const positionBias = order ? namedPosition(order.firstGain, order.lastGain, threshold, repetition) : null;
  const variants = variantStats(name, states).map((v) => ({
    ...v,
    flagged: v.maxTvd > limit || (v.topChanges > 0 && v.maxTvd > ROUNDING && !repetition?.topChanges),
  }));
  const orderSkipped = states.map((s) => s.orders.fixed[name]).find((r) => r !== undefined);

  const movesWithOrder =
    !!order &&
    (positionBias !== null ||
      order.maxTvd > limit ||
      (order.topChanges > 0 && order.maxTvd > ROUNDING && !repetition?.topChanges));
  const noisy = !!repetition && repetition.maxTvd > Math.max(threshold, ROUNDING);
  const flaggedVariants = variants.filter((v) => v.flagged);
  const verdict: Verdict = movesWithOrder
    ? 'moves_with_order'
    : noisy
      ? 'noisy'
      : flaggedVariants.length > 0
        ? 'moves_with_form'
        : 'stable';

  const parts: string[] = [];
  if (order && positionBias)
    parts.push(
      `Position bias: the option sent ${positionBias} gains ${pct(positionBias === 'first' ? order.firstGain : order.lastGain)} on average`,
    );
  if (order && movesWithOrder && !positionBias)
    parts.push(`The answer moves with the option order (up to ${pct(order.maxTvd)})`);
  if (order && order.topChanges > 0)
    parts.push(`the top choice changed in ${order.topChanges} of ${order.comparisons} orders`);
  if (noisy) parts.push(`identical requests differ by up to ${pct(repetition.maxTvd)}`);
  for (const v of flaggedVariants) parts.push(`${VARIANT_LABELS[v.kind]} moves it by ${pct(v.maxTvd)}`);
  const compared = [
    order ? `${order.comparisons} other option ${order.comparisons === 1 ? 'order' : 'orders'}` : null,
    repetition ? `${repetition.requests} identical requests` : null,
    variants.length
      ? `${variants.length} near-duplicate ${variants.length === 1 ? 'state' : 'states'}`
      : null,
  ].filter((x): x is string => x !== null);
  const summary =
    parts.length > 0
      ? `${parts.join('; ').replace(/^./, (c) => c.toUpperCase())}.`
      : compared.length > 0
        ? `Stable: across ${compared.join(', ')}, the answer stays within ${pct(limit)}.`
        : 'Not enough answers came back to compare anything for this question.';

  return {
    question: name,
    type: question.type,
    verdict,
    summary,
    ...(order ? { order: { ...order, positionBias } } : {}),
    ...(orderSkipped ? { orderSkipped } : {}),
    ...(repetition ? { repetition } : {}),
    variants,
  };
}

/** One card per question, in the questions' order. */
export const questionCards = (
  questions: Questions,
  states: readonly StateAnswers[],
  threshold: number,
): RobustnessCard[] => Object.entries(questions).map(([name, q]) => questionCard(name, q, states, threshold));

/** The one line about identical requests: said when the server returned exactly the same answers each time. */
export function identicalLine(identical: boolean | null, repeats: number, states = 1): string | null {
  if (identical === null) return null;
  const each = states > 1 ? ` on each of ${states} rows` : '';
  return identical
    ? `The server returned identical answers to ${repeats} identical requests${each}.`
    : `The server's answers to ${repeats} identical requests${each} were not all identical.`;
}
