// Folding rows into patterns keeps every row: the counts add up to the rows, each row points at a pattern with its
// own ratings and judge, and a resample's row weights sum per pattern.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { patternWeights, patternsOf } from '../../../../src/core/trust/patterns';
import { annotated } from './simulate';

describe('patternsOf', () => {
  it('keeps every row in a pattern holding its ratings and prediction', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 2, max: 7 }),
        (seed, A, K) => {
          const data = annotated(seed, 200, { A, K, skip: 0.3, judge: 0.7 });
          const p = patternsOf(data);
          expect(p.count.reduce((s, c) => s + c, 0)).toBe(200);
          for (let i = 0; i < 200; i++) {
            const at = p.of[i]!;
            expect([...p.ratings.subarray(at * A, (at + 1) * A)]).toEqual([
              ...data.ratings.subarray(i * A, (i + 1) * A),
            ]);
            expect(p.judge[at]).toBe(data.judge[i]);
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('folds a subset of rows, and keys patterns by string past the numeric range', () => {
    // 30 annotators of 9 classes: 10^31 possible patterns, beyond exact numbers.
    const data = annotated(5, 50, { A: 30, K: 9, judge: 0.7 });
    const p = patternsOf(data, [3, 3, 7]);
    expect([...p.count]).toEqual([2, 1]);
    expect([...p.of]).toEqual([0, 0, 1]);
  });

  it('gives the same patterns without each row’s pattern, which only a resample reads', () => {
    const data = annotated(7, 300, { A: 3, K: 4, skip: 0.2, judge: 0.8 });
    const full = patternsOf(data);
    const slim = patternsOf(data, null, false);
    expect(slim.of.length).toBe(0);
    expect([...slim.count]).toEqual([...full.count]);
    expect([...slim.ratings]).toEqual([...full.ratings]);
    expect([...slim.judge]).toEqual([...full.judge]);
  });

  it('sums row weights per pattern', () => {
    const data = annotated(6, 100, { A: 2, K: 2, judge: 0.7 });
    const p = patternsOf(data);
    const weights = Uint32Array.from({ length: 100 }, (_, i) => i % 3);
    const pw = patternWeights(p, weights, new Float64Array(p.count.length));
    const expected = new Float64Array(p.count.length);
    for (let i = 0; i < 100; i++) expected[p.of[i]!]! += i % 3;
    expect([...pw]).toEqual([...expected]);
  });
});
