// The cascade: two judges calibrated by hand (delta split in two), the last judge allowed to answer everything,
// the cost against the strongest judge alone, and the runner's routing.
import { describe, expect, it } from 'vitest';
import { cascadeOf, planOf, route, settles } from '../../../../src/core/trust/cascade';
import type { CascadeJudgeInput } from '../../../../src/core/trust/cascade';
import { MISSING } from '../../../../src/core/trust/ratings';

const majority = new Int32Array(100); // every row's majority label is class 0
/** A judge from per-row [prediction, confidence]. */
function judge(name: string, price: number, row: (i: number) => [number, number]): CascadeJudgeInput {
  const j = new Int32Array(100);
  const c = new Float64Array(100);
  for (let i = 0; i < 100; i++) [j[i], c[i]] = row(i);
  return { name, price, judge: j, confidence: c };
}
// The cheap judge is sure and right on rows 0-39, unsure and wrong on the rest.
const cheap = judge('local', 1, (i) => (i < 40 ? [0, 0.9] : [1, 0.4]));

describe('cascadeOf', () => {
  it('certifies each judge on the rows that reach it, at delta / 2', () => {
    const strong = judge('hosted', 10, () => [0, 0.8]);
    const c = cascadeOf(majority, [cheap, strong]);
    expect(c.deltaPerJudge).toBe(0.05);
    // local: 40 rows at 0.9, none wrong: bound 1 - 0.05^(1/40) (not 0.1^(1/40)); 0.4 adds 60 wrong rows and fails.
    expect(c.judges[0]).toMatchObject({
      threshold: 0.9,
      reached: 100,
      settled: 40,
      certified: 40,
      agreement: 1,
    });
    expect(c.judges[0]!.bound).toBeCloseTo(1 - Math.pow(0.05, 1 / 40), 10);
    // hosted sees only the 60 rows local left: all at 0.8 and right.
    expect(c.judges[1]).toMatchObject({
      threshold: 0.8,
      reached: 60,
      settled: 60,
      certified: 60,
      agreement: 1,
    });
    expect(c.judges[1]!.bound).toBeCloseTo(1 - Math.pow(0.05, 1 / 60), 10);
    expect(c).toMatchObject({
      rows: 100,
      coverage: 1,
      certifiedCoverage: 1,
      guaranteedAgreement: 0.9,
      agreement: 1,
    });
    // Every row pays local (1), the 60 escalated pay hosted (10): 7 per row against 10.
    expect(c.costPerRow).toBeCloseTo(7, 12);
    expect(c.strongestCostPerRow).toBe(10);
    expect(c.saving).toBeCloseTo(0.3, 12);
  });

  it('lets the last judge answer every row that reaches it when asked, outside the certificate', () => {
    // hosted is wrong on 10 of the 60 rows it sees: no threshold certifies, yet with the flag it settles all 60.
    const strong = judge('hosted', 10, (i) => (i < 50 ? [1, 0.8] : [0, 0.8]));
    const strict = cascadeOf(majority, [cheap, strong]);
    expect(strict.judges[1]).toMatchObject({ threshold: null, settled: 0 });
    expect(strict.coverage).toBeCloseTo(0.4, 12);
    const forced = cascadeOf(majority, [cheap, strong], { lastAnswersAll: true });
    expect(forced.judges[1]).toMatchObject({ threshold: null, settled: 60, certified: 0 });
    expect(forced).toMatchObject({ coverage: 1, lastAnswersAll: true, guaranteedAgreement: 0.9 });
    expect(forced.certifiedCoverage).toBeCloseTo(0.4, 12);
    expect(forced.agreement).toBeCloseTo(0.9, 12);
  });

  it('gives no guarantee when no judge certifies, and treats an unanswered row as an abstention', () => {
    const silent = judge('silent', 1, () => [MISSING, Number.NaN]);
    const c = cascadeOf(majority, [silent]);
    expect(c).toMatchObject({ coverage: 0, guaranteedAgreement: null, agreement: null, saving: 0 });
    expect(c.judges[0]).toMatchObject({ reached: 100, settled: 0 });
  });
});

describe('route', () => {
  const plan = { thresholds: [0.9, 0.8], lastAnswersAll: false };

  it('sends a row to the first judge whose confidence clears its threshold, else to a person', () => {
    expect(route(plan, [0.95])).toBe(0);
    expect(route(plan, [0.5, 0.85])).toBe(1);
    expect(route(plan, [0.5, 0.7])).toBe(-1);
    expect(route(plan, [Number.NaN, 0.9])).toBe(1);
    expect(route({ ...plan, lastAnswersAll: true }, [0.5, 0.1])).toBe(1);
    expect(route({ thresholds: [null, 0.8], lastAnswersAll: false }, [0.99, 0.85])).toBe(1);
  });

  it('never lets a judge without an answer settle, even the last with the flag', () => {
    expect(settles({ ...plan, lastAnswersAll: true }, 1, Number.NaN)).toBe(false);
  });

  it('reads its plan from a calibrated cascade', () => {
    const strong = judge('hosted', 10, () => [0, 0.8]);
    expect(planOf(cascadeOf(majority, [cheap, strong]))).toEqual({
      thresholds: [0.9, 0.8],
      lastAnswersAll: false,
    });
  });
});
