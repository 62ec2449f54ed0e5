// Active statistical inference: the design's probabilities and order, the estimate computed by hand on a small case,
// and seeded simulations of what the method promises (coverage, and fewer labels where the judge's uncertainty
// tracks its errors, no more where it does not). Seeded, so every run draws the same trials.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../src/contract/random';
import {
  activeDesign,
  activeMean,
  activeOrder,
  activeSavingSentence,
  answerUncertainty,
  nextActiveRow,
} from '../../../../src/core/trust/active';
import { ppiMean } from '../../../../src/core/trust/ppi';

/** A population of judged rows: each row's predicted P(yes) f, drawn from `levels` with `weights`. */
interface World {
  levels: readonly number[];
  weights: readonly number[];
  /** P(Y = 1 | f): calibrated when it returns f. */
  truth: (f: number) => number;
}

const expectation = (w: World): number =>
  w.levels.reduce((s, f, k) => s + w.weights[k]! * w.truth(f), 0) / w.weights.reduce((s, x) => s + x, 0);

function draw(world: World, N: number, random: () => number): { f: Float64Array; y: Float64Array } {
  const total = world.weights.reduce((s, x) => s + x, 0);
  const f = new Float64Array(N);
  const y = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    let u = random() * total;
    let k = 0;
    while (u >= world.weights[k]! && k < world.levels.length - 1) u -= world.weights[k++]!;
    f[i] = world.levels[k]!;
    y[i] = random() < world.truth(f[i]!) ? 1 : 0;
  }
  return { f, y };
}

/** Labels the first `n` rows of the active order and returns the estimate. */
function labelActively(f: Float64Array, y: Float64Array, n: number, seed: number) {
  const u = Array.from(f, (p) => answerUncertainty({ type: 'noul', yes: p }));
  const design = activeDesign(u, n, { seed });
  const order = activeOrder(design);
  const labels = new Map<number, number>();
  for (let j = 0; j < n; j++) labels.set(order[j]!, y[order[j]!]!);
  return activeMean(f, design, labels, { range: [0, 1] })!;
}

