// The verdict per question: stable, moves with order, noisy, or moves with the state's form, from the statistics.
// An order verdict needs a move beyond the threshold and beyond rounding, and orders that differ more than identical
// requests do (a variance-ratio test at a stated false alarm rate), so a noisy server is not taken for a biased one.
import type { Question, Questions } from '../../contract';
import type { RobustnessCard, Verdict } from './card';
import { VARIANT_LABELS } from './variants';
import type { RepetitionStats, StateAnswers } from './stats';
import { orderNoiseTest, orderStats, repetitionStats, variantStats } from './stats';

/** Differences this small are the two-decimal rounding of the wire, never a finding. */
const ROUNDING = 0.011;

/**
 * The order verdict's false alarm rate: the conventional 5%. An unbiased server whose identical requests differ is
 * called "moves with order" in at most this share of checks (tests/unit/core/robustness/falseAlarm.test.ts measures it).
 */
export const ORDER_FALSE_ALARM_RATE = 0.05;

const pct = (x: number): string => `${Math.round(x * 100)} percentage points`;

// Tied options named before the rest are counted, so a flat answer over 255 options stays one readable sentence.
const NAMED_TIES = 6;

/** "Options a and b", "Options a, b and c", "Options a, ..., f and 4 more", or "All 255 options" when all tie. */
function tiedOptions(tied: readonly string[], options: number): string {
  if (tied.length === options && options > NAMED_TIES) return `All ${options} options`;
  const named =
    tied.length > NAMED_TIES ? [...tied.slice(0, NAMED_TIES), `${tied.length - NAMED_TIES} more`] : tied;
  return `Options ${named.slice(0, -1).join(', ')} and ${named[named.length - 1]!}`;
}

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

/** What a card's sentence is made from: the figures measured and what they decided. */
interface CardFacts {
  order: ReturnType<typeof orderStats> | null;
  positionBias: ReturnType<typeof namedPosition> | null;
  noiseTest: ReturnType<typeof orderNoiseTest> | null;
  repetition: ReturnType<typeof repetitionStats>;
  variants: readonly { kind: keyof typeof VARIANT_LABELS; maxTvd: number; flagged: boolean }[];
  limit: number;
  orderMoves: boolean;
  movesWithOrder: boolean;
  noisy: boolean;
}

/** The card's finding in words: what moves the answer and by how much, or across what it stays stable. */
function cardSentence(f: CardFacts): string {
  const { order, positionBias, noiseTest, repetition, variants, limit, orderMoves, movesWithOrder, noisy } =
    f;
  const flaggedVariants = variants.filter((v) => v.flagged);
  const parts: string[] = [];
  const changed = order ? `the top choice changed in ${order.topChanges} of ${order.comparisons} orders` : '';
  if (order && positionBias)
    parts.push(
      `Position bias: the option sent ${positionBias} gains ${pct(positionBias === 'first' ? order.firstGain : order.lastGain)} on average`,
    );
  if (order && movesWithOrder && !positionBias)
    parts.push(`The answer moves with the option order (up to ${pct(order.maxTvd)})`);
  if (order && orderMoves && !movesWithOrder)
    parts.push(
      `the option order moves it no more than identical requests do${order.topChanges > 0 ? ` (${changed})` : ''}`,
    );
  else if (order && order.topChanges > 0) parts.push(changed);
  if (movesWithOrder && !noiseTest) parts.push('no identical requests were sent to rule out noise');
  if (noisy && repetition) parts.push(`identical requests differ by up to ${pct(repetition.maxTvd)}`);
  for (const v of flaggedVariants) parts.push(`${VARIANT_LABELS[v.kind]} moves it by ${pct(v.maxTvd)}`);
  // A different winner among options within rounding of each other is the service's tie-break, not a change.
  const tie =
    order && order.ties > 0 && order.tied.length > 1
      ? `${tiedOptions(order.tied, Object.keys(order.spread).length)} tie within rounding; the service breaks the tie by position.`
      : null;
  const compared = [
    order ? `${order.comparisons} other option ${order.comparisons === 1 ? 'order' : 'orders'}` : null,
    repetition ? `${repetition.requests} identical requests` : null,
    variants.length
      ? `${variants.length} near-duplicate ${variants.length === 1 ? 'state' : 'states'}`
      : null,
  ].filter((x): x is string => x !== null);
  const found =
    parts.length > 0
      ? `${parts.join('; ').replace(/^./, (c) => c.toUpperCase())}.`
      : compared.length > 0
        ? `Stable: across ${compared.join(', ')}, the answer stays within ${pct(limit)}.`
        : 'Not enough answers came back to compare anything for this question.';
  // A stable card leads with the tie (it is what the reader saw change); a finding leads with the finding.
  const told = !tie ? found : parts.length > 0 ? `${found} ${tie}` : `${tie} ${found}`;
  return told;
}

/** How often the server refused this question, said before the finding; refusals count in no figure. */
function withRefusals(name: string, states: readonly StateAnswers[], told: string): string {
  // A refusal is the server's answer, not a missing one: say how often, since no figure above counts it.
  let refusals = 0;
  let requests = 0;
  for (const st of states)
    for (const a of st.answered) {
      requests++;
      if (a.answers[name]?.type === 'refusal') refusals++;
    }
  return refusals === 0
    ? told
    : `${refusals === requests ? 'The server refused this question in every request' : `The server refused this question in ${refusals} of ${requests} requests`}; refusals are left out of every figure. ${refusals === requests ? '' : told}`.trim();
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
  const noiseTest = order ? orderNoiseTest(name, states) : null;
  // Without identical requests the noise is unmeasured: the move alone decides, as the card then says.
  const beyondNoise = noiseTest ? noiseTest.pValue < ORDER_FALSE_ALARM_RATE : true;
  const positionBias =
    order && beyondNoise ? namedPosition(order.firstGain, order.lastGain, threshold, repetition) : null;
  const variants = variantStats(name, states).map((v) => ({
    ...v,
    flagged: v.maxTvd > limit || (v.topChanges > 0 && v.maxTvd > 0 && !repetition?.topChanges),
  }));
  const orderSkipped = states.map((s) => s.orders.fixed[name]).find((r) => r !== undefined);

  // Distances are beyond rounding already (roundedDistance), so any top change with a distance above 0 is real.
  const orderMoves =
    !!order && (order.maxTvd > Math.max(threshold, ROUNDING) || (order.topChanges > 0 && order.maxTvd > 0));
  const movesWithOrder = !!order && beyondNoise && (positionBias !== null || orderMoves);
  const noisy = !!repetition && repetition.maxTvd > Math.max(threshold, ROUNDING);
  const flaggedVariants = variants.filter((v) => v.flagged);
  const verdict: Verdict = movesWithOrder
    ? 'moves_with_order'
    : noisy
      ? 'noisy'
      : flaggedVariants.length > 0
        ? 'moves_with_form'
        : 'stable';

  const told = cardSentence({
    order,
    positionBias,
    noiseTest,
    repetition,
    variants,
    limit,
    orderMoves,
    movesWithOrder,
    noisy,
  });
  const summary = withRefusals(name, states, told);

  return {
    question: name,
    type: question.type,
    verdict,
    summary,
    ...(order ? { order: { ...order, positionBias, ...(noiseTest ? { noiseTest } : {}) } } : {}),
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
