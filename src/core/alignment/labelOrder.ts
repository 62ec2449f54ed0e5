// The order a question's rows are labelled in: the file's, a seeded random one, or active (Zrnic & Candès 2024): rows
// the judge is unsure of first, each with a known probability of being labelled. What the run stores (the kind, the
// target, the budget, the floor and the seed) and the judge's answers give back the same order and probabilities,
// so a reload, a report or an export computes the same estimate. Random order is the one every figure is valid for.
import type { Answer, Question } from '../../contract';
import { seededRandom } from '../../contract/random';
import { classesOf, distributionOf, expectedLevel, yesProbability } from '../labels/prediction';
import type { LabelValue } from '../labels/values';
import {
  ACTIVE_FLOOR,
  activeDesign,
  activeMean,
  activeOrder,
  answerUncertainty,
  weightedActiveMean,
} from '../trust/active';
import type { ActiveDesign, ActiveMean, Included } from '../trust/active';
import { labelIndex } from './table';
import type { ActiveTarget, LabelOrder } from '../labels/order';

export { ActiveTargetSchema, LabelOrderSchema } from '../labels/order';
export type { ActiveTarget, LabelOrder } from '../labels/order';

/** A question's order until the person picks one: random, seeded by the run, so kappa, alpha and the alt-test hold. */
export const defaultLabelOrder = (seed: number): LabelOrder => ({ kind: 'random', seed });

/** The targets a question offers, with their words: each label's share, or the mean level, and agreement. */
export function activeTargetsOf(question: Question): { target: ActiveTarget; text: string }[] {
  const agreement = { target: { kind: 'agreement' } as const, text: 'agreement of the judge with people' };
  if (question.type === 'score') return [{ target: { kind: 'mean' }, text: 'mean level' }, agreement];
  const levels = question.type === 'noul' ? ['yes'] : Object.keys(question.criteria);
  return [
    ...levels.map((level) => ({ target: { kind: 'share' as const, level }, text: `share of “${level}”` })),
    agreement,
  ];
}

/** The words of a target, as the page says it. */
export const targetText = (question: Question, target: ActiveTarget): string =>
  activeTargetsOf(question).find((t) => JSON.stringify(t.target) === JSON.stringify(target))?.text ??
  'agreement of the judge with people';

/** The judge's probabilities over the question's classes, and its most probable class; null without an answer. */
function judged(
  answer: Answer | undefined,
  question: Question,
): { p: ArrayLike<number>; top: number } | null {
  if (question.type === 'noul') {
    const yes = yesProbability(answer);
    return yes === null ? null : { p: [1 - yes, yes], top: yes >= 0.5 ? 1 : 0 };
  }
  const p = distributionOf(answer, question);
  if (!p) return null;
  let top = 0;
  for (let k = 1; k < p.length; k++) if (p[k]! > p[top]!) top = k;
  return { p, top };
}

/** The judge's probabilities over a question's classes (criteria order; yes/no: [no, yes]) and its top class. */
export interface Judged {
  p: ArrayLike<number>;
  top: number;
}

/** The judge's prediction f of the target from its probabilities: a class's, the expected level, or the top one. */
export function targetPrediction(j: Judged, question: Question, target: ActiveTarget): number | null {
  if (target.kind === 'mean') return expectedLevel(j.p);
  if (target.kind === 'agreement') return j.p[j.top]!;
  const at = classesOf(question).indexOf(question.type === 'noul' ? 'yes' : target.level);
  return at < 0 ? null : j.p[at]!;
}

/** A label's class index on the target's scale: 1 or 0 for a share or agreement (with the judge's top), the level. */
export function targetValue(
  index: number,
  judgeTop: number | null,
  question: Question,
  target: ActiveTarget,
) {
  const classes = classesOf(question);
  if (index < 0 || index >= classes.length) return null;
  if (target.kind === 'mean') return index;
  if (target.kind === 'share')
    return classes[index] === (question.type === 'noul' ? 'yes' : target.level) ? 1 : 0;
  return judgeTop === null ? null : judgeTop === index ? 1 : 0;
}

/** The judge's uncertainty from its probabilities, as active order reads it (core/trust/active.ts). */
export const distributionUncertainty = (j: Judged, question: Question): number =>
  question.type === 'noul'
    ? answerUncertainty({ type: 'noul', yes: j.p[1]! })
    : answerUncertainty({ type: question.type, probabilities: Array.from(j.p) });

/** The judge's prediction f of the target on a row: a probability, an expected level or its confidence. */
export function predictionOf(
  answer: Answer | undefined,
  question: Question,
  target: ActiveTarget,
): number | null {
  const j = judged(answer, question);
  return j ? targetPrediction(j, question, target) : null;
}

/** A person's label as the target reads it (1 or 0 for a share or agreement, the level for a mean); null: invalid. */
export function targetValueOf(
  label: LabelValue,
  answer: Answer | undefined,
  question: Question,
  target: ActiveTarget,
): number | null {
  return targetValue(
    labelIndex(label, question, classesOf(question)),
    judged(answer, question)?.top ?? null,
    question,
    target,
  );
}

/** The judge's uncertainty on a row, as active order reads it; null without an answer of the question's type. */
function uncertaintyOf(answer: Answer | undefined, question: Question): number | null {
  const j = judged(answer, question);
  return j ? distributionUncertainty(j, question) : null;
}

