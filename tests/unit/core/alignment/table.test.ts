// The column table the figures read and the worker receives: labels as class indexes (with marks for none and for a
// label the question cannot take), answers renormalised as distributionOf does, and ids that survive packing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Questions } from '../../../../src/contract';
import { distributionOf } from '../../../../src/core/labels/prediction';
import {
  AlignTableWriter,
  INVALID_LABEL,
  NO_LABEL,
  RowIds,
  alignTableOf,
  answeredAt,
  packTable,
  unpackTable,
} from '../../../../src/core/alignment/table';

const QUESTIONS: Questions = {
  team: { type: 'choice', criteria: { billing: null, tech: null } },
  level: { type: 'score', criteria: ['low', 'mid', 'high'] },
  urgent: { type: 'noul' },
};

describe('alignTableOf', () => {
  const choice = {
    type: 'choice',
    choice: 'tech',
    confidence: 0.5,
    probabilities: { billing: 0.3, tech: 0.9 },
  } as const;
  const table = alignTableOf(QUESTIONS, [
    {
      id: 'a',
      labels: { team: 'tech', level: 2, urgent: true },
      answers: { team: choice, urgent: { type: 'noul', noul: 1.2 } },
    },
    { id: 'b', labels: { team: 'sales', level: 7 } },
    { id: 'c', labels: {}, answers: {} },
  ]);

  it('reads labels as class indexes, marking none and labels the question cannot take', () => {
    expect([...table.columns['team']!.label]).toEqual([1, INVALID_LABEL, NO_LABEL]);
    expect([...table.columns['level']!.label]).toEqual([2, INVALID_LABEL, NO_LABEL]);
    expect([...table.columns['urgent']!.label]).toEqual([1, NO_LABEL, NO_LABEL]);
  });

  it('holds answers renormalised exactly as distributionOf reads them, and P(yes) clamped', () => {
    const expected = distributionOf(choice, QUESTIONS['team']!)!;
    expect([...table.columns['team']!.p.subarray(0, 2)]).toEqual([...expected]);
    expect(table.columns['urgent']!.p[0]).toBe(1);
    expect(answeredAt(table.columns['team']!, 1)).toBe(false);
    expect(answeredAt(table.columns['level']!, 0)).toBe(false);
    expect(table.answered).toBe(1);
  });
});

describe('AlignTableWriter', () => {
  it('gives, for fewer rows than it was sized for, the table alignTableOf makes of those rows', () => {
    const rows = [
      { id: 'a', labels: { team: 'tech', level: 1 }, answers: { urgent: { type: 'noul', noul: 0.25 } } },
      { id: 'b', labels: { urgent: false } },
      { id: 'c', labels: { team: 'billing' }, answers: {} },
    ] as const;
    const writer = new AlignTableWriter(QUESTIONS, 10);
    for (const row of rows) writer.add(row);
    const written = writer.table();
    const whole = alignTableOf(QUESTIONS, rows);
    expect(written.ids.toArray()).toEqual(['a', 'b', 'c']);
    expect(written.answered).toBe(whole.answered);
    for (const name of Object.keys(QUESTIONS)) {
      const [a, b] = [written.columns[name]!, whole.columns[name]!];
      expect([a.width, [...a.label], [...a.p]]).toEqual([b.width, [...b.label], [...b.p]]);
    }
  });
});

describe('RowIds', () => {
  it('holds ids written past a chunk of 4,096, and finds each by position and by id', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => (i % 7 === 0 ? `é-${i}` : `row-${i}`));
    const writer = new AlignTableWriter(QUESTIONS, ids.length);
    for (const id of ids) writer.add({ id, labels: {} });
    const written = writer.table().ids;
    expect(written.length).toBe(10_000);
    expect([written.at(0), written.at(4095), written.at(4096), written.at(9999)]).toEqual([
      'é-0',
      'é-4095',
      'row-4096',
      'row-9999',
    ]);
    expect(written.toArray()).toEqual(ids);
    expect(written.positions().get('é-4095')).toBe(4095);
    expect(written.positions().get('row-4095')).toBeUndefined();
    expect(written.positions().get('row-4097')).toBe(4097);
  });

  it('keeps the first position of an id that repeats', () => {
    const ids = RowIds.of(['a', 'b', 'a', '']);
    expect(ids.positions()).toEqual(
      new Map([
        ['a', 0],
        ['b', 1],
        ['', 3],
      ]),
    );
    expect(ids.at(3)).toBe('');
  });
});

describe('packTable', () => {
  it('gives back every id, whatever characters it holds', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 40 }), (ids) => {
        const table = alignTableOf(
          QUESTIONS,
          ids.map((id) => ({ id, labels: {} })),
        );
        expect(unpackTable(structuredClone(packTable(table))).ids.toArray()).toEqual(ids);
      }),
    );
  });
});
