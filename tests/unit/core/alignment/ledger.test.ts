// The variant ledger counts distinct variants per labelled set and purpose, survives its own schema, and the seal is
// drawn within each label, reproducibly, once.
import { describe, expect, it } from 'vitest';
import {
  EMPTY_LEDGER,
  VariantLedgerSchema,
  drawSeal,
  recordVariant,
  sealSet,
  splitBySeal,
  variantsTried,
} from '../../../../src/core/alignment/ledger';
import type { LedgerEntry } from '../../../../src/core/alignment/ledger';

const entry = (
  runId: string,
  variantKey: string,
  purpose: LedgerEntry['purpose'] = 'explore',
): LedgerEntry => ({
  runId,
  at: '2026-11-28T10:00:00Z',
  setKey: 'set-1',
  rows: 300,
  questions: ['sentiment'],
  variantKey,
  purpose,
});

describe('the ledger', () => {
  it('counts distinct variants, a run once, exploring apart from confirming', () => {
    let l = EMPTY_LEDGER;
    l = recordVariant(l, entry('r1', 'v1'));
    l = recordVariant(l, entry('r1', 'v1'));
    l = recordVariant(l, entry('r2', 'v1'));
    l = recordVariant(l, entry('r3', 'v2'));
    l = recordVariant(l, entry('r4', 'v2', 'confirm'));
    expect(l.entries).toHaveLength(4);
    expect(variantsTried(l, 'set-1', 'explore')).toBe(2);
    expect(variantsTried(l, 'set-1', 'confirm')).toBe(1);
    expect(variantsTried(l, 'set-2', 'explore')).toBe(0);
    expect(VariantLedgerSchema.parse(JSON.parse(JSON.stringify(l)))).toEqual(l);
  });

  it('refuses an entry without a run id when parsed', () => {
    expect(VariantLedgerSchema.safeParse({ entries: [{ ...entry('r', 'v'), runId: '' }] }).success).toBe(
      false,
    );
  });
});

describe('the seal', () => {
  const rows = [
    ...Array.from({ length: 80 }, (_, i) => ({ id: `y${i}`, label: 'yes' })),
    ...Array.from({ length: 20 }, (_, i) => ({ id: `n${i}`, label: 'no' })),
  ];

  it('takes the share within each label, the same rows for the same seed', () => {
    const sealed = drawSeal(rows, 0.25, 7);
    expect(sealed.filter((id) => id.startsWith('y'))).toHaveLength(20);
    expect(sealed.filter((id) => id.startsWith('n'))).toHaveLength(5);
    expect(drawSeal([...rows].reverse(), 0.25, 7)).toEqual(sealed);
    expect(drawSeal(rows, 0.25, 8)).not.toEqual(sealed);
  });

  it('is drawn once per labelled set, and splits rows into open and sealed', () => {
    const l = sealSet(EMPTY_LEDGER, 'set-1', rows, 0.2, 1, '2026-11-28T10:00:00Z');
    expect(() => sealSet(l, 'set-1', rows, 0.2, 2, '2026-11-28T10:00:00Z')).toThrow(/already sealed/);
    const { open, sealed } = splitBySeal(rows, l.seals[0]);
    expect(sealed).toHaveLength(20);
    expect(open).toHaveLength(80);
    expect(open.some((r) => l.seals[0]!.ids.includes(r.id))).toBe(false);
  });
});
