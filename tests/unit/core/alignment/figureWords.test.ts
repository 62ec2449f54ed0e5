// The figures in words: each figure's sentence for its question, which way is better, the reading scale's band at
// its edges, and a variant difference read as a signed change with its unit and a better/worse mark.
import { describe, expect, it } from 'vitest';
import { computeAlignment } from '../../../../src/core/alignment/compute';
import {
  FIGURES,
  LANDIS_KOCH,
  bandOf,
  figureName,
  intervalText,
  plainText,
  pValueText,
  readDifference,
  readFigure,
} from '../../../../src/core/alignment/figureWords';
import type { Figure } from '../../../../src/core/alignment/types';

const fig = (value: number | null, lo: number | null = null, hi: number | null = null): Figure => ({
  value,
  lo,
  hi,
  n: 40,
  method: 'm',
  ...(value === null ? { undefinedReason: 'only one label is present' } : {}),
});
const choice = { question: 'department', type: 'choice' as const, classes: 3 };

describe('figures in words', () => {
  it('says what accuracy and kappa mean for the question, with Landis and Koch and its caveat', () => {
    expect(readFigure('accuracy', fig(0.64), choice)!.sentence).toBe(
      "The judge picks the human's department on 64% of rows.",
    );
    const kappa = readFigure('kappa', fig(0.52), choice)!;
    expect(kappa.sentence).toMatch(/after the agreement chance alone would give, kappa is 0\.52/i);
    expect(kappa.better).toBe('Higher is better.');
    expect(kappa.scale).toEqual({
      words: 'moderate',
      source: 'Landis and Koch (1977)',
      caveat: expect.stringMatching(/rare/) as unknown as string,
    });
  });

  it('puts the Landis and Koch edges where the published table does (0.20 slight, 0.21 fair)', () => {
    expect(bandOf(LANDIS_KOCH, -0.05)).toBe('poor (below chance)');
    expect(bandOf(LANDIS_KOCH, 0)).toBe('slight');
    expect(bandOf(LANDIS_KOCH, 0.2)).toBe('slight');
    expect(bandOf(LANDIS_KOCH, 0.21)).toBe('fair');
    expect(bandOf(LANDIS_KOCH, 0.6)).toBe('moderate');
    expect(bandOf(LANDIS_KOCH, 0.61)).toBe('substantial');
    expect(bandOf(LANDIS_KOCH, 0.81)).toBe('almost perfect');
  });

  it('says lower is better for the error figures, with what an even spread would score', () => {
    for (const key of ['brier', 'log_loss', 'ece', 'mae'])
      expect(readFigure(key, fig(0.2), choice)!.better).toBe('Lower is better.');
    expect(readFigure('brier', fig(0.3), choice)!.sentence).toContain('evenly scores 0.67');
    expect(
      readFigure('brier', fig(0.1), { question: 'urgent', type: 'noul', classes: 2 })!.sentence,
    ).toContain('evenly scores 0.25');
    expect(readFigure('log_loss', fig(0.5), choice)!.sentence).toContain(
      `evenly scores ${Math.log(3).toFixed(2)}`,
    );
    expect(readFigure('ece', fig(0.04), choice)!.sentence).toMatch(
      /^The judge's stated probability is 4 percentage points/,
    );
    expect(
      readFigure('auroc', fig(0.85), { question: 'urgent', type: 'noul', classes: 2 })!.scale!.words,
    ).toBe('excellent');
  });

  it('says why a figure is undefined instead of a number', () => {
    expect(readFigure('kappa', fig(null), choice)!.sentence).toBe(
      'Cannot be computed: only one label is present.',
    );
  });

  it('has words for every figure a report computes', () => {
    const questions = {
      d: { type: 'choice' as const, instructions: 'x', criteria: { a: null, b: null } },
      s: { type: 'score' as const, instructions: 'x', criteria: ['lo', 'mid', 'hi'] },
      u: { type: 'noul' as const, instructions: 'x' },
    };
    const report = computeAlignment(
      questions,
      Array.from({ length: 12 }, (_, i) => ({
        id: String(i),
        labels: { d: i % 2 ? 'a' : 'b', s: i % 3, u: i % 2 === 0 },
        answers: {
          d: { type: 'choice', choice: 'a', confidence: 0.5, probabilities: { a: 0.7, b: 0.3 } },
          s: {
            type: 'score',
            score: 1,
            confidence: 0.5,
            legend: {},
            probabilities: { '0': 0.2, '1': 0.6, '2': 0.2 },
          },
          u: { type: 'noul', noul: i % 3 ? 0.7 : 0.2 },
        },
      })),
      { bootstrap: { B: 50, seed: 1 } },
    );
    const keys = Object.values(report.questions).flatMap((q) =>
      Object.keys(q.figures).filter((k) => !k.includes('.')),
    );
    for (const key of keys) expect(FIGURES[key], key).toBeDefined();
    expect(figureName('macro_f1')).toBe('Macro F1');
    expect(figureName('log_loss')).toBe('Log loss');
  });
});

