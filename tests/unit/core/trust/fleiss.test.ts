// Fleiss' kappa against the worked example of Wikipedia's "Fleiss' kappa" page (10 subjects, 14 raters, 5
// categories: kappa 0.210), and only on the rows every rater rated.
import { describe, expect, it } from 'vitest';
import { fleissKappa } from '../../../../src/core/trust/fleiss';
import { MISSING } from '../../../../src/core/trust/ratings';

const TABLE = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

/** Each subject's counts spread over 14 rater columns. */
function ratingsOf(table: number[][]): Int32Array {
  const out = new Int32Array(table.length * 14);
  table.forEach((counts, u) => {
    let a = 0;
    counts.forEach((c, j) => {
      for (let t = 0; t < c; t++) out[u * 14 + a++] = j;
    });
  });
  return out;
}

describe("Fleiss' kappa", () => {
  it('gives the Wikipedia example 0.210 on its 10 subjects', () => {
    const { value, n } = fleissKappa(ratingsOf(TABLE), 14, 5);
    expect(value).toBeCloseTo(0.21, 3);
    expect(n).toBe(10);
  });

  it('leaves out a row one rater skipped', () => {
    const ratings = ratingsOf([...TABLE, [14, 0, 0, 0, 0]]);
    ratings[10 * 14 + 3] = MISSING;
    expect(fleissKappa(ratings, 14, 5)).toEqual(fleissKappa(ratingsOf(TABLE), 14, 5));
  });

  it('is undefined with every rating in one category or no complete row', () => {
    expect(fleissKappa(Int32Array.from([1, 1, 1, 1]), 2, 3).value).toBeNull();
    expect(fleissKappa(Int32Array.from([1, MISSING]), 2, 3)).toEqual({ value: null, n: 0 });
  });
});
