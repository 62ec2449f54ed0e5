// The rating matrix: built from one column per annotator with every kind of missing value, and the majority label's
// stated rules (ties to the first-listed annotator among the tied labels; the same for scores).
import { describe, expect, it } from 'vitest';
import { MISSING, majorityOf, ratingsPerRow, trustDataOf } from '../../../../src/core/trust/ratings';

describe('trustDataOf', () => {
  it('reads null, NaN and negative values as missing and keeps the annotators in column order', () => {
    const data = trustDataOf({
      type: 'choice',
      classes: ['a', 'b', 'c'],
      columns: { ann_b: [0, null, 2], ann_a: [Number.NaN, 1, -2] },
      judge: [1, null, 0],
      confidence: [0.9, 0.5, 0.7],
    });
    expect(data.annotators).toEqual(['ann_b', 'ann_a']);
    expect([...data.ratings]).toEqual([0, MISSING, MISSING, 1, 2, MISSING]);
    expect([...data.judge]).toEqual([1, MISSING, 0]);
    // No answer, no confidence.
    expect(Number.isNaN(data.confidence[1]!)).toBe(true);
    expect(data.confidence[2]).toBe(0.7);
    expect([...ratingsPerRow(data)]).toEqual([1, 1, 1]);
  });

  it('refuses a value that is not a class and a column of the wrong length', () => {
    const base = { type: 'choice' as const, classes: ['a', 'b'], judge: [0, 1] };
    expect(() => trustDataOf({ ...base, columns: { x: [0, 2] } })).toThrow(/row 2: 2 is not a class index/);
    expect(() => trustDataOf({ ...base, columns: { x: [0.5, 1] } })).toThrow(/not a class index/);
    expect(() => trustDataOf({ ...base, columns: { x: [0] } })).toThrow(/1 rows, the judge 2/);
  });
});

describe('majorityOf', () => {
  const choice = (columns: Record<string, (number | null)[]>) =>
    trustDataOf({
      type: 'choice',
      classes: ['a', 'b', 'c'],
      columns,
      judge: columns[Object.keys(columns)[0]!]!.map(() => 0),
    });

  it('takes the most frequent label', () => {
    expect([...majorityOf(choice({ x: [0, 2], y: [1, 2], z: [1, 0] }))]).toEqual([1, 2]);
  });

  it('breaks a tie by the first-listed annotator that gave one of the tied labels', () => {
    // Row 1: x gave c, y and z tie a against b (x's c is not tied) -> y's a. Row 2: all differ -> x's label.
    const data = choice({ x: [2, 2], y: [0, 1], z: [1, 0], w: [2, null] });
    expect([...majorityOf(data)]).toEqual([2, 2]);
    const tied = choice({ x: [2, null], y: [0, 1], z: [1, 0] });
    expect([...majorityOf(tied)]).toEqual([2, 1]);
  });

  it('gives a row with one rating that label and a row with none MISSING', () => {
    expect([...majorityOf(choice({ x: [null, null], y: [2, null] }))]).toEqual([2, MISSING]);
  });

  it('takes the most frequent level of a score, by the same tie rule as a choice', () => {
    const data = trustDataOf({
      type: 'score',
      classes: ['0', '1', '2', '3', '4'],
      columns: { x: [1, 1, 1, 4, 0], y: [4, 4, 3, null, 3], z: [4, 2, null, null, null] },
      judge: [0, 0, 0, 0, 0],
    });
    // {1,4,4} -> 4 (two agree); {1,2,4} -> 1 (a tie: x first); {1,3} -> 1; {4} -> 4; {0,3} -> 0.
    expect([...majorityOf(data)]).toEqual([4, 1, 1, 4, 0]);
  });
});