/** A row as the order reads it: its number and the judge's answer of the question. */
export interface OrderRow {
  number: number;
  answer: Answer | undefined;
}

/** The rows in the order they are labelled, and (active) each one's design; rows the judge did not answer go last. */
export interface PlannedOrder {
  numbers: number[];
  /** Active order: the answered rows' positions in `numbers`' answered prefix, their probabilities and keys. */
  design: ActiveDesign | null;
  answered: number;
}

/** The order of `rows` for a question under `order`. */
export function plannedOrder(rows: readonly OrderRow[], question: Question, order: LabelOrder): PlannedOrder {
  if (order.kind === 'file')
    return { numbers: rows.map((r) => r.number), design: null, answered: rows.length };
  if (order.kind === 'random') {
    const random = seededRandom(order.seed);
    const keyed = rows.map((r) => ({ number: r.number, key: random() }));
    keyed.sort((a, b) => a.key - b.key || a.number - b.number);
    return { numbers: keyed.map((k) => k.number), design: null, answered: rows.length };
  }
  const answered: OrderRow[] = [];
  const uncertainty: number[] = [];
  const rest: number[] = [];
  for (const row of rows) {
    const u = uncertaintyOf(row.answer, question);
    if (u === null) rest.push(row.number);
    else {
      answered.push(row);
      uncertainty.push(u);
    }
  }
  if (answered.length === 0) return { numbers: rest, design: null, answered: 0 };
  const design = activeDesign(uncertainty, Math.min(order.budget, answered.length), {
    floor: order.floor,
    seed: order.seed,
  });
  const positions = activeOrder(design);
  return {
    numbers: [...Array.from(positions, (i) => answered[i]!.number), ...rest],
    design,
    answered: answered.length,
  };
}

/** A new active order of a question: its first target, a budget of at most 300 labels, the paper's floor. */
export function newActiveOrder(question: Question, rowCount: number, seed: number): LabelOrder {
  return {
    kind: 'active',
    target: activeTargetsOf(question)[0]!.target,
    budget: Math.max(2, Math.min(300, rowCount)),
    floor: ACTIVE_FLOOR,
    seed,
  };
}

/** A labelled row: its number, the judge's answer and the person's label (undefined: not labelled). */
export interface LabelledOrderRow extends OrderRow {
  label: LabelValue | undefined;
}

/**
 * The active estimate of the order's target from the labels so far, each weighted by the inverse of its probability
 * (activeMean), and each labelled row's probability of having been labelled. `rows` come in file order, as the order
 * was planned. Null outside active order or with fewer than two labels inside the order's frontier.
 */
export function activeEstimateOf(
  rows: readonly LabelledOrderRow[],
  question: Question,
  order: LabelOrder,
): { estimate: ActiveMean; probabilities: Map<number, number> } | null {
  if (order.kind !== 'active') return null;
  const planned = plannedOrder(rows, question, order);
  if (!planned.design) return null;
  // The design indexes the answered rows in their file order, as plannedOrder read them.
  const { f, answered, values } = targetReading(rows, question, order.target);
  const labels = new Map<number, number>();
  values.forEach((y, i) => y !== null && labels.set(i, y));
  const estimate = activeMean(f, planned.design, labels, { range: rangeOf(question, order.target) });
  if (!estimate) return null;
  const probabilities = new Map<number, number>();
  for (const i of labels.keys())
    if (planned.design.key[i]! < estimate.frontier)
      probabilities.set(answered[i]!.number, Math.min(1, estimate.frontier * planned.design.probability[i]!));
  return { estimate, probabilities };
}

/** A row of an export: the judge's answer, the person's label and its probability of having been asked (if any). */
export interface ExportedOrderRow {
  answer: Answer | undefined;
  label: LabelValue | undefined;
  probability: number | undefined;
}

/**
 * The active estimate of a target read back from an export (a label's probability beside it): the same figure the page
 * showed, since the export carries exactly the labels it used and their probabilities. Null with fewer than two.
 */
export function activeEstimateOfExport(
  rows: readonly ExportedOrderRow[],
  question: Question,
  target: ActiveTarget,
): Omit<ActiveMean, 'beyondFrontier' | 'frontier'> | null {
  const { f, answered, values } = targetReading(rows, question, target);
  const included = new Map<number, Included>();
  values.forEach((y, i) => {
    const pi = answered[i]!.probability;
    if (y !== null && pi !== undefined) included.set(i, { y, pi });
  });
  return weightedActiveMean(f, included, { range: rangeOf(question, target) });
}

const rangeOf = (question: Question, target: ActiveTarget): [number, number] =>
  target.kind === 'mean' ? [0, classesOf(question).length - 1] : [0, 1];

/** The rows the judge answered (in their order), its prediction of the target on each, and each label's value. */
function targetReading<R extends { answer: Answer | undefined; label: LabelValue | undefined }>(
  rows: readonly R[],
  question: Question,
  target: ActiveTarget,
): { f: Float64Array; answered: R[]; values: (number | null)[] } {
  const answered = rows.filter((r) => uncertaintyOf(r.answer, question) !== null);
  const f = Float64Array.from(answered, (row) => predictionOf(row.answer, question, target) ?? 0);
  const values = answered.map((row) =>
    row.label === undefined ? null : targetValueOf(row.label, row.answer, question, target),
  );
  return { f, answered, values };
}
