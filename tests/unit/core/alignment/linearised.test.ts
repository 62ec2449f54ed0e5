// Linearised intervals for large files: their standard errors agree with the row bootstrap's spread on the same rows
// (the bootstrap estimates the same first-order variance), the report switches to them above LINEARISED_ABOVE rows with
// B left open and says so, and the curves rewritten for speed give what their plain definitions give.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { benchRows, BENCH_QUESTIONS } from '../../../../bench/alignment/rows';
import { reliabilityBins } from '../../../../src/core/alignment/calibration';
import { computeAlignment, withDefaults } from '../../../../src/core/alignment/compute';
import { bootstrap, drawsOf } from '../../../../src/core/alignment/intervals';
import {
  LINEARISED_ABOVE,
  centredSquares,
  linearise,
  rowInfluences,
  spearmanInterval,
} from '../../../../src/core/alignment/linearised';
import { compareVariants } from '../../../../src/core/alignment/variants';
import { thresholdCurve } from '../../../../src/core/alignment/noulAgreement';
import { questionData, scratchFor, statKeys, statsInto } from '../../../../src/core/alignment/questionData';
import { rankCodes } from '../../../../src/core/alignment/scoreAgreement';
import { selectiveCurve } from '../../../../src/core/alignment/selective';
import { alignTableOf } from '../../../../src/core/alignment/table';

const sd = (xs: Float64Array): number => {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - mean) * (b - mean), 0) / (xs.length - 1));
};

describe('linearised standard errors', () => {
  const rows = benchRows(4000, 7);
  const table = alignTableOf(BENCH_QUESTIONS, rows);
  const options = withDefaults({});
  const B = 1500;

  for (const [name, keys] of [
    ['department', ['kappa', 'macro_f1', 'brier', 'log_loss', 'ece', 'se.billing', 'sp.billing']],
    ['frustration', ['qwk', 'mae', 'brier', 'log_loss']],
    ['is_urgent', ['auroc', 'brier', 'log_loss', 'ece']],
  ] as const) {
    it(`match the bootstrap's spread for ${name}`, () => {
      const data = questionData(name, BENCH_QUESTIONS[name]!, table, options);
      const lin = linearise(data);
      const names = statKeys(data);
      const scratch = scratchFor(data);
      const draws = bootstrap(data.ids.length, B, 11, names, (w, out) => statsInto(data, w, scratch, out));
      for (const key of keys) {
        const boot = sd(drawsOf(draws, key));
        const linear = key.startsWith('se.')
          ? Math.sqrt(lin.senSpecVariance(0, 1, 0))
          : key.startsWith('sp.')
            ? Math.sqrt(lin.senSpecVariance(0, 0, 1))
            : lin.se(key);
        // 1,500 resamples estimate a standard error to within about 4% (one sd); 15% is well outside chance.
        expect(linear / boot, `${name}.${key}: linear ${linear}, bootstrap ${boot}`).toBeGreaterThan(0.85);
        expect(linear / boot, `${name}.${key}: linear ${linear}, bootstrap ${boot}`).toBeLessThan(1.15);
      }
    });
  }

  it('give Spearman the Fisher z interval, which the bootstrap confirms', () => {
    const data = questionData('frustration', BENCH_QUESTIONS['frustration']!, table, options);
    const names = statKeys(data);
    const scratch = scratchFor(data);
    const draws = bootstrap(data.ids.length, B, 5, names, (w, out) => statsInto(data, w, scratch, out));
    const rho = lin(data).point('spearman');
    const { lo, hi } = spearmanInterval(rho, data.ids.length);
    const width = hi! - lo!;
    expect(width / (2 * 1.96 * sd(drawsOf(draws, 'spearman')))).toBeGreaterThan(0.85);
    expect(width / (2 * 1.96 * sd(drawsOf(draws, 'spearman')))).toBeLessThan(1.15);
    expect(lo!).toBeLessThan(rho);
    expect(hi!).toBeGreaterThan(rho);
  });
});

const lin = linearise;

