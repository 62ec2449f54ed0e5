// A family of variants on real alignment rows: the difference of each variant from the base equals the pairwise
// comparison's, the rows are those every run answered with the base's label, and the adjusted interval is wider than
// the pair's own by the family's critical value.
import { describe, expect, it } from 'vitest';
import type { Answer, Questions } from '../../../../src/contract';
import { seededRandom } from '../../../../src/contract/random';
import { variantFamily } from '../../../../src/core/alignment/variantFamily';
import { compareVariants } from '../../../../src/core/alignment/variants';
import type { AlignRow } from '../../../../src/core/alignment/types';

const Q: Questions = { urgent: { type: 'noul' } };

/** 300 labelled rows; a run right `accuracy` of the time, with a confident P(yes). */
function run(seed: number, accuracy: number, truths: boolean[]): AlignRow[] {
  const random = seededRandom(seed);
  return truths.map((t, i) => {
    const right = random() < accuracy;
    const yes = right === t ? 0.9 : 0.1;
    const answer: Answer = { type: 'noul', noul: yes };
    return { id: `r${i}`, answers: { urgent: answer }, labels: { urgent: t } };
  });
}

describe('variantFamily', () => {
  const random = seededRandom(3);
  const truths = Array.from({ length: 300 }, () => random() < 0.4);
  const base = { name: 'base', questions: Q, rows: run(1, 0.8, truths) };
  const variants = Array.from({ length: 12 }, (_, k) => ({
    name: `v${k + 1}`,
    questions: Q,
    rows: run(10 + k, 0.8, truths),
  }));

  it('gives each variant the pairwise difference, adjusted for the twelve tried', () => {
    const f = variantFamily(base, variants, 'urgent', 'accuracy')!;
    expect(f.rows).toBe(300);
    expect(f.tried).toBe(12);
    expect(f.variants).toEqual(variants.map((v) => v.name));
    const pair = compareVariants(Q, base.rows, Q, variants[4]!.rows, { bootstrap: { B: null, seed: 1 } });
    const acc = pair.questions[0]!.differences.find((d) => d.key === 'accuracy')!;
    expect(f.intervals[4]!.estimate).toBeCloseTo(acc.difference.value!, 12);
    expect(f.critical).toBeGreaterThan(2.3);
    const i = f.intervals[4]!;
    expect(i.adjustedHi - i.adjustedLo).toBeGreaterThan(i.hi - i.lo);
    expect(f.sentence).toMatch(/^The best of 12 variants gains/);
  });

  it('keeps only the rows every run answered with the base’s label', () => {
    const missing = variants.map((v, k) => ({ ...v, rows: k === 0 ? v.rows.slice(10) : v.rows }));
    expect(variantFamily(base, missing, 'urgent', 'accuracy')!.rows).toBe(290);
  });

  it('is null when a variant asks the question with another type', () => {
    const other = {
      name: 'x',
      questions: { urgent: { type: 'choice', criteria: { a: null, b: null } } } as Questions,
      rows: [],
    };
    expect(variantFamily(base, [other], 'urgent', 'accuracy')).toBeNull();
  });
});
