// A certified threshold applied to a file run: rows at or above it are settled by the judge, the rest (and rows it did
// not answer) queue for people; with no certified threshold every row queues.
import { describe, expect, it } from 'vitest';
import type { Question } from '../../../../src/contract';
import { splitByThreshold } from '../../../../src/core/alignment/labellingQueue';
import type { ResultRow } from '../../../../src/core/rows/results';

const urgent: Question = { type: 'noul', instructions: 'Is it urgent?' };
const row = (number: number, noul: number | null): ResultRow => ({
  number,
  line: number + 1,
  id: `r${number}`,
  data: { text: `ticket ${number}` },
  ...(noul === null
    ? {}
    : {
        response: {
          model: 'm',
          answers: { urgent: { type: 'noul', noul, confidence: Math.abs(2 * noul - 1) } },
          usage: { input_tokens: 10 },
        },
      }),
});

describe('splitByThreshold', () => {
  const rows = [row(1, 0.97), row(2, 0.55), row(3, 0.04), row(4, null), row(5, 0.9)];

  it('settles rows whose top probability reaches the threshold and queues the rest', () => {
    const { settled, queue } = splitByThreshold(rows, 'urgent', urgent, 0.9);
    expect(settled.map((r) => r.id)).toEqual(['r1', 'r3', 'r5']);
    expect(queue.map((r) => r.id)).toEqual(['r2', 'r4']);
  });

  it('queues every row when no threshold is certified', () => {
    expect(splitByThreshold(rows, 'urgent', urgent, null).queue).toHaveLength(5);
  });
});
