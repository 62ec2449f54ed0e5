// The order a question's rows are labelled in: file order as it is, a seeded random permutation, and active order
// (uncertain rows first, unanswered rows last) with its estimate read from the labels given in that order: the same
// as the statistics module's from the same numbers, each label's probability returned, and the targets' readings.
import { describe, expect, it } from 'vitest';
import type { Answer, Question } from '../../../../src/contract';
import { seededRandom } from '../../../../src/contract/random';
import {
  activeEstimateOf,
  activeEstimateOfExport,
  activeTargetsOf,
  newActiveOrder,
  plannedOrder,
  predictionOf,
  targetValueOf,
} from '../../../../src/core/alignment/labelOrder';
import type { LabelOrder, LabelledOrderRow } from '../../../../src/core/alignment/labelOrder';
import { activeDesign, activeMean, answerUncertainty } from '../../../../src/core/trust/active';

const urgent: Question = { type: 'noul' };
const team: Question = { type: 'choice', criteria: { billing: null, technical: null, sales: null } };
const level: Question = { type: 'score', criteria: ['none', 'some', 'a lot'] };
const yes = (p: number): Answer => ({ type: 'noul', noul: p });

/** 400 rows whose P(yes) spreads from sure to unsure; a calibrated person's labels drawn from it. */
function world(seed: number): LabelledOrderRow[] {
  const random = seededRandom(seed);
  return Array.from({ length: 400 }, (_, i) => {
    const p = [0.02, 0.05, 0.5, 0.95, 0.98][i % 5]!;
    return { number: i + 1, answer: yes(p), label: random() < p };
  });
}

describe('planned order', () => {
  const rows = world(1).map(({ number, answer }) => ({ number, answer }));

  it('keeps the file’s order, and gives a seeded permutation in random order', () => {
    expect(plannedOrder(rows, urgent, { kind: 'file' }).numbers).toEqual(rows.map((r) => r.number));
    const a = plannedOrder(rows, urgent, { kind: 'random', seed: 3 }).numbers;
    expect([...a].sort((x, y) => x - y)).toEqual(rows.map((r) => r.number));
    expect(a).not.toEqual(rows.map((r) => r.number));
    expect(plannedOrder(rows, urgent, { kind: 'random', seed: 3 }).numbers).toEqual(a);
  });

  it('puts the rows the judge is unsure of first in active order, and rows it did not answer last', () => {
    const withUnanswered = [...rows, { number: 999, answer: undefined }];
    const order: LabelOrder = { ...newActiveOrder(urgent, rows.length, 5), budget: 60 } as LabelOrder;
    const planned = plannedOrder(withUnanswered, urgent, order);
    expect(planned.numbers).toHaveLength(401);
    expect(planned.numbers.at(-1)).toBe(999);
    const first = planned.numbers.slice(0, 100).map((n) => rows[n - 1]!.answer as { noul: number });
    const unsure = first.filter((a) => a.noul === 0.5).length;
    // A fifth of the rows are at 0.5, where the design gives each about 37% of the draws (1.85 of 5.0 in size):
    // well over a fifth of the first hundred places.
    expect(unsure).toBeGreaterThan(28);
  });
});

describe('the targets and their readings', () => {
  it('offers each label’s share or the mean level, and agreement', () => {
    expect(activeTargetsOf(team).map((t) => t.text)).toEqual([
      'share of “billing”',
      'share of “technical”',
      'share of “sales”',
      'agreement of the judge with people',
    ]);
    expect(activeTargetsOf(level).map((t) => t.target.kind)).toEqual(['mean', 'agreement']);
    expect(activeTargetsOf(urgent)[0]!.target).toEqual({ kind: 'share', level: 'yes' });
  });

  it('reads the judge’s prediction and a person’s label on the target’s scale', () => {
    const choice: Answer = {
      type: 'choice',
      choice: 'technical',
      confidence: 0.6,
      probabilities: { billing: 0.3, technical: 0.6, sales: 0.1 },
    };
    expect(predictionOf(choice, team, { kind: 'share', level: 'billing' })).toBeCloseTo(0.3);
    expect(predictionOf(choice, team, { kind: 'agreement' })).toBeCloseTo(0.6);
    expect(targetValueOf('billing', choice, team, { kind: 'share', level: 'billing' })).toBe(1);
    expect(targetValueOf('billing', choice, team, { kind: 'agreement' })).toBe(0);
    expect(targetValueOf('technical', choice, team, { kind: 'agreement' })).toBe(1);
    expect(targetValueOf('marketing', choice, team, { kind: 'agreement' })).toBeNull();
    const score: Answer = {
      type: 'score',
      score: 1,
      confidence: 0.5,
      legend: {},
      probabilities: { '0': 0.25, '1': 0.5, '2': 0.25 },
    };
    expect(predictionOf(score, level, { kind: 'mean' })).toBeCloseTo(1);
    expect(targetValueOf(2, score, level, { kind: 'mean' })).toBe(2);
  });
});