describe('the paired difference of two runs, linearised', () => {
  // Run B: the same labelled rows, answered by another judge (other answers, correlated through the labels).
  const rowsA = benchRows(4000, 7);
  const rowsB = rowsA.map((r, i) => ({ ...r, answers: benchRows(1, 1000 + i)[0]!.answers }));
  const options = withDefaults({});
  const tableA = alignTableOf(BENCH_QUESTIONS, rowsA);
  const tableB = alignTableOf(BENCH_QUESTIONS, rowsB);

  for (const [name, keys] of [
    ['department', ['accuracy', 'kappa', 'macro_f1', 'brier', 'log_loss', 'ece']],
    ['frustration', ['exact', 'qwk', 'spearman', 'mae', 'brier']],
    ['is_urgent', ['accuracy', 'auroc', 'brier', 'ece']],
  ] as const) {
    it(`matches the paired bootstrap's spread for ${name}`, () => {
      const da = questionData(name, BENCH_QUESTIONS[name]!, tableA, options);
      const db = questionData(name, BENCH_QUESTIONS[name]!, tableB, options);
      const na = statKeys(da);
      const sa = scratchFor(da);
      const sb = scratchFor(db);
      const outA = new Float64Array(na.length);
      const outB = new Float64Array(na.length);
      const draws = bootstrap(da.ids.length, 1500, 3, na, (w, out) => {
        statsInto(da, w, sa, outA);
        statsInto(db, w, sb, outB);
        for (let k = 0; k < na.length; k++) out[k] = outB[k]! - outA[k]!;
      });
      for (const key of keys) {
        const ua = rowInfluences(da, key)!;
        const ub = rowInfluences(db, key)!;
        const linear = Math.sqrt(centredSquares(ub.map((v, i) => v - ua[i]!)));
        const boot = sd(drawsOf(draws, key));
        expect(linear / boot, `${name}.${key}: linear ${linear}, bootstrap ${boot}`).toBeGreaterThan(0.85);
        expect(linear / boot, `${name}.${key}: linear ${linear}, bootstrap ${boot}`).toBeLessThan(1.15);
      }
    });
  }

  it('is what compareVariants gives above the threshold, and it says so', () => {
    const big = benchRows(LINEARISED_ABOVE + 100, 9);
    const other = big.map((r, i) => ({ ...r, answers: benchRows(1, 5000 + i)[0]!.answers }));
    const c = compareVariants(BENCH_QUESTIONS, big, BENCH_QUESTIONS, other);
    const kappa = c.questions
      .find((q) => q.name === 'department')!
      .differences.find((d) => d.key === 'kappa')!;
    expect(kappa.difference.method).toMatch(/paired linearised/);
    expect(kappa.difference.lo!).toBeLessThan(kappa.difference.value!);
    expect(kappa.difference.hi!).toBeGreaterThan(kappa.difference.value!);
    expect(c.bootstrap.B).toBe(0);
  });
});

