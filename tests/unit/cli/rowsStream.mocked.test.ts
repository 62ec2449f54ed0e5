// The rows file read as a stream holds a few chunks whatever the reader's pace: a run waiting on the network must not
// have the rest of the file read into memory meanwhile (PapaParse's own pause left the file stream flowing).
import type * as Fs from 'node:fs';
import type { ReadStream } from 'node:fs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openRowsSource, rowBatches } from '../../../src/cli/rowsStream';

const opened = vi.hoisted(() => [] as ReadStream[]);
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof Fs>();
  return {
    ...fs,
    createReadStream: (...args: Parameters<typeof fs.createReadStream>) => {
      const stream = fs.createReadStream(...args);
      opened.push(stream);
      return stream;
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'ew-rows-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 100_000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('a CSV rows file read by a slow reader', () => {
  it('is read a few chunks ahead of the reader, never to its end, and still gives every row', async () => {
    const file = join(dir, 'rows.csv');
    const lines = ['id,text'];
    for (let i = 0; i < ROWS; i++)
      lines.push(`${i},"ticket number ${i}, about a refund of an order placed last week"`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    // Bytes of the file up to the end of each row: how far a reader that has taken so many rows has got.
    const endOf = new Float64Array(lines.length);
    lines.reduce((end, line, i) => (endOf[i] = end + line.length + 1), 0);
    const source = openRowsSource(file);
    const batches = rowBatches(source);
    const first = await batches.next();
    if (first.done) throw new Error('the file gave no batch');
    let rows = first.value.rows.length;
    // The reader is busy elsewhere (a window of rows on the network): the file must not be read on meanwhile.
    await sleep(300);
    const stream = opened.at(-1)!;
    expect(source.bytes).toBeGreaterThan(6_000_000);
    expect(stream.bytesRead).toBeLessThan(2_000_000);
    for (;;) {
      const next = await batches.next();
      if (next.done) break;
      rows += next.value.rows.length;
      expect(stream.bytesRead - endOf[rows]!).toBeLessThan(2_000_000);
      await sleep(1);
    }
    expect(rows).toBe(ROWS);
  });
});
