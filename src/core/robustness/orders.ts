// The option-order plan: in which orders a choice question's labels are sent. Order 0 is always the user's own; when
// there are at least as many orders as labels, the first orders form a Latin square, so every label sits in every
// position exactly once and a gain of "whatever comes first" cannot hide behind one label's own strength.
import type { ChoiceQuestion, Question, Questions } from '../../contract';
import { seededRandom } from '../../contract/random';
import { hashText, shuffled } from './random';

/** Orders the check sends at most per question: enough for a full square up to 8 labels, and a bounded bill. */
export const MAX_ORDERS = 8;

const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));

/**
 * `orders` permutations of positions 0..m-1 (each a list of label indices, position by position). Order 0 is the
 * identity. With orders >= m, orders 0..m-1 are the rows of a seeded Latin square (every label in every position once);
 * further orders are seeded shuffles. With orders < m, the orders are rows of such a square: no label sits twice in
 * the same position. The count is capped at m! (there are no more distinct orders).
 */
export function orderPlan(m: number, orders: number, seed: number): number[][] {
  if (m < 1) return [];
  const k = Math.max(1, Math.min(Math.floor(orders), factorial(Math.min(m, 12))));
  const random = seededRandom(seed);
  // A cyclic square (r_i + c_p) mod m with shuffled rows and columns, relabelled so its first row reads 0..m-1.
  const positions = Array.from({ length: m }, (_, i) => i);
  const c = shuffled(positions, random);
  const r = [0, ...shuffled(positions.slice(1), random)];
  const base = r.map((ri) => c.map((cp) => (ri + cp) % m));
  const relabel = new Array<number>(m);
  base[0]!.forEach((symbol, p) => (relabel[symbol] = p));
  const square = base.map((row) => row.map((symbol) => relabel[symbol]!));
  const plan = square.slice(0, Math.min(k, m));
  const seen = new Set(plan.map((o) => o.join(',')));
  // Beyond the square: distinct seeded shuffles (m! > k guarantees enough exist; the loop is bounded all the same).
  for (let tries = 0; plan.length < k && tries < 10_000; tries++) {
    const next = shuffled(positions, random);
    const key = next.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    plan.push(next);
  }
  return plan;
}

/** A label a JavaScript object always lists first, in numeric order, whatever order it was written in. */
const isIndexKey = (label: string): boolean => /^(0|[1-9]\d{0,8})$/.test(label);

/** Why a choice question cannot be sent in other orders, or null when it can. */
export function unorderableReason(question: ChoiceQuestion): string | null {
  const labels = Object.keys(question.criteria);
  if (labels.some(isIndexKey))
    return 'Its labels include whole numbers, which JSON objects built by a browser always list first and in numeric order; rename them (for example "level_1") to check the order.';
  return null;
}

/** The question with its labels in `order` (label indices, position by position). */
export function reorderChoice(question: ChoiceQuestion, order: readonly number[]): ChoiceQuestion {
  const entries = Object.entries(question.criteria);
  return { ...question, criteria: Object.fromEntries(order.map((i) => entries[i]!)) };
}

/** The order plan of a request's questions: only choice questions move; score levels and yes/no never do. */
export interface QuestionOrders {
  /** Orders sent, order 0 first (the user's). */
  count: number;
  /** Per choice question that moves: its labels in each order. */
  labels: Record<string, string[][]>;
  /** The questions as sent in each order. */
  questions: Questions[];
  /** Choice questions that could not move, with the reason. */
  fixed: Record<string, string>;
}

/**
 * Plans `orders` orders for every choice question of `questions`, each from its own seed (the plan's seed and the
 * question's name), so adding a question does not reshuffle the others. The count is capped at MAX_ORDERS and at the
 * largest number of orders any question has.
 */
export function planQuestionOrders(questions: Questions, orders: number, seed: number): QuestionOrders {
  const movable: [string, ChoiceQuestion][] = [];
  const fixed: Record<string, string> = {};
  for (const [name, q] of Object.entries(questions) as [string, Question][]) {
    if (q.type !== 'choice') continue;
    const reason = unorderableReason(q);
    if (reason) fixed[name] = reason;
    else movable.push([name, q]);
  }
  const most = Math.max(
    1,
    ...movable.map(([, q]) => factorial(Math.min(Object.keys(q.criteria).length, 12))),
  );
  const count = movable.length === 0 ? 1 : Math.max(1, Math.min(Math.floor(orders), MAX_ORDERS, most));
  const labels: Record<string, string[][]> = {};
  const plans = new Map<string, number[][]>();
  for (const [name, q] of movable) {
    const names = Object.keys(q.criteria);
    const plan = orderPlan(names.length, count, (seed ^ hashText(name)) >>> 0);
    // A question with fewer distinct orders than the count cycles through its own.
    const full = Array.from({ length: count }, (_, j) => plan[j % plan.length]!);
    plans.set(name, full);
    labels[name] = full.map((o) => o.map((i) => names[i]!));
  }
  const sent: Questions[] = Array.from({ length: count }, (_, j) =>
    Object.fromEntries(
      Object.entries(questions).map(([name, q]) => {
        const plan = plans.get(name);
        return [name, plan && q.type === 'choice' ? reorderChoice(q, plan[j]!) : q];
      }),
    ),
  );
  return { count, labels, questions: sent, fixed };
}

/** The default number of orders: one per label of the largest choice question (a full square), at most MAX_ORDERS. */
export function defaultOrderCount(questions: Questions): number {
  const sizes = Object.values(questions).map((q) =>
    q.type === 'choice' ? Object.keys(q.criteria).length : 0,
  );
  return Math.max(1, Math.min(MAX_ORDERS, Math.max(0, ...sizes)));
}
