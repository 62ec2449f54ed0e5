// TrustData from the alignment table's columns: each annotator's labels (the table's raters) as class indices, no
// label and invalid labels missing; the judge's prediction under the alignment's conventions; the top probability
// as its confidence.
import { describe, expect, it } from 'vitest';
import type { Answer, Questions } from '../../../../src/contract';
import { alignTableOf } from '../../../../src/core/alignment/table';
import { SINGLE_ANNOTATOR, trustDataFromColumns } from '../../../../src/core/trust/fromColumns';
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
const noul = (p: number): Answer => ({ type: 'noul', noul: p });
// Two annotators on department (ann_b's "marketing" is no label of the question), one label column elsewhere.
const table = alignTableOf(QUESTIONS, [
  {
    id: 'a',
    labels: { department: 'technical', frustration: 2, is_urgent: true },
    annotations: { department: { ann_a: 'technical', ann_b: 'marketing' } },
    answers: {
      department: choice([0.2, 0.5, 0.3]),
      frustration: score([0.45, 0.1, 0.45]),
      is_urgent: noul(0.3),
    },
  },
  {
    id: 'b',
    labels: { department: 'billing' },
    annotations: { department: { ann_b: 'billing' } },
    answers: { department: { type: 'refusal', question_type: 'choice' } },
  },
  {
    id: 'c',
    labels: { department: 'sales' },
    annotations: { department: { ann_a: 'sales', ann_b: 'sales' } },
  },
]);

describe('trustDataFromColumns', () => {
  it("reads the table's raters and the most probable class, with its probability as confidence", () => {
    const data = trustDataFromColumns(QUESTIONS['department']!, table.columns['department']!);
    expect(data.classes).toEqual(['billing', 'technical', 'sales']);
    expect(data.annotators).toEqual(['ann_a', 'ann_b']);
    expect([...data.ratings]).toEqual([1, MISSING, MISSING, 0, 2, 2]);
    // Row b was refused and row c unanswered: no prediction.
    expect([...data.judge]).toEqual([1, MISSING, MISSING]);
    expect(data.confidence[0]).toBeCloseTo(0.5, 12);
    expect(Number.isNaN(data.confidence[1]!)).toBe(true);
  });

  it('makes a question with one label column one annotator', () => {
    const data = trustDataFromColumns(QUESTIONS['frustration']!, table.columns['frustration']!);
    expect(data.annotators).toEqual([SINGLE_ANNOTATOR]);
    expect([...data.ratings]).toEqual([2, MISSING, MISSING]);
  });

  it('predicts a score by its most probable level (ties low) or its expected level rounded', () => {
    const column = table.columns['frustration']!;
    expect(trustDataFromColumns(QUESTIONS['frustration']!, column).judge[0]).toBe(0);
    const rounded = trustDataFromColumns(QUESTIONS['frustration']!, column, {
      scorePrediction: 'expectedRounded',
      noulThreshold: 0.5,
    });
    // Expected level 0.1 + 0.9 = 1.0; its confidence stays the top probability.
    expect(rounded.judge[0]).toBe(1);
    expect(rounded.confidence[0]).toBeCloseTo(0.45, 12);
  });

  it('predicts noul at the threshold with max(P(yes), P(no)) as confidence', () => {
    const column = table.columns['is_urgent']!;
    const data = trustDataFromColumns(QUESTIONS['is_urgent']!, column);
    expect(data.ratings[0]).toBe(1);
    expect(data.judge[0]).toBe(0);
    expect(data.confidence[0]).toBeCloseTo(0.7, 12);
    const low = trustDataFromColumns(QUESTIONS['is_urgent']!, column, {
      scorePrediction: 'mostProbable',
      noulThreshold: 0.25,
    });
    expect(low.judge[0]).toBe(1);
  });
});