describe('a large file', () => {
  const rows = benchRows(LINEARISED_ABOVE + 500, 3);
  const report = computeAlignment(BENCH_QUESTIONS, rows);

  it('is given linearised intervals, said in each method and in the conventions', () => {
    expect(report.figures['department.kappa']!.method).toMatch(/linearised/);
    expect(report.figures['is_urgent.auroc']!.method).toMatch(/linearised/);
    expect(report.figures['frustration.spearman']!.method).toMatch(/Bonett and Wright/);
    expect(report.figures['is_urgent.prevalence.corrected']!.method).toMatch(/linearised/);
    expect(report.figures['department.accuracy']!.method).toMatch(/Wilson/);
    expect(report.conventions.join(' ')).toMatch(
      new RegExp(`more than ${LINEARISED_ABOVE.toLocaleString('en')} labelled rows`),
    );
  });

  it('keeps every interval around its estimate and inside the figure’s range', () => {
    for (const [key, f] of Object.entries(report.figures)) {
      if (f.value === null || f.lo === null || f.hi === null) continue;
      expect(f.lo, key).toBeLessThanOrEqual(f.value + 1e-12);
      expect(f.hi, key).toBeGreaterThanOrEqual(f.value - 1e-12);
      expect(f.hi - f.lo, key).toBeLessThan(0.1);
      expect(f.lo, key).toBeGreaterThanOrEqual(key.endsWith('kappa') || key.endsWith('qwk') ? -1 : 0);
    }
  });

  it('draws the reliability diagram from the gathered bin sums, as from the rows', () => {
    const table = alignTableOf(BENCH_QUESTIONS, rows);
    for (const name of Object.keys(BENCH_QUESTIONS)) {
      const data = questionData(name, BENCH_QUESTIONS[name]!, table, withDefaults({}));
      const expected = reliabilityBins(data.calP, data.calHit, 10);
      report.questions[name]!.reliability.forEach((bin, b) => {
        expect(bin.count).toBe(expected[b]!.count);
        if (bin.meanPredicted === null) expect(expected[b]!.meanPredicted).toBeNull();
        else expect(bin.meanPredicted).toBeCloseTo(expected[b]!.meanPredicted!, 10);
        if (bin.observed !== null) expect(bin.observed).toBeCloseTo(expected[b]!.observed!, 10);
      });
    }
  });

  it('is bootstrapped all the same when the caller fixes B', () => {
    const fixed = computeAlignment(BENCH_QUESTIONS, rows.slice(0, LINEARISED_ABOVE + 1), {
      bootstrap: { B: 20, seed: 1 },
    });
    expect(fixed.figures['department.kappa']!.method).toMatch(/bootstrap over rows, B=20/);
  });

  it('keeps the first mistakes, the most confident first, and counts them all', () => {
    const q = report.questions['frustration']!;
    expect(q.disagreementCount).toBe(q.n - q.confusion.counts.reduce((s, row, i) => s + row[i]!, 0));
    expect(q.disagreements.length).toBe(500);
    for (let i = 1; i < q.disagreements.length; i++)
      expect(q.disagreements[i - 1]!.pPredicted).toBeGreaterThanOrEqual(q.disagreements[i]!.pPredicted);
    const cell = q.confusion.ids[0]![1]!;
    expect(cell.length).toBe(Math.min(200, q.confusion.counts[0]![1]!));
  });
});

describe('curves in one pass', () => {
  const probability = fc.integer({ min: 0, max: 100 }).map((k) => k / 100);

  it('selective accuracy equals its definition at every threshold', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(probability, fc.boolean()), { maxLength: 60 }), (pairs) => {
        const confidence = pairs.map(([p]) => p);
        const correct = pairs.map(([, ok]) => (ok ? 1 : 0));
        for (const point of selectiveCurve(confidence, correct)) {
          const kept = pairs.filter(([p]) => p >= point.threshold - 1e-9);
          expect(point.kept).toBe(kept.length);
          const right = kept.filter(([, ok]) => ok).length;
          if (kept.length === 0) expect(point.accuracy).toBeNull();
          else expect(point.accuracy).toBeCloseTo(right / kept.length, 12);
        }
      }),
    );
  });

  it('the threshold curve equals its definition at every distinct P(yes)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(probability, fc.boolean()), { minLength: 2, maxLength: 60 }), (pairs) => {
        const p = pairs.map(([x]) => x);
        const y = pairs.map(([, yes]) => (yes ? 1 : 0));
        const P = y.filter((v) => v === 1).length;
        const N = y.length - P;
        const curve = thresholdCurve(p, y);
        if (P === 0 || N === 0) {
          expect(curve).toEqual([]);
          return;
        }
        for (const point of curve) {
          const tp = pairs.filter(([x, yes]) => yes && x >= point.threshold).length;
          const tn = pairs.filter(([x, yes]) => !yes && x < point.threshold).length;
          expect(point.tpr).toBeCloseTo(tp / P, 12);
          expect(point.tnr).toBeCloseTo(tn / N, 12);
        }
        expect(curve.length).toBe(new Set(p).size + 1);
      }),
    );
  });

  it('rank codes order the distinct values', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { maxLength: 50 }), (values) => {
        const { codes, distinct } = rankCodes(values);
        const uniq = [...new Set(values.map((v) => (Object.is(v, -0) ? 0 : v)))].sort((a, b) => a - b);
        expect(distinct).toBe(uniq.length);
        values.forEach((v, i) => expect(uniq[codes[i]!]).toBe(Object.is(v, -0) ? 0 : v));
      }),
    );
  });
});
