// The worker's file reader on a real File: JSON Lines decoded as a stream (multi-byte characters split across chunks
// included), a JSON array read whole; the same rows and issues as the text parsers, with progress to the end.
import { describe, expect, it } from 'vitest';
import { parseJsonArrayText, parseJsonlText } from '../../../../src/core/rows/parse';
import { readRows } from '../../../../src/app/workers/readRows';
import type { ParseProgress } from '../../../../src/app/workers/rowsParserProtocol';

describe('readRows', () => {
  it('streams JSON Lines from a File and finds the same rows and issues as the text parser', async () => {
    // Long enough to come in several chunks, with characters of 2 to 4 bytes.
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i === 1500 ? '{"broken": ' : i === 10 ? '' : JSON.stringify({ id: i, text: `héllo wörld ✓ 🎉 ${i}` }),
    );
    const text = `\ufeff${lines.join('\n')}\n`;
    const progress: ParseProgress[] = [];
    const { session, summary } = await readRows(
      new File([text], 'rows.jsonl'),
      { format: 'auto', header: true, literalQuotes: false },
      (p) => progress.push(p),
    );
    const expected = parseJsonlText(text);
    expect(summary.format).toBe('jsonl');
    expect(summary.rows).toBe(expected.rows.length);
    expect(summary.parseIssues).toEqual(expected.issues);
    expect(summary.parseIssues.map((i) => [i.line, i.kind])).toEqual([
      [11, 'empty'],
      [1501, 'malformed'],
    ]);
    expect(session.rowCount).toBe(2998);
    expect(summary.preview[0]!.data).toEqual({ id: 0, text: 'héllo wörld ✓ 🎉 0' });
    expect(progress.at(-1)).toEqual({
      bytes: new Blob([text]).size,
      total: new Blob([text]).size,
      rows: 2998,
    });
  });

  it('reads a JSON array from a File', async () => {
    const text = JSON.stringify([{ id: 1, text: 'a' }, {}, { id: 3, text: 'c' }], null, 2);
    const { summary } = await readRows(
      new File([text], 'rows.json'),
      { format: 'auto', header: true, literalQuotes: false },
      () => {},
    );
    expect(summary.format).toBe('json');
    expect(summary.rows).toBe(2);
    expect(summary.parseIssues).toEqual(parseJsonArrayText(text).issues);
    expect(summary.suggested).toEqual({ mode: 'text', column: 'text', idColumn: 'id' });
  });

  it('honours a format chosen by the user over the guess', async () => {
    const { summary } = await readRows(
      new File(['"a"\n"b"\n'], 'rows.txt'),
      { format: 'jsonl', header: true, literalQuotes: false },
      () => {},
    );
    expect(summary.format).toBe('jsonl');
    expect(summary.objectRows).toBe(false);
    expect(summary.suggested).toEqual({ mode: 'fields', idColumn: null });
  });
});
