// Several annotators per question: each column's labels kept apart, the row's label their majority by the stated tie
// rule, and a labeller's edit changing only their own label.
import { describe, expect, it } from 'vitest';
import type { Questions } from '../../../../src/contract';
import {
  annotatorsByQuestion,
  labelColumnsOf,
  majorityOf,
  readRowLabels,
  withAnnotation,
} from '../../../../src/core/labels';

const questions: Questions = {
  team: {
    type: 'choice',
    instructions: 'Which team?',
    criteria: { billing: null, technical: null, sales: null },
  },
  urgent: { type: 'noul', instructions: 'Is it urgent?' },
};

describe('majorityOf', () => {
  it('takes the most frequent label', () => {
    expect(majorityOf(['sales', 'billing', 'billing'])).toBe('billing');
    expect(majorityOf([undefined, true, undefined])).toBe(true);
    expect(majorityOf([undefined, undefined])).toBeUndefined();
  });

  it('breaks a tie for the annotator listed first among the tied labels', () => {
    expect(majorityOf(['technical', 'billing'])).toBe('technical');
    expect(majorityOf([undefined, 'billing', 'technical', 'technical', 'billing'])).toBe('billing');
    expect(majorityOf(['sales', 'billing', 'technical', 'technical', 'billing'])).toBe('billing');
  });
});

describe('several label columns for one question', () => {
  const columns = labelColumnsOf({ team: ['ann_a', 'ann_b', 'ann_c'], urgent: 'urgent' });

  it('names each annotator by its column and keeps one-column questions as they were', () => {
    expect([...annotatorsByQuestion(columns)]).toEqual([['team', ['ann_a', 'ann_b', 'ann_c']]]);
  });

  it('keeps every annotator’s label and sets the row’s label to their majority', () => {
    const row = { text: 'charged twice', ann_a: 'Technical', ann_b: 'billing', ann_c: 'bill', urgent: 'no' };
    expect(readRowLabels(row, columns, questions)).toEqual({
      labels: { team: 'billing', urgent: false },
      annotations: { team: { ann_a: 'technical', ann_b: 'billing', ann_c: 'billing' } },
    });
  });

  it('allows missing ratings', () => {
    const row = { text: 'x', ann_a: '', ann_b: 'sales', ann_c: 'nonsense' };
    expect(readRowLabels(row, columns, questions)).toEqual({
      labels: { team: 'sales' },
      annotations: { team: { ann_b: 'sales' } },
    });
  });

  it('a labeller’s edit changes their own label, and the majority follows', () => {
    const start = {
      labels: { team: 'billing' },
      annotations: { team: { ann_a: 'billing', ann_b: 'sales' } },
    };
    const order = ['ann_a', 'ann_b', 'Dana'];
    const dana = withAnnotation(start, 'team', 'Dana', 'sales', order);
    expect(dana).toEqual({
      labels: { team: 'sales' },
      annotations: { team: { ann_a: 'billing', ann_b: 'sales', Dana: 'sales' } },
    });
    expect(withAnnotation(dana, 'team', 'Dana', null, order)).toEqual(start);
    expect(withAnnotation({}, 'urgent', 'Dana', true)).toEqual({
      labels: { urgent: true },
      annotations: { urgent: { Dana: true } },
    });
  });
});
