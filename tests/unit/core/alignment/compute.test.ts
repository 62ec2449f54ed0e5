// The entry point on whole runs: stable keys, conventions stated, undefined figures with reasons, properties that
// must hold for any rows (fast-check), variants paired row by row, and label values read from files.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Answer, Questions } from '../../../../src/contract';
import { brierRow } from '../../../../src/core/alignment/calibration';
import { computeAlignment } from '../../../../src/core/alignment/compute';
import { idOf, questionData, statsOf } from '../../../../src/core/alignment/questionData';
import { resampleCounts, seededStream } from '../../../../src/core/alignment/rng';
import { alignTableOf } from '../../../../src/core/alignment/table';
import { DEFAULT_OPTIONS } from '../../../../src/core/alignment/types';
import { labelColumnSummary, readLabel, LabelColumnSchema } from '../../../../src/core/labels/values';
import type { AlignRow } from '../../../../src/core/alignment/types';
import { compareVariants } from '../../../../src/core/alignment/variants';
import { differenceSentence } from '../../../../src/core/alignment/differenceSentence';

const QUESTIONS: Questions = {
  department: { type: 'choice', criteria: { billing: null, technical: null, sales: null } },
  frustration: { type: 'score', criteria: ['Calm', 'Annoyed', 'Angry'] },
  is_urgent: { type: 'noul' },
};
const LABELS = ['billing', 'technical', 'sales'];

const choice = (probabilities: number[]): Answer => {
  const p = Object.fromEntries(LABELS.map((l, i) => [l, probabilities[i]!]));
  const top = LABELS[probabilities.indexOf(Math.max(...probabilities))]!;
  return { type: 'choice', choice: top, confidence: 0.5, probabilities: p };
};
const score = (probabilities: number[]): Answer => ({
  type: 'score',
  score: probabilities.reduce((s, p, i) => s + i * p, 0),
  confidence: 0.5,
  legend: {},
  probabilities: Object.fromEntries(probabilities.map((p, i) => [String(i), p])),
});
const noul = (p: number): Answer => ({ type: 'noul', noul: p });

/** A one-hot distribution on k of K. */
const sure = (k: number, K: number): number[] => Array.from({ length: K }, (_, i) => (i === k ? 1 : 0));

