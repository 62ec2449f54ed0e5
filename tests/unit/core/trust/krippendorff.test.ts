// Krippendorff's alpha against his own worked example (Krippendorff 2011, "Computing Krippendorff's
// Alpha-Reliability", section C: 4 coders, 12 units, values 1-5, missing values), for all four metrics.
import { describe, expect, it } from 'vitest';
import {
  coincidenceMatrix,
  krippendorffAlpha,
  unitCoincidences,
} from '../../../../src/core/trust/krippendorff';
import { MISSING } from '../../../../src/core/trust/ratings';

const _ = null;
const CODERS = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
];
/** Units by coders, values 1-5 as class indices 0-4. */
const matrix = Int32Array.from({ length: 12 * 4 }, (_v, i) => {
  const value = CODERS[i % 4]![Math.floor(i / 4)];
  return value === null || value === undefined ? MISSING : value - 1;
});
const VALUES = [1, 2, 3, 4, 5];

describe('Krippendorff 2011, the 4 x 12 reliability matrix', () => {
  it.each([
    ['nominal', 0.743],
    ['ordinal', 0.815],
    ['interval', 0.849],
    ['ratio', 0.797],
  ] as const)('gives the published %s alpha %s', (metric, published) => {
    const { value, units } = krippendorffAlpha(matrix, 4, 5, metric, VALUES);
    expect(value).toBeCloseTo(published, 3);
    // Unit 12 has one value and pairs with nothing.
    expect(units).toBe(11);
  });

  it("builds the paper's coincidence matrix (its marginals 9, 13, 10, 5, 3: 40 pairable values)", () => {
    const o = coincidenceMatrix(unitCoincidences(matrix, 4, 5), null);
    const marginals = [0, 1, 2, 3, 4].map((c) => [0, 1, 2, 3, 4].reduce((s, k) => s + o[c * 5 + k]!, 0));
    expect(marginals.map((m) => +m.toFixed(10))).toEqual([9, 13, 10, 5, 3]);
    // o_11 = 7 and o_12 = 4/3 in the paper's table.
    expect(o[0]).toBeCloseTo(7, 10);
    expect(o[1]).toBeCloseTo(4 / 3, 10);
  });

  it('is undefined when every value is the same or nothing pairs', () => {
    expect(krippendorffAlpha(Int32Array.from([2, 2, 2, 2]), 2, 3, 'nominal').value).toBeNull();
    expect(krippendorffAlpha(Int32Array.from([2, MISSING, MISSING, 1]), 2, 3, 'nominal')).toEqual({
      value: null,
      units: 0,
    });
  });
});