describe('the active estimate from labels given in order', () => {
  it('is the statistics module’s estimate of the same labels, with each label’s probability', () => {
    const all = world(7);
    const order: LabelOrder = {
      kind: 'active',
      target: { kind: 'share', level: 'yes' },
      budget: 120,
      floor: 0.2,
      seed: 9,
    };
    const planned = plannedOrder(all, urgent, order);
    const labelled = new Set(planned.numbers.slice(0, 80));
    const rows = all.map((r) => ({ ...r, label: labelled.has(r.number) ? r.label : undefined }));
    const read = activeEstimateOf(rows, urgent, order)!;
    expect(read.estimate.n).toBe(80);
    expect(read.probabilities.size).toBe(80);

    const u = all.map((r) => answerUncertainty({ type: 'noul', yes: (r.answer as { noul: number }).noul }));
    const design = activeDesign(u, 120, { floor: 0.2, seed: 9 });
    const labels = new Map<number, number>();
    all.forEach((r, i) => labelled.has(r.number) && labels.set(i, r.label ? 1 : 0));
    const direct = activeMean(
      all.map((r) => (r.answer as { noul: number }).noul),
      design,
      labels,
      { range: [0, 1] },
    )!;
    expect(read.estimate.active).toEqual(direct.active);
    for (const [number, p] of read.probabilities) {
      expect(p).toBeGreaterThan(0);
      expect(p).toBeLessThanOrEqual(1);
      expect(p).toBeCloseTo(Math.min(1, direct.frontier * design.probability[number - 1]!), 12);
    }
  });

  it('is read back the same from an export: the labels it used and their probabilities, the others left out', () => {
    const random = seededRandom(4);
    const rows: LabelledOrderRow[] = Array.from({ length: 300 }, (_, i) => {
      const top = [0.9, 0.6, 0.4][i % 3]!;
      const k = i % 3;
      const probabilities = Object.fromEntries(
        ['billing', 'technical', 'sales'].map((l, j) => [l, j === k ? top : (1 - top) / 2]),
      );
      const answer: Answer = {
        type: 'choice',
        choice: ['billing', 'technical', 'sales'][k]!,
        confidence: top,
        probabilities,
      };
      return { number: i + 1, answer, label: random() < top ? answer.choice : 'sales' };
    });
    const order: LabelOrder = {
      kind: 'active',
      target: { kind: 'agreement' },
      budget: 90,
      floor: 0.2,
      seed: 2,
    };
    const planned = plannedOrder(rows, team, order);
    // 50 rows labelled in order with the 10th skipped: the labels after it wait beyond the frontier.
    const given = new Set(planned.numbers.slice(0, 50).filter((_, k) => k !== 9));
    const labelled = rows.map((r) => ({ ...r, label: given.has(r.number) ? r.label : undefined }));
    const page = activeEstimateOf(labelled, team, order)!;
    expect(page.estimate.beyondFrontier).toBe(40);
    const exported = labelled.map((r) => ({
      answer: r.answer,
      label: r.label,
      probability: page.probabilities.get(r.number),
    }));
    const read = activeEstimateOfExport(exported, team, order.target)!;
    expect(read.n).toBe(page.estimate.n);
    expect(read.active.value).toBeCloseTo(page.estimate.active.value, 12);
    expect(read.active.se).toBeCloseTo(page.estimate.active.se, 12);
    expect(read.randomEquivalent).toEqual(page.estimate.randomEquivalent);
  });

  it('is null in file or random order, and with fewer than two labels', () => {
    const rows = world(2);
    expect(activeEstimateOf(rows, urgent, { kind: 'file' })).toBeNull();
    expect(activeEstimateOf(rows, urgent, { kind: 'random', seed: 1 })).toBeNull();
    const none = rows.map((r) => ({ ...r, label: undefined }));
    expect(activeEstimateOf(none, urgent, newActiveOrder(urgent, rows.length, 1))).toBeNull();
  });
});