describe('computeAlignment', () => {
  const rows: AlignRow[] = [
    {
      id: 'a',
      answers: { department: choice([0.8, 0.1, 0.1]), is_urgent: noul(0.9) },
      labels: { department: 'billing', is_urgent: true },
    },
    {
      id: 'b',
      answers: { department: choice([0.1, 0.8, 0.1]), is_urgent: noul(0.2) },
      labels: { department: 'technical', is_urgent: false },
    },
    {
      id: 'c',
      answers: { department: choice([0.9, 0.05, 0.05]), is_urgent: noul(0.6) },
      labels: { department: 'sales', is_urgent: false },
    },
    {
      id: 'd',
      answers: { department: choice([0.2, 0.2, 0.6]), is_urgent: noul(0.4) },
      labels: { department: 'sales', is_urgent: true },
    },
    { id: 'e', answers: { department: choice([0.2, 0.6, 0.2]), is_urgent: noul(0.7) }, labels: {} },
  ];
  const report = computeAlignment(QUESTIONS, rows, { bootstrap: { B: 200, seed: 3 } });

  it('keys figures by question and metric, each with n, interval and method', () => {
    const acc = report.figures['department.accuracy']!;
    expect(acc.value).toBeCloseTo(3 / 4);
    expect(acc.n).toBe(4);
    expect(acc.method).toMatch(/Wilson/);
    expect(acc.lo!).toBeLessThan(0.75);
    expect(report.figures['department.kappa']!.method).toMatch(/B=200, seed/);
    expect(report.figures['is_urgent.auroc']!.value).toBeCloseTo(0.75);
    expect(report.figures['is_urgent.tpr']!.value).toBe(0.5);
    expect(Object.keys(report.figures)).toContain('is_urgent.prevalence.corrected');
    expect(Object.keys(report.figures)).toContain('department.prevalence.sales.corrected');
  });

  it('scores Brier as the per-row definition does, averaged over the labelled rows', () => {
    const rowsBrier = [
      brierRow([0.8, 0.1, 0.1], 0),
      brierRow([0.1, 0.8, 0.1], 1),
      brierRow([0.9, 0.05, 0.05], 2),
      brierRow([0.2, 0.2, 0.6], 2),
    ];
    expect(report.figures['department.brier']!.value).toBeCloseTo(rowsBrier.reduce((a, b) => a + b) / 4, 12);
    // By hand: (0.06 + 0.06 + 1.715 + 0.24) / 4.
    expect(report.figures['department.brier']!.value).toBeCloseTo(0.51875, 12);
  });

  it('states its conventions', () => {
    expect(report.conventions.join(' ')).toMatch(/most probable level/);
    expect(report.conventions.join(' ')).toMatch(/lower edge closed/);
    expect(report.conventions.join(' ')).toMatch(/1e-15/);
  });

  it('opens the rows behind a confusion cell and orders confident mistakes first', () => {
    const q = report.questions['department']!;
    expect(q.confusion.counts[2]![0]).toBe(1);
    expect(q.confusion.ids[2]![0]).toEqual(['c']);
    expect(q.disagreements.map((d) => d.id)).toEqual(['c']);
    expect(q.disagreements[0]!.pPredicted).toBeCloseTo(0.9);
    const urgent = report.questions['is_urgent']!;
    // c: judged yes at 0.6 (labelled no); d: judged no at 0.6 (labelled yes) — equal, so by id.
    expect(urgent.disagreements.map((d) => d.id)).toEqual(['c', 'd']);
  });

  it('uses the unlabelled rows for the judge’s share, not the corrected one alone', () => {
    const prev = report.questions['is_urgent']!.prevalence[0]!;
    expect(prev.judge.n).toBe(5);
    expect(prev.judge.value).toBeCloseTo(3 / 5);
    expect(prev.human.value).toBeCloseTo(2 / 4);
  });

  it('gives back the human prevalence when corrected on the labelled rows themselves', () => {
    const labelled = rows.filter((r) => 'is_urgent' in r.labels);
    const only = computeAlignment(QUESTIONS, labelled, { bootstrap: { B: 50, seed: 1 } });
    const prev = only.questions['is_urgent']!.prevalence[0]!;
    // se 0.5, sp 0.5: no better than chance, so undefined here; use a file where the judge is informative.
    expect(prev.corrected.value).toBeNull();
    const informative: AlignRow[] = [
      { id: '1', answers: { is_urgent: noul(0.9) }, labels: { is_urgent: true } },
      { id: '2', answers: { is_urgent: noul(0.9) }, labels: { is_urgent: true } },
      { id: '3', answers: { is_urgent: noul(0.1) }, labels: { is_urgent: true } },
      { id: '4', answers: { is_urgent: noul(0.1) }, labels: { is_urgent: false } },
      { id: '5', answers: { is_urgent: noul(0.1) }, labels: { is_urgent: false } },
      { id: '6', answers: { is_urgent: noul(0.8) }, labels: { is_urgent: false } },
    ];
    const r = computeAlignment(QUESTIONS, informative, { bootstrap: { B: 50, seed: 1 } });
    expect(r.figures['is_urgent.prevalence.corrected']!.value).toBeCloseTo(0.5, 12);
  });

  it('shows kappa and AUC as undefined with a reason, never 0 or NaN', () => {
    const one: AlignRow[] = [
      {
        id: '1',
        answers: { department: choice(sure(0, 3)), is_urgent: noul(0.9) },
        labels: { department: 'billing', is_urgent: true },
      },
      {
        id: '2',
        answers: { department: choice(sure(0, 3)), is_urgent: noul(0.8) },
        labels: { department: 'billing', is_urgent: true },
      },
    ];
    const r = computeAlignment(QUESTIONS, one, { bootstrap: { B: 20, seed: 1 } });
    expect(r.figures['department.kappa']).toMatchObject({ value: null, lo: null, hi: null });
    expect(r.figures['department.kappa']!.undefinedReason).toMatch(/one and the same class/);
    expect(r.figures['is_urgent.auroc']!.undefinedReason).toMatch(/both classes/);
  });

  it('moves the noul threshold and the score prediction convention on request', () => {
    const s: AlignRow[] = [
      { id: '1', answers: { frustration: score([0.45, 0.1, 0.45]) }, labels: { frustration: 1 } },
      { id: '2', answers: { frustration: score([0, 1, 0]) }, labels: { frustration: 1 } },
    ];
    expect(
      computeAlignment(QUESTIONS, s, { bootstrap: { B: 20, seed: 1 } }).figures['frustration.exact']!.value,
    ).toBe(0.5);
    expect(
      computeAlignment(QUESTIONS, s, { scorePrediction: 'expectedRounded', bootstrap: { B: 20, seed: 1 } })
        .figures['frustration.exact']!.value,
    ).toBe(1);
    const moved = computeAlignment(QUESTIONS, rows, {
      noulThresholds: { is_urgent: 0.35 },
      bootstrap: { B: 20, seed: 1 },
    });
    expect(moved.figures['is_urgent.tpr']!.value).toBe(1);
    expect(report.questions['is_urgent']!.threshold!.best!.balancedAccuracy).toBeGreaterThanOrEqual(0.75);
  });
});

