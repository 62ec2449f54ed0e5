// The mean pairwise kappa: each pair's kappa is the alignment's Cohen's kappa on the rows both annotators rated
// (Wikipedia's 50-pair yes/no table gives 0.40), and the mean leaves out pairs where kappa is undefined.
import { describe, expect, it } from 'vitest';
import { pairwiseKappa } from '../../../../src/core/trust/pairwise';
import { trustDataOf } from '../../../../src/core/trust/ratings';

/** The table of Wikipedia's "Cohen's kappa" example: 20 yes-yes, 5 yes-no, 10 no-yes, 15 no-no. */
const rows = (pairs: [number, number, number][]): [number[], number[]] => {
  const a: number[] = [];
  const b: number[] = [];
  for (const [x, y, count] of pairs)
    for (let i = 0; i < count; i++) {
      a.push(x);
      b.push(y);
    }
  return [a, b];
};

describe('pairwiseKappa', () => {
  const [a, b] = rows([
    [1, 1, 20],
    [1, 0, 5],
    [0, 1, 10],
    [0, 0, 15],
  ]);

  it("gives Cohen's kappa of the Wikipedia table (0.40) for one pair", () => {
    const data = trustDataOf({ type: 'noul', classes: ['no', 'yes'], columns: { a, b }, judge: a });
    const k = pairwiseKappa(data);
    expect(k.value).toBeCloseTo(0.4, 10);
    expect(k.pairs).toEqual([{ a: 'a', b: 'b', value: k.value, n: 50 }]);
  });

  it('reads each pair on the rows both rated and averages the defined pairs', () => {
    // c rated only the first ten rows, all yes: its pairs with a and b are undefined (c used one class only).
    const c = a.map((_, i) => (i < 10 ? 1 : null));
    const data = trustDataOf({ type: 'noul', classes: ['no', 'yes'], columns: { a, b, c }, judge: a });
    const k = pairwiseKappa(data);
    expect(k.pairs.map((p) => [p.a, p.b, p.n])).toEqual([
      ['a', 'b', 50],
      ['a', 'c', 10],
      ['b', 'c', 10],
    ]);
    expect(k.pairs[1]!.value).toBeNull();
    expect(k.value).toBeCloseTo(0.4, 10);
  });

  it('weights disagreements quadratically on a score question', () => {
    // Levels 0..2: one row off by two levels weighs four times one off by one.
    const data = trustDataOf({
      type: 'score',
      classes: ['0', '1', '2'],
      columns: { x: [0, 1, 2, 0], y: [0, 1, 2, 2] },
      judge: [0, 0, 0, 0],
    });
    const near = trustDataOf({
      type: 'score',
      classes: ['0', '1', '2'],
      columns: { x: [0, 1, 2, 0], y: [0, 1, 2, 1] },
      judge: [0, 0, 0, 0],
    });
    expect(pairwiseKappa(data).value!).toBeLessThan(pairwiseKappa(near).value!);
  });
});
