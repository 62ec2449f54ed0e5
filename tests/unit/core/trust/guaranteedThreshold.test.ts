// The certified threshold: a case small enough to compute by hand (the bound with no disagreement is 1 -
// delta^(1/n)), the refusal to return an uncertified top threshold, and in simulation the guarantee itself: over many
// seeded calibration sets, fresh rows at or above the threshold agree at least 1 - alpha of the time in at least
// 1 - delta of them.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/contract/random';
import { guaranteedThreshold } from '../../../../src/core/trust/guaranteedThreshold';

/** Rows given as [confidence, agrees, how many]. */
function rows(groups: [number, 0 | 1, number][]): { confidence: number[]; agrees: number[] } {
  const confidence: number[] = [];
  const agrees: number[] = [];
  for (const [c, a, count] of groups)
    for (let i = 0; i < count; i++) {
      confidence.push(c);
      agrees.push(a);
    }
  return { confidence, agrees };
}

describe('guaranteedThreshold by hand', () => {
  it('keeps the last threshold that passes and stops at the first that fails', () => {
    // 0.95 keeps 30 rows, none wrong: bound 1 - 0.1^(1/30) = 0.0739 <= 0.1. 0.94 keeps 31 with one wrong: the bound
    // is the u with (1-u)^31 + 31u(1-u)^30 = 0.1, about 0.120 > 0.1: the walk stops there, before 0.5.
    const { confidence, agrees } = rows([
      [0.95, 1, 30],
      [0.94, 0, 1],
      [0.5, 1, 69],
    ]);
    const t = guaranteedThreshold(confidence, agrees);
    expect(t.threshold).toBe(0.95);
    expect(t.rows).toBe(30);
    expect(t.coverage).toBeCloseTo(0.3, 12);
    expect(t.agreement).toBe(1);
    expect(t.bound).toBeCloseTo(1 - Math.pow(0.1, 1 / 30), 10);
    expect(t.tested).toBe(2);
    expect(t.failed).toMatchObject({ threshold: 0.94, rows: 31 });
    expect(t.failed!.bound).toBeGreaterThan(0.1);
  });

  it('starts the grid at the highest confidence that keeps 30 rows', () => {
    const { confidence, agrees } = rows([
      [0.99, 1, 10],
      [0.97, 1, 20],
      [0.6, 0, 50],
    ]);
    const t = guaranteedThreshold(confidence, agrees);
    expect(t.threshold).toBe(0.97);
    expect(t.tested).toBe(2);
  });

  it('certifies nothing, with coverage 0, when the highest threshold fails: never the top one uncertified', () => {
    const { confidence, agrees } = rows([
      [0.99, 1, 28],
      [0.99, 0, 2],
      [0.5, 1, 100],
    ]);
    const t = guaranteedThreshold(confidence, agrees);
    expect(t).toMatchObject({
      threshold: null,
      rows: 0,
      coverage: 0,
      agreement: null,
      bound: null,
      tested: 1,
    });
    expect(t.failed).toMatchObject({ threshold: 0.99, rows: 30 });
  });

  it('certifies nothing when fewer rows than the grid needs are labelled, and skips rows without a confidence', () => {
    const t = guaranteedThreshold([0.9, 0.8, Number.NaN], [1, 1, 1]);
    expect(t).toMatchObject({ threshold: null, eligible: 2, tested: 0, failed: null, coverage: 0 });
  });

  it('follows alpha and delta', () => {
    const { confidence, agrees } = rows([
      [0.9, 1, 27],
      [0.9, 0, 3],
    ]);
    expect(guaranteedThreshold(confidence, agrees).threshold).toBeNull();
    expect(guaranteedThreshold(confidence, agrees, { alpha: 0.3 }).threshold).toBe(0.9);
  });
});

describe('guaranteedThreshold in simulation', () => {
  it('holds its guarantee on fresh rows in at least 1 - delta of calibrations', () => {
    // A judge whose confidence c (uniform on [0.3, 1]) is also its chance of agreeing with the majority.
    const alpha = 0.1;
    const delta = 0.1;
    const random = seededRandom(2024);
    const draw = (n: number): { confidence: Float64Array; agrees: Uint8Array } => {
      const confidence = new Float64Array(n);
      const agrees = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        confidence[i] = 0.3 + 0.7 * random();
        agrees[i] = random() < confidence[i]! ? 1 : 0;
      }
      return { confidence, agrees };
    };
    const splits = 200;
    let held = 0;
    let certified = 0;
    for (let s = 0; s < splits; s++) {
      const calibration = draw(500);
      const t = guaranteedThreshold(calibration.confidence, calibration.agrees, { alpha, delta });
      if (t.threshold === null) {
        held++;
        continue;
      }
      certified++;
      const fresh = draw(20_000);
      let kept = 0;
      let agree = 0;
      for (let i = 0; i < fresh.confidence.length; i++)
        if (fresh.confidence[i]! >= t.threshold) {
          kept++;
          agree += fresh.agrees[i]!;
        }
      if (agree / kept >= 1 - alpha) held++;
    }
    expect(certified).toBeGreaterThan(splits / 2);
    expect(held / splits).toBeGreaterThanOrEqual(1 - delta);
  });
});
