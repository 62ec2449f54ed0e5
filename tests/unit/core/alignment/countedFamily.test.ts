// A family counted with the ledger: the headline figure per question type, deleted variants widening the adjustment
// by Šidák's critical value for the whole count, and the ledger keys that name a labelled set and a variant.
import { describe, expect, it } from 'vitest';
import type { Answer, Questions } from '../../../../src/contract';
import { seededRandom } from '../../../../src/contract/random';
import {
  countFamily,
  countedFamilies,
  headlineFigure,
  sidakCritical,
} from '../../../../src/core/alignment/countedFamily';
import { EMPTY_LEDGER, recordVariant } from '../../../../src/core/alignment/ledger';
import {
  familyCount,
  labelledSetKey,
  ledgerEntryOf,
  sealStrata,
  variantKeyOf,
} from '../../../../src/core/alignment/ledgerKeys';
import type { LedgerRun } from '../../../../src/core/alignment/ledgerKeys';
import { variantFamily } from '../../../../src/core/alignment/variantFamily';
import type { AlignRow } from '../../../../src/core/alignment/types';

const Q: Questions = { urgent: { type: 'noul' } };

function rowsOf(seed: number, accuracy: number, truths: boolean[]): AlignRow[] {
  const random = seededRandom(seed);
  return truths.map((t, i) => {
    const right = random() < accuracy;
    const answer: Answer = { type: 'noul', noul: right === t ? 0.9 : 0.1 };
    return { id: `r${i}`, answers: { urgent: answer }, labels: { urgent: t } };
  });
}

const random = seededRandom(5);
const truths = Array.from({ length: 200 }, () => random() < 0.4);
const base = { name: 'base', questions: Q, rows: rowsOf(1, 0.8, truths) };
const variants = [2, 3, 4].map((s) => ({ name: `v${s}`, questions: Q, rows: rowsOf(s, 0.8, truths) }));

describe('headlineFigure', () => {
  it('judges a choice on kappa, a score on quadratic weighted kappa and yes/no on accuracy', () => {
    expect(headlineFigure({ type: 'choice', criteria: { a: null, b: null } })).toBe('kappa');
    expect(headlineFigure({ type: 'score', criteria: ['0', '1', '2'] })).toBe('qwk');
    expect(headlineFigure({ type: 'noul' })).toBe('accuracy');
  });
});

describe('countFamily', () => {
  const family = variantFamily(base, variants, 'urgent', 'accuracy', { draws: 2000 })!;

  it('leaves a family alone when every variant counted is present', () => {
    expect(countFamily(family, 3)).toBe(family);
  });

  it('widens every interval to Šidák’s critical value when the ledger counts deleted variants', () => {
    const counted = countFamily(family, 14);
    expect(counted.tried).toBe(14);
    expect(counted.critical).toBeCloseTo(sidakCritical(14), 12);
    expect(counted.critical).toBeGreaterThan(family.critical);
    const i = counted.intervals[0]!;
    expect(i.adjustedHi - i.adjustedLo).toBeCloseTo(2 * sidakCritical(14) * i.se, 12);
    expect(counted.sentence).toMatch(/^The best of 14 variants gains/);
    expect(counted.method).toMatch(/11 of them no longer stored/);
    expect(counted.luck).toBeGreaterThanOrEqual(family.luck);
  });

  it('gives 1.96 for one variant and more for more', () => {
    expect(sidakCritical(1)).toBeCloseTo(1.96, 2);
    expect(sidakCritical(20)).toBeCloseTo(3.016, 3);
  });
});

describe('countedFamilies', () => {
  it('computes each question on its headline figure, counted for the ledger’s variants', () => {
    const out = countedFamilies(base, variants, 5, { draws: 2000 });
    expect(out.map((f) => [f.question, f.figure, f.family.tried])).toEqual([['urgent', 'accuracy', 5]]);
    expect(countedFamilies(base, [], 5)).toEqual([]);
  });
});

describe('the ledger keys', () => {
  const first: LedgerRun = {
    id: 'run-1',
    questions: Q,
    model: 'm',
    targetId: 't',
    rowCount: 200,
    labels: [{ column: 'human', question: 'urgent' }],
  };
  const variant: LedgerRun = { ...first, id: 'run-2', variantOf: 'run-1', model: 'm2' };

  it('names one labelled set for the first run and its variants, and another for other label columns', () => {
    expect(labelledSetKey(variant)).toBe(labelledSetKey(first));
    expect(labelledSetKey({ ...first, labels: [{ column: 'other', question: 'urgent' }] })).not.toBe(
      labelledSetKey(first),
    );
  });

  it('names a variant by its questions, model and target, not its run', () => {
    expect(variantKeyOf({ ...first })).toBe(variantKeyOf({ ...first, id: 'again' } as LedgerRun));
    expect(variantKeyOf(variant)).not.toBe(variantKeyOf(first));
    expect(variantKeyOf({ ...first, targetId: 'u' })).not.toBe(variantKeyOf(first));
  });

  it('counts the ledger’s variants of a set, deleted runs included, never the base', () => {
    const key = labelledSetKey(first);
    const at = '2026-01-01T00:00:00Z';
    let ledger = recordVariant(EMPTY_LEDGER, ledgerEntryOf(first, 'explore', at));
    for (const model of ['a', 'b', 'c'])
      ledger = recordVariant(ledger, ledgerEntryOf({ ...variant, id: model, model }, 'explore', at));
    const present = [variantKeyOf({ ...variant, model: 'a' })];
    expect(familyCount(ledger, key, variantKeyOf(first), present)).toEqual({
      tried: 3,
      present: 1,
      deleted: 2,
    });
    expect(familyCount(ledger, key, variantKeyOf(first), present, 'confirm')).toEqual({
      tried: 1,
      present: 1,
      deleted: 0,
    });
    expect(familyCount(undefined, key, variantKeyOf(first), [])).toEqual({
      tried: 0,
      present: 0,
      deleted: 0,
    });
  });

  it('draws seal strata from the first question each row is labelled on, leaving unlabelled rows out', () => {
    const strata = sealStrata(
      [
        { id: '1', labels: { a: 'x' } },
        { id: '2', labels: { b: true } },
        { id: '3', labels: {} },
      ],
      ['a', 'b'],
    );
    expect(strata).toEqual([
      { id: '1', label: 'a="x"' },
      { id: '2', label: 'b=true' },
    ]);
  });
});
