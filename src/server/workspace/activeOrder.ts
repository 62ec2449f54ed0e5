// A queue in active order (Zrnic & Candès 2024): rows the judge is least sure of on one question are handed out first,
// each with a known probability, so the owner's estimate of the target weighs each label by the inverse of it and
// stays unbiased. The design (each row's probability and key) is stored with the rows when the queue is made; the
// queue's ordinary `position` is the key's rank, so handing out the next row is the same index scan as random order.
import type { Question } from '../../contract';
import type { ActiveTarget } from '../../contract/activeTarget';
import type { ActiveEstimateWire, JudgeAnswer, QueueOrder } from '../../contract/workspace';
import { classesOf } from '../../core/labels';
import { distributionUncertainty, targetPrediction, targetValue } from '../../core/alignment/labelOrder';
import type { Judged } from '../../core/alignment/labelOrder';
import { activeDesign, activeMean, activeOrder, activeSavingSentence } from '../../core/trust/active';
import { MISSING } from '../../core/trust';

type ActiveOrder = Extract<QueueOrder, { kind: 'active' }>;

/** The judge's probabilities over the classes as published, with its top class; null when it sent none. */
function judgedOf(judge: JudgeAnswer, question: Question): Judged | null {
  const p = judge.probabilities;
  if (!p || p.length !== classesOf(question).length) return null;
  let top = 0;
  for (let k = 1; k < p.length; k++) if (p[k]! > p[top]!) top = k;
  return { p, top };
}

/** The judge's uncertainty on a row (its probabilities when published, else its top probability); null: no answer. */
export function judgeUncertainty(judge: JudgeAnswer | undefined, question: Question): number | null {
  if (!judge) return null;
  const j = judgedOf(judge, question);
  if (j) return distributionUncertainty(j, question);
  // Only the top probability: yes/no reads P(yes) back from it; a choice or a score is 1 minus it.
  if (judge.confidence === null) return null;
  if (question.type !== 'noul') return 1 - judge.confidence;
  const yes = judge.label === true ? judge.confidence : 1 - judge.confidence;
  return distributionUncertainty({ p: [1 - yes, yes], top: judge.label === true ? 1 : 0 }, question);
}

/** Positions in active order, with each answered row's design probability and key (null for unanswered rows). */
export function activePositions(
  judges: readonly (Record<string, JudgeAnswer> | undefined)[],
  question: Question,
  order: ActiveOrder,
): { position: Int32Array; probability: (number | null)[]; key: (number | null)[] } {
  const n = judges.length;
  const answered: number[] = [];
  const uncertainty: number[] = [];
  judges.forEach((j, idx) => {
    const u = judgeUncertainty(j?.[order.question], question);
    if (u !== null) {
      answered.push(idx);
      uncertainty.push(u);
    }
  });
  const position = new Int32Array(n);
  const probability: (number | null)[] = new Array<number | null>(n).fill(null);
  const key: (number | null)[] = new Array<number | null>(n).fill(null);
  let rank = 0;
  if (answered.length > 0) {
    const design = activeDesign(uncertainty, Math.min(order.budget, answered.length), order);
    for (const at of activeOrder(design)) position[answered[at]!] = rank++;
    answered.forEach((idx, at) => {
      probability[idx] = design.probability[at]!;
      key[idx] = design.key[at]!;
    });
  }
  // Rows the judge did not answer go last, in published order.
  const isAnswered = new Uint8Array(n);
  for (const idx of answered) isAnswered[idx] = 1;
  for (let idx = 0; idx < n; idx++) if (!isAnswered[idx]) position[idx] = rank++;
  return { position, probability, key };
}

/** The judge's prediction of the target: from its probabilities, else its hard label (PPI stays valid, only wider). */
function predictionOf(
  judge: JudgeAnswer,
  question: Question,
  target: ActiveTarget,
  judgeClass: number,
): number {
  const j = judgedOf(judge, question);
  if (j) return targetPrediction(j, question, target) ?? 0;
  const hard = Array.from(classesOf(question), (_, k) => (k === judgeClass ? 1 : 0));
  const prediction = targetPrediction({ p: hard, top: judgeClass }, question, target) ?? 0;
  return target.kind === 'agreement' ? (judge.confidence ?? prediction) : prediction;
}

/** One published row as the estimate reads it: the judge's answer and class, the design, and the row's label. */
export interface ActiveRow {
  judge: JudgeAnswer | undefined;
  judgeClass: number;
  probability: number | null;
  key: number | null;
  /** The row's label on the figures' basis (a class index), or MISSING. */
  label: number;
}

/** The owner's active estimate of the queue's target from the labels so far; null before two labels in order. */
export function activeEstimate(
  rows: readonly ActiveRow[],
  question: Question,
  order: ActiveOrder,
): ActiveEstimateWire | null {
  const used = rows.filter((r) => r.judge && r.probability !== null && r.key !== null);
  const f = new Float64Array(used.length);
  const design = { probability: new Float64Array(used.length), key: new Float64Array(used.length) };
  const labels = new Map<number, number>();
  used.forEach((r, i) => {
    f[i] = predictionOf(r.judge!, question, order.target, r.judgeClass);
    design.probability[i] = r.probability!;
    design.key[i] = r.key!;
    const y = r.label === MISSING ? null : targetValue(r.label, r.judgeClass, question, order.target);
    if (y !== null) labels.set(i, y);
  });
  const range: [number, number] = order.target.kind === 'mean' ? [0, classesOf(question).length - 1] : [0, 1];
  const estimate = used.length > 0 ? activeMean(f, design, labels, { range }) : null;
  if (!estimate) return null;
  return {
    question: order.question,
    target: order.target,
    n: estimate.n,
    N: estimate.N,
    beyondFrontier: estimate.beyondFrontier,
    estimate: estimate.active,
    randomEquivalent: estimate.randomEquivalent,
    sentence: activeSavingSentence(estimate),
  };
}
