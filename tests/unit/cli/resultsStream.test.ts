// Reading a results file as a stream: lines counted as bytes (a last line without its newline counts), and an index
// sized by that count that still takes record numbers past it (a run resumed over part of its rows).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countLines, indexRows, labelTableOf, linesOf } from '../../../src/cli/resultsStream';
import type { ResultsHeader } from '../../../src/core/rows/resultsFile';
import { headerLine, resultLine } from '../../../src/core/rows/resultsFile';

const dir = mkdtempSync(join(tmpdir(), 'ew-results-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const header: ResultsHeader = {
  format: 'evaluate-workbench/results',
  version: 1,
  createdAt: '2026-11-27T00:00:00.000Z',
  rowsFile: 'tickets.csv',
  columns: ['id', 'message', 'human'],
  targetId: 'local',
  model: 'model-1.13.0',
  questions: { urgent: { type: 'noul', instructions: 'Urgent?' } },
  mapping: { mode: 'text', column: 'message', idColumn: 'id' },
  labels: { urgent: 'human' },
};

const line = (n: number, p: number): string =>
  resultLine({
    number: n,
    line: n + 1,
    id: `t-${n}`,
    data: { id: `t-${n}`, message: `m ${n}`, human: n % 2 ? 'yes' : 'no' },
    outcome: { status: 'done', at: 1, attempts: 1, possiblyBilledAttempts: 0, requeues: 0 },
    response: {
      model: 'model-1.13.0',
      answers: { urgent: { type: 'noul', noul: p } },
      usage: { input_tokens: 5, output_tokens: 0 },
    },
  });

describe('countLines', () => {
  it('counts newlines, and a last line without one', () => {
    expect(countLines(write('empty.txt', ''))).toBe(0);
    expect(countLines(write('one.txt', 'a\n'))).toBe(1);
    expect(countLines(write('cut.txt', 'a\nb'))).toBe(2);
    expect(countLines(write('blank.txt', '\n\n\n'))).toBe(3);
    // Past the megabyte read at a time: 300,000 lines of 7 bytes.
    expect(countLines(write('big.txt', 'abcdef\n'.repeat(300_000)))).toBe(300_000);
  });
});

describe('indexRows', () => {
  it('sizes the index by the lines and still takes record numbers past them, newest line first', () => {
    const file = write(
      'resumed.jsonl',
      `${[headerLine(header), line(3, 0.2), line(5000, 0.9), line(3, 0.7)].join('\n')}\n`,
    );
    const index = indexRows(file);
    expect(index.maxRow).toBe(5000);
    expect(index.rows).toBe(2);
    const labelled = labelTableOf(linesOf(index))!;
    expect(labelled.table.ids.toArray()).toEqual(['t-3', 't-5000']);
    expect([...labelled.table.columns.urgent!.p]).toEqual([0.7, 0.9]);
  });
});