/** PPI++ with `n` rows labelled in uniformly random order. */
function labelRandomly(f: Float64Array, y: Float64Array, n: number, random: () => number) {
  const order = Array.from(f, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const labelled = order.slice(0, n);
  const rest = order.slice(n);
  return ppiMean(
    labelled.map((i) => y[i]!),
    labelled.map((i) => f[i]!),
    rest.map((i) => f[i]!),
    null,
    undefined,
    [0, 1],
  )!;
}

// A judge that is sure and right on most rows and unsure on a few, calibrated: its uncertainty tracks its errors.
const calibrated: World = { levels: [0.002, 0.5, 0.998], weights: [0.46, 0.08, 0.46], truth: (f) => f };
// A judge whose stated probability says nothing about the label: a yes is 80% likely on every row.
const uninformative: World = { levels: [0.55, 0.7, 0.85, 0.95], weights: [1, 1, 1, 1], truth: () => 0.8 };

describe('answerUncertainty', () => {
  it('is the spread of a yes, 1 minus the top probability, or the spread of the levels', () => {
    expect(answerUncertainty({ type: 'noul', yes: 0.5 })).toBeCloseTo(0.5, 12);
    expect(answerUncertainty({ type: 'noul', yes: 1 })).toBe(0);
    expect(answerUncertainty({ type: 'choice', probabilities: [0.7, 0.2, 0.1] })).toBeCloseTo(0.3, 12);
    // Levels 0 and 2 at one half each: mean 1, spread 1.
    expect(answerUncertainty({ type: 'score', probabilities: [0.5, 0, 0.5] })).toBeCloseTo(1, 12);
  });
});

describe('activeDesign', () => {
  it('spends the budget, never gives a row less than the floor’s share, and caps at 1', () => {
    const u = [0, 0, 0, 0, 0, 0, 0, 0, 0.5, 0.5];
    const d = activeDesign(u, 4, { floor: 0.2, seed: 3 });
    const sum = d.probability.reduce((s, p) => s + p, 0);
    expect(sum).toBeCloseTo(4, 9);
    // Sizes: 0.2 for the sure rows, 0.8 * 5 + 0.2 = 4.2 for the unsure ones; the unsure ones cap at 1 and the
    // remaining 2 labels spread over 8 rows of size 0.2: a quarter each.
    expect(d.probability[9]).toBe(1);
    expect(d.probability[0]).toBeCloseTo(0.25, 12);
    const order = activeOrder(d);
    expect(order.length).toBe(10);
    expect(new Set(order).size).toBe(10);
  });

  it('refuses a floor of zero, which would let a row’s probability reach zero', () => {
    expect(() => activeDesign([0.1, 0.2], 1, { floor: 0 })).toThrow(/floor/);
  });
});

describe('activeMean by hand', () => {
  it('weights each label by the inverse of its probability at the frontier', () => {
    // Four rows, keys chosen so rows 0 and 2 come first; row 1 is the first unlabelled row (key 0.5).
    const design = {
      probability: Float64Array.from([0.5, 1, 0.25, 1]),
      key: Float64Array.from([0.1, 0.5, 0.2, 0.9]),
    };
    const f = [0.8, 0.4, 0.2, 0.6];
    const labels = new Map([
      [0, 1],
      [2, 0],
    ]);
    const m = activeMean(f, design, labels, { lambda: 1 })!;
    // Frontier 0.5: π = min(1, 0.5 p) = 0.25, 0.5, 0.125, 0.5. With λ = 1 the predictor is f itself. Terms:
    // row 0: 0.8 + (1 − 0.8)/0.25 = 1.6; row 1: 0.4; row 2: 0.2 + (0 − 0.2)/0.125 = −1.4; row 3: 0.6. Mean 0.3.
    expect(m.frontier).toBe(0.5);
    expect(m.n).toBe(2);
    expect(m.active.value).toBeCloseTo(0.3, 12);
    // Population variance of the terms (1.6, 0.4, −1.4, 0.6) about 0.3: (1.69 + 0.01 + 2.89 + 0.09) / 4 = 1.17.
    expect(m.active.se).toBeCloseTo(Math.sqrt(1.17 / 4), 12);
  });

  it('with λ = 0 predicts every row by the judge’s mean f̄, which needs no label', () => {
    const design = {
      probability: Float64Array.from([0.5, 1, 0.25, 1]),
      key: Float64Array.from([0.1, 0.5, 0.2, 0.9]),
    };
    const m = activeMean(
      [0.8, 0.4, 0.2, 0.6],
      design,
      new Map([
        [0, 1],
        [2, 0],
      ]),
      { lambda: 0 },
    )!;
    // f̄ = 0.5. Terms: 0.5 + 0.5/0.25 = 2.5; 0.5; 0.5 − 0.5/0.125 = −3.5; 0.5. Mean 0.
    expect(m.active.value).toBeCloseTo(0, 12);
  });

  it('leaves out a label beyond an earlier unlabelled row, and says how many', () => {
    const design = {
      probability: Float64Array.from([1, 1, 1, 1]),
      key: Float64Array.from([0.1, 0.2, 0.3, 0.4]),
    };
    const m = activeMean(
      [0.5, 0.5, 0.5, 0.5],
      design,
      new Map([
        [0, 1],
        [1, 0],
        [3, 1],
      ]),
    )!;
    expect(m.n).toBe(2);
    expect(m.beyondFrontier).toBe(1);
  });
});

describe('seeded simulations', () => {
  it('covers the true prevalence in 95% ± 2% of 2,000 trials with 150 labels of 2,000 rows', () => {
    const truth = expectation(calibrated);
    const random = seededRandom(41);
    let covered = 0;
    const trials = 2000;
    for (let t = 0; t < trials; t++) {
      const { f, y } = draw(calibrated, 2000, random);
      const m = labelActively(f, y, 150, t + 1);
      if (m.active.lo <= truth && truth <= m.active.hi) covered++;
    }
    expect(covered / trials).toBeGreaterThanOrEqual(0.93);
    expect(covered / trials).toBeLessThanOrEqual(0.97);
  });

  it('reaches with 150 labels the width random order reaches with about twice as many, where uncertainty tracks errors', () => {
    const random = seededRandom(5);
    let active = 0;
    let randomAt300 = 0;
    let equivalent = 0;
    const trials = 200;
    for (let t = 0; t < trials; t++) {
      const { f, y } = draw(calibrated, 4000, random);
      const a = labelActively(f, y, 150, t + 1);
      active += a.active.se;
      equivalent += a.randomEquivalent.ppi!;
      randomAt300 += labelRandomly(f, y, 300, random).ppi.se;
    }
    // Active with 150 is at least as narrow as random order with 300.
    expect(active / trials).toBeLessThanOrEqual(randomAt300 / trials);
    // And the method's own sentence estimates about twice the labels for random order.
    expect(equivalent / trials).toBeGreaterThanOrEqual(280);
  });

  it('estimates what random order gives with the same labels, as random order measured gives it', () => {
    const random = seededRandom(6);
    let estimated = 0;
    let measured = 0;
    let active = 0;
    const trials = 200;
    for (let t = 0; t < trials; t++) {
      const { f, y } = draw(calibrated, 4000, random);
      const a = labelActively(f, y, 150, t + 1);
      estimated += a.randomEquivalent.seAtN.ppi;
      active += a.active.se;
      measured += labelRandomly(f, y, 150, random).ppi.se;
    }
    // The estimate read from the active labels is within 10% of random order's own, and wider than active order's.
    expect(estimated / measured).toBeGreaterThan(0.9);
    expect(estimated / measured).toBeLessThan(1.1);
    expect(active).toBeLessThan(estimated);
  });

  it('needs no more labels than random order (within noise) where the uncertainty says nothing of the errors', () => {
    const random = seededRandom(9);
    let active = 0;
    let rnd = 0;
    const trials = 200;
    for (let t = 0; t < trials; t++) {
      const { f, y } = draw(uninformative, 4000, random);
      active += labelActively(f, y, 200, t + 1).active.se;
      rnd += labelRandomly(f, y, 200, random).ppi.se;
    }
    // Mean standard errors within 5% of each other: no gain, no loss.
    expect(active / rnd).toBeLessThan(1.05);
    expect(active / rnd).toBeGreaterThan(0.9);
  });

  it('says in a sentence how many labels the order saved', () => {
    const { f, y } = draw(calibrated, 4000, seededRandom(2));
    const text = activeSavingSentence(labelActively(f, y, 150, 1));
    expect(text).toMatch(
      /^Active order: ±0\.\d{3} with 150 labels; random order needs about \d+ with the judge/,
    );
    expect(text).toMatch(/saved about \d+ labels\.$/);
  });
});

describe('nextActiveRow', () => {
  it('hands out the first row of the order that is not taken', () => {
    const order = Uint32Array.from([4, 2, 0, 1, 3]);
    const taken = new Set([4, 0]);
    expect(nextActiveRow(order, (r) => taken.has(r), 0)).toEqual({ row: 2, cursor: 1 });
    taken.add(2);
    expect(nextActiveRow(order, (r) => taken.has(r), 1)).toEqual({ row: 1, cursor: 3 });
    for (const r of [1, 3]) taken.add(r);
    expect(nextActiveRow(order, (r) => taken.has(r), 3)).toEqual({ row: null, cursor: 5 });
  });
});