/** Random labelled rows over the three questions. */
const rowArb = fc.record({
  dept: fc.tuple(
    fc.integer({ min: 0, max: 2 }),
    fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 3, maxLength: 3 }),
  ),
  frus: fc.tuple(
    fc.integer({ min: 0, max: 2 }),
    fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 3, maxLength: 3 }),
  ),
  urgent: fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 100 })),
});
type RawRow = { dept: [number, number[]]; frus: [number, number[]]; urgent: [boolean, number] };
const toRows = (raw: RawRow[]): AlignRow[] =>
  raw.map((r, i) => ({
    id: String(i),
    answers: {
      department: choice(r.dept[1].map((x) => x / 100)),
      frustration: score(r.frus[1].map((x) => x / 100)),
      is_urgent: noul(r.urgent[1] / 100),
    },
    labels: { department: LABELS[r.dept[0]]!, frustration: r.frus[0], is_urgent: r.urgent[0] },
  }));

const BOUNDS: Record<string, [number, number]> = {
  accuracy: [0, 1],
  exact: [0, 1],
  within_one: [0, 1],
  tpr: [0, 1],
  tnr: [0, 1],
  kappa: [-1, 1],
  qwk: [-1, 1],
  macro_f1: [0, 1],
  spearman: [-1, 1],
  auroc: [0, 1],
  brier: [0, 2],
  ece: [0, 1],
  mae: [0, 2],
};

