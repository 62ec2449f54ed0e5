// TrustData from the alignment table's columns: labels read as class indices (no label and invalid labels as
// missing), the judge's prediction under the alignment's conventions, and the top probability as its confidence.
import { describe, expect, it } from 'vitest';
import type { Answer, Questions } from '../../../../src/contract';
import { INVALID_LABEL, NO_LABEL, alignTableOf } from '../../../../src/core/alignment/table';
import { trustDataFromColumns } from '../../../../src/core/trust/fromColumns';
import { MISSING } from '../../../../src/core/trust/ratings';

const QUESTIONS: Questions = {
  department: { type: 'choice', criteria: { billing: null, technical: null, sales: null } },
  frustration: { type: 'score', criteria: ['Calm', 'Annoyed', 'Angry'] },
  is_urgent: { type: 'noul' },
};
const choice = (p: number[]): Answer => ({
  type: 'choice',
  choice: 'billing',
  confidence: 0.5,
  probabilities: { billing: p[0]!, technical: p[1]!, sales: p[2]! },
});
const score = (p: number[]): Answer => ({
  type: 'score',
  score: 1,
  confidence: 0.5,
  legend: {},
  probabilities: { '0': p[0]!, '1': p[1]!, '2': p[2]! },
});
const table = alignTableOf(QUESTIONS, [
  {
    id: 'a',
    labels: {},
    answers: {
      department: choice([0.2, 0.5, 0.3]),
      frustration: score([0.45, 0.1, 0.45]),
      is_urgent: { type: 'noul', noul: 0.3 },
    },
  },
  { id: 'b', labels: {}, answers: { department: { type: 'refusal', question_type: 'choice' } } },
  { id: 'c', labels: {} },
]);

describe('trustDataFromColumns', () => {
  const labels = [
    { name: 'ann_a', label: Int32Array.from([1, NO_LABEL, 2]) },
    { name: 'ann_b', label: Int32Array.from([INVALID_LABEL, 0, 2]) },
  ];

  it('reads labels and the most probable class, with its probability as confidence', () => {
    const data = trustDataFromColumns(QUESTIONS['department']!, labels, table.columns['department']!);
    expect(data.classes).toEqual(['billing', 'technical', 'sales']);
    expect(data.annotators).toEqual(['ann_a', 'ann_b']);
    expect([...data.ratings]).toEqual([1, MISSING, MISSING, 0, 2, 2]);
    // Row b was refused and row c unanswered: no prediction.
    expect([...data.judge]).toEqual([1, MISSING, MISSING]);
    expect(data.confidence[0]).toBeCloseTo(0.5, 12);
    expect(Number.isNaN(data.confidence[1]!)).toBe(true);
  });

  it('predicts a score by its most probable level (ties low) or its expected level rounded', () => {
    const column = table.columns['frustration']!;
    expect(trustDataFromColumns(QUESTIONS['frustration']!, labels, column).judge[0]).toBe(0);
    const rounded = trustDataFromColumns(QUESTIONS['frustration']!, labels, column, {
      scorePrediction: 'expectedRounded',
      noulThreshold: 0.5,
    });
    // Expected level 0.1 + 0.9 = 1.0; its confidence stays the top probability.
    expect(rounded.judge[0]).toBe(1);
    expect(rounded.confidence[0]).toBeCloseTo(0.45, 12);
  });

  it('predicts noul at the threshold with max(P(yes), P(no)) as confidence', () => {
    const column = table.columns['is_urgent']!;
    const data = trustDataFromColumns(
      QUESTIONS['is_urgent']!,
      labels.map((l) => ({ ...l, label: l.label.map((v) => Math.min(v, 1)) })),
      column,
    );
    expect(data.judge[0]).toBe(0);
    expect(data.confidence[0]).toBeCloseTo(0.7, 12);
    expect(
      trustDataFromColumns(QUESTIONS['is_urgent']!, [], column, {
        scorePrediction: 'mostProbable',
        noulThreshold: 0.25,
      }).judge[0],
    ).toBe(1);
  });
});