describe('a variant difference in words', () => {
  it('marks a lower Brier score better and a higher ECE worse', () => {
    const brier = readDifference('brier', fig(-0.05, -0.08, -0.02));
    expect(brier).toEqual({
      text: '−0.05 (95% CI −0.08 to −0.02)',
      verdict: 'better',
      clear: true,
      mark: 'B better',
    });
    const ece = readDifference('ece', fig(0.04, -0.01, 0.09));
    expect(ece.verdict).toBe('worse');
    expect(ece.clear).toBe(false);
    expect(ece.mark).toBe('B worse, within the noise (the interval includes 0)');
  });

  it('writes a share in percentage points, without repeating the figure name', () => {
    expect(readDifference('accuracy', fig(0.05, 0.01, 0.09)).text).toBe(
      '+5 percentage points (95% CI +1 to +9)',
    );
    expect(readDifference('kappa', fig(0, -0.02, 0.02)).mark).toBe('no change');
    expect(readDifference('kappa', fig(null)).verdict).toBe('undefined');
  });

  it('names the band once: the scale line says it, the sentence does not (kappa read "moderate" twice)', () => {
    for (const key of ['kappa', 'qwk', 'spearman', 'auroc']) {
      const reading = readFigure(key, fig(0.52), choice)!;
      expect(reading.scale, key).not.toBeNull();
      expect(reading.sentence, key).not.toContain(reading.scale!.words);
    }
  });

  it('never prints a negative zero, and prints the digits that agree with the mark (−0.00 to +0.06 read "within the noise")', () => {
    // "95% CI −0 to +5" was a share whose lower end rounded to 0 points; "−0.00" a number's.
    const share = readDifference('accuracy', fig(0.02, -0.003, 0.05));
    expect(share.text).toBe('+2 percentage points (95% CI −0.3 to +5.0)');
    expect(share.mark).toBe('B better, within the noise (the interval includes 0)');
    const within = readDifference('kappa', fig(0.03, -0.004, 0.06));
    expect(within.text).toBe('+0.03 (95% CI −0.004 to +0.060)');
    expect(within.clear).toBe(false);
    // "+0.00 to +0.05" was marked "B better": its lower end is above 0, and now shows it.
    const better = readDifference('kappa', fig(0.025, 0.0004, 0.05));
    expect(better.text).toBe('+0.03 (95% CI +0.0004 to +0.0500)');
    expect(better.mark).toBe('B better');
    // The mark is decided on the unrounded value: a change of 0.001 is not "no change".
    expect(readDifference('kappa', fig(0.001, -0.02, 0.03)).mark).toBe(
      'B better, within the noise (the interval includes 0)',
    );
    expect(readDifference('kappa', fig(0, -0.02, 0.02)).text).toBe('0.00 (95% CI −0.02 to +0.02)');
    for (const [lo, hi] of [
      [-0.0001, 0.05],
      [-1e-9, 0.2],
      [-0.004, -0.0001],
    ] as const)
      for (const end of intervalText(lo, hi, 2).split(' to '))
        expect(end.startsWith('−') && Number(end.slice(1)) === 0, end).toBe(false);
    expect(intervalText(-0.001, 0.69, 2, false)).toBe('0.00 to 0.69');
    expect(plainText(-0.004, 2)).toBe('0.00');
    expect(plainText(-0.04, 2)).toBe('-0.04');
  });

  it('writes p values without "= <"', () => {
    expect(pValueText(0.0004)).toBe('p < 0.001');
    expect(pValueText(0.0421)).toBe('p = 0.042');
  });
});