describe('properties', () => {
  it('identical labels and answers give kappa 1 and zero error', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.boolean()), {
          minLength: 2,
          maxLength: 40,
        }),
        (raw) => {
          const rows: AlignRow[] = raw.map(([d, f, u], i) => ({
            id: String(i),
            answers: {
              department: choice(sure(d, 3)),
              frustration: score(sure(f, 3)),
              is_urgent: noul(u ? 1 : 0),
            },
            labels: { department: LABELS[d]!, frustration: f, is_urgent: u },
          }));
          const r = computeAlignment(QUESTIONS, rows, { bootstrap: { B: 20, seed: 1 } });
          const k = r.figures['department.kappa']!;
          if (k.value !== null) expect(k.value).toBeCloseTo(1, 12);
          else expect(new Set(raw.map((x) => x[0])).size).toBe(1);
          expect(r.figures['department.accuracy']!.value).toBe(1);
          expect(r.figures['department.brier']!.value).toBe(0);
          expect(r.figures['department.log_loss']!.value).toBeCloseTo(0, 12);
          expect(r.figures['department.ece']!.value).toBe(0);
          expect(r.figures['frustration.mae']!.value).toBe(0);
          expect(r.figures['is_urgent.brier']!.value).toBe(0);
          expect(r.questions['department']!.disagreements).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('every bounded figure stays in its bounds, and Wilson intervals contain the estimate', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 1, maxLength: 40 }), (raw) => {
        const r = computeAlignment(QUESTIONS, toRows(raw), { bootstrap: { B: 30, seed: 2 } });
        for (const [key, f] of Object.entries(r.figures)) {
          const metric = key.split('.').slice(1).join('.');
          const bounds = BOUNDS[metric] ?? (/precision|recall|prevalence/.test(metric) ? [0, 1] : null);
          if (f.value === null) {
            expect(f.undefinedReason).toBeTruthy();
            continue;
          }
          expect(Number.isFinite(f.value)).toBe(true);
          if (bounds) {
            expect(f.value).toBeGreaterThanOrEqual(bounds[0] - 1e-9);
            expect(f.value).toBeLessThanOrEqual(bounds[1] + 1e-9);
          }
          if (f.method.includes('Wilson')) {
            expect(f.lo!).toBeLessThanOrEqual(f.value + 1e-12);
            expect(f.hi!).toBeGreaterThanOrEqual(f.value - 1e-12);
          }
          if (f.lo !== null && f.hi !== null) expect(f.lo).toBeLessThanOrEqual(f.hi);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a variant identical to its base differs by exactly 0 with a zero-width interval', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 3, maxLength: 30 }), (raw) => {
        const rows = toRows(raw);
        const c = compareVariants(QUESTIONS, rows, QUESTIONS, rows, { bootstrap: { B: 30, seed: 4 } });
        for (const q of c.questions) {
          expect(q.mcnemar.b + q.mcnemar.c).toBe(0);
          expect(q.changes).toEqual([]);
          for (const d of q.differences)
            if (d.difference.value !== null) {
              expect(d.difference.value).toBe(0);
              if (d.difference.lo !== null) expect([d.difference.lo, d.difference.hi]).toEqual([0, 0]);
            }
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('compareVariants', () => {
  it('pairs rows by id, reports the change and a paired difference with its interval', () => {
    const base: AlignRow[] = [];
    const better: AlignRow[] = [];
    for (let i = 0; i < 60; i++) {
      const truth = i % 3;
      const wrong = (truth + 1) % 3;
      // A is right on half the rows, B on five in six.
      base.push({
        id: `r${i}`,
        answers: { department: choice(sure(i % 2 === 0 ? truth : wrong, 3).map((x) => x * 0.8 + 0.2 / 3)) },
        labels: { department: LABELS[truth]! },
      });
      better.push({
        id: `r${i}`,
        answers: { department: choice(sure(i % 6 === 0 ? wrong : truth, 3).map((x) => x * 0.8 + 0.2 / 3)) },
        labels: { department: LABELS[truth]! },
      });
    }
    const reworded: Questions = {
      department: {
        type: 'choice',
        instructions: 'Which team should answer?',
        criteria: { billing: null, technical: 'Bugs and outages', sales: null },
      },
    };
    const c = compareVariants({ department: QUESTIONS['department']! }, base, reworded, better.reverse(), {
      bootstrap: { B: 300, seed: 5 },
    });
    const q = c.questions[0]!;
    expect(q.paired).toBe(60);
    expect(q.changes).toEqual(['instructions reworded', 'label reworded: technical']);
    const acc = q.differences.find((d) => d.key === 'accuracy')!;
    expect(acc.difference.value).toBeCloseTo(50 / 60 - 30 / 60);
    expect(acc.difference.lo!).toBeGreaterThan(0);
    expect(q.mcnemar.c).toBeGreaterThan(q.mcnemar.b);
    expect(q.mcnemar.pValue).toBeLessThan(0.01);
    expect(differenceSentence(q.differences.find((d) => d.key === 'kappa')!)).toMatch(
      /^kappa \+0\.\d\d \(95% CI \+0\.\d\d to \+0\.\d\d\)$/,
    );
  });
});

describe('label values', () => {
  const dept = QUESTIONS['department']!;
  const spec = LabelColumnSchema.parse({ column: 'human', question: 'department' });
  it('reads case, spaces and unique prefixes, and counts what matches nothing', () => {
    expect(readLabel(' TECHNICAL ', dept, spec)).toMatchObject({
      kind: 'ok',
      value: 'technical',
      how: 'normalised',
    });
    expect(readLabel('tech', dept, spec)).toMatchObject({ kind: 'ok', value: 'technical', how: 'prefix' });
    expect(readLabel('te', dept, spec)).toEqual({ kind: 'unmatched', raw: 'te' });
    expect(readLabel('', dept, spec)).toEqual({ kind: 'empty' });
    const summary = labelColumnSummary(['billing', 'Billing', 'money', 'money', '', 'tech'], dept, spec);
    expect(summary).toMatchObject({ labelled: 3, unmatched: 2, empty: 1, excluded: 0 });
    expect(summary.lines[0]).toMatchObject({ raw: 'money', count: 2, reading: { kind: 'unmatched' } });
  });
  it('applies the user’s table: a synonym mapped, a value left out', () => {
    const mapped = LabelColumnSchema.parse({
      column: 'human',
      question: 'department',
      values: { money: 'billing', '??': null },
    });
    expect(readLabel('money', dept, mapped)).toMatchObject({ kind: 'ok', value: 'billing', how: 'mapped' });
    expect(readLabel('??', dept, mapped)).toEqual({ kind: 'excluded' });
  });
  it('reads score levels by number (0- or 1-based) or by level text', () => {
    const frus = QUESTIONS['frustration']!;
    expect(
      readLabel(2, frus, LabelColumnSchema.parse({ column: 'x', question: 'frustration' })),
    ).toMatchObject({ value: 2 });
    expect(
      readLabel('3', frus, LabelColumnSchema.parse({ column: 'x', question: 'frustration', levelBase: 1 })),
    ).toMatchObject({ value: 2 });
    expect(
      readLabel('3', frus, LabelColumnSchema.parse({ column: 'x', question: 'frustration' })),
    ).toMatchObject({ kind: 'unmatched' });
    expect(
      readLabel('annoyed', frus, LabelColumnSchema.parse({ column: 'x', question: 'frustration' })),
    ).toMatchObject({ value: 1 });
  });
  it('reads noul from yes/no/true/false/1/0/y/n', () => {
    const urgent = QUESTIONS['is_urgent']!;
    const s = LabelColumnSchema.parse({ column: 'x', question: 'is_urgent' });
    for (const yes of ['yes', 'Y', 'true', '1', 1, true])
      expect(readLabel(yes, urgent, s)).toMatchObject({ value: true });
    for (const no of ['No', 'n', 'FALSE', '0', 0, false])
      expect(readLabel(no, urgent, s)).toMatchObject({ value: false });
    expect(readLabel('maybe', urgent, s)).toMatchObject({ kind: 'unmatched' });
  });
});

describe('a resample as row weights', () => {
  it('gives every statistic of the rows written out as many times as they were drawn', () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { minLength: 1, maxLength: 30 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 30, maxLength: 30 }),
        (raw, draws) => {
          const rows = toRows(raw);
          for (const [name, question] of Object.entries(QUESTIONS)) {
            const data = questionData(name, question, alignTableOf(QUESTIONS, rows), DEFAULT_OPTIONS);
            const weights = Uint32Array.from({ length: data.n }, (_, i) => draws[i]!);
            if (weights.reduce((a, b) => a + b, 0) === 0) continue;
            // The plain definition: the drawn rows written out, each as many times as it was drawn.
            const byId = new Map(rows.map((r) => [r.id, r]));
            const ids = Array.from({ length: data.n }, (_, i) => idOf(data, i));
            const repeated = ids.flatMap((id, i) =>
              Array.from({ length: weights[i]! }, (_, k) => ({ ...byId.get(id)!, id: `${id}#${k}` })),
            );
            const plain = statsOf(
              questionData(name, question, alignTableOf(QUESTIONS, repeated), DEFAULT_OPTIONS),
              null,
            );
            const weighted = statsOf(data, weights);
            for (const [key, value] of Object.entries(plain)) {
              if (value === null) expect(weighted[key], key).toBeNull();
              else expect(weighted[key], key).toBeCloseTo(value, 9);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('draws n rows in all, the same for a seed', () => {
    const a = resampleCounts(1000, seededStream(5), new Uint32Array(1000));
    const b = resampleCounts(1000, seededStream(5), new Uint32Array(1000));
    expect(a.reduce((s, w) => s + w, 0)).toBe(1000);
    expect(a).toEqual(b);
    expect(a).not.toEqual(resampleCounts(1000, seededStream(6), new Uint32Array(1000)));
  });
});

describe('a refusal in the alignment figures (issue 29 sweep: alignment x refusals)', () => {
  it('counts a refused question apart: never a mistake, never "not answered yet", left out of every figure', () => {
    const rows: AlignRow[] = [
      {
        id: 'a',
        labels: { department: 'billing', is_urgent: true },
        answers: { department: choice([0.8, 0.1, 0.1]), is_urgent: noul(0.9) },
      },
      {
        id: 'b',
        labels: { department: 'technical', is_urgent: false },
        answers: { department: { type: 'refusal', question_type: 'choice' }, is_urgent: noul(0.2) },
      },
      {
        id: 'c',
        labels: { department: 'sales', is_urgent: true },
        answers: {
          department: choice([0.1, 0.1, 0.8]),
          is_urgent: { type: 'refusal', question_type: 'noul' },
        },
      },
      { id: 'd', labels: { department: 'sales' } },
    ];
    const report = computeAlignment(QUESTIONS, rows, { bootstrap: { B: 50, seed: 1 } });
    const department = report.questions['department']!;
    expect(department.n).toBe(2);
    expect(department.unanswered).toBe(2);
    expect(department.refused).toBe(1);
    // The two answered rows are both right: the refusal is not a mistake.
    expect(department.confusion.counts.flat().reduce((a, b) => a + b, 0)).toBe(2);
    expect(report.questions['is_urgent']!.refused).toBe(1);
    expect(report.questions['is_urgent']!.n).toBe(2);
  });
});

describe('trust intervals follow the question’s own (the seam of alignment and trust)', () => {
  const questions: Questions = { urgent: { type: 'noul' } };
  const rows = (n: number): AlignRow[] =>
    Array.from({ length: n }, (_, i) => {
      const label = i % 3 === 0;
      const p = Math.round(((label ? 0.7 : 0.3) + ((i % 7) - 3) / 20) * 100) / 100;
      return { id: `r${i}`, labels: { urgent: label }, answers: { urgent: { type: 'noul', noul: p } } };
    });

  it('linearises them above 20,000 labelled rows when B is left open, as the question’s own figures', () => {
    const report = computeAlignment(questions, rows(20_100), { bootstrap: { B: null, seed: 1 } });
    const question = report.questions['urgent']!;
    expect(question.figures['auroc']!.method).toMatch(/linearised/);
    expect(question.trust!.ceiling.intervals).toBe('linearised');
    expect(question.trust!.conventions.join(' ')).toMatch(/more than 20,000 labelled rows/);
  });

  it('resamples them with the report’s B when B is set or the file is small', () => {
    const set = computeAlignment(questions, rows(20_100), { bootstrap: { B: 50, seed: 1 } });
    expect(set.questions['urgent']!.trust!.ceiling).toMatchObject({ intervals: 'bootstrap' });
    expect(set.questions['urgent']!.trust!.ceiling.bootstrap.B).toBe(50);
    const small = computeAlignment(questions, rows(300), { bootstrap: { B: null, seed: 1 } });
    expect(small.questions['urgent']!.trust!.ceiling.intervals).toBe('bootstrap');
    expect(small.questions['urgent']!.trust!.ceiling.bootstrap.B).toBe(small.bootstrap.B);
  });
});
