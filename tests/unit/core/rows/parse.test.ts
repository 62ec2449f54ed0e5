import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import {
  CsvRowParser,
  JsonlRowParser,
  PAPA_CONFIG,
  detectFormat,
  guessDelimiter,
  headerNames,
  parseCsvText,
  parseJsonArrayText,
  parseJsonlText,
} from '../../../../src/core/rows/parse';

const lines = (batch: { rows: { line: number }[] }) => batch.rows.map((r) => r.line);

describe('CSV', () => {
  it('keys rows by the header and numbers each row by the line it starts on', () => {
    const out = parseCsvText('id,text\n1,hello\n2,world\n');
    expect(out.rows).toEqual([
      { number: 1, line: 2, data: { id: '1', text: 'hello' } },
      { number: 2, line: 3, data: { id: '2', text: 'world' } },
    ]);
    expect(out.issues).toEqual([]);
    expect(out.summary).toMatchObject({
      format: 'csv',
      columns: ['id', 'text'],
      records: 2,
      rows: 2,
      issues: 0,
    });
  });

  it('reads quoted fields with commas, doubled quotes and newlines, and keeps counting lines after them', () => {
    const text = 'id,text\n1,"a, b"\n2,"she said ""hi""\nand left\non foot"\n3,plain\n';
    const out = parseCsvText(text);
    expect(out.rows.map((r) => r.data)).toEqual([
      { id: '1', text: 'a, b' },
      { id: '2', text: 'she said "hi"\nand left\non foot' },
      { id: '3', text: 'plain' },
    ]);
    expect(lines(out)).toEqual([2, 3, 6]);
  });

  it('counts CRLF line endings as one line each, inside and outside quotes', () => {
    const out = parseCsvText('id,text\r\n1,"two\r\nlines"\r\n2,x\r\n');
    expect(lines(out)).toEqual([2, 4]);
    expect(out.rows[0]!.data).toEqual({ id: '1', text: 'two\r\nlines' });
  });

  it('strips a UTF-8 byte order mark from the first column name', () => {
    const out = parseCsvText('\ufeffid,text\n1,x\n');
    expect(out.summary.columns).toEqual(['id', 'text']);
    expect(out.rows[0]!.data).toEqual({ id: '1', text: 'x' });
  });

  it('strips the BOM also on the record path the worker uses (PapaParse leaves it on File input)', () => {
    const parser = new CsvRowParser();
    parser.record({ data: ['\ufeffid', 'text'], errors: [] });
    parser.record({ data: ['7', 'y'], errors: [] });
    expect(parser.finish().columns).toEqual(['id', 'text']);
    expect(parser.take().rows[0]!.data).toEqual({ id: '7', text: 'y' });
  });

  it('lists empty rows in the middle with their line, and ignores blank lines at the end', () => {
    const out = parseCsvText('id,text\n1,a\n\n,\n2,b\n\n\n');
    expect(lines(out)).toEqual([2, 5]);
    expect(out.issues).toEqual([
      { line: 3, number: 2, kind: 'empty', severity: 'skip', reason: expect.stringMatching(/empty/i) },
      { line: 4, number: 3, kind: 'empty', severity: 'skip', reason: expect.stringMatching(/empty/i) },
    ]);
    expect(out.summary.records).toBe(4);
  });

  it('lists a row with the wrong number of fields as malformed, with its line', () => {
    const out = parseCsvText('id,text\n1,a\n2,b,extra\n3\n4,d\n');
    expect(lines(out)).toEqual([2, 5]);
    expect(out.issues.map((i) => [i.line, i.kind])).toEqual([
      [3, 'malformed'],
      [4, 'malformed'],
    ]);
    expect(out.issues[0]!.reason).toMatch(/3 fields, but the header has 2/);
    expect(out.issues[1]!.reason).toMatch(/1 field, but the header has 2/);
  });

  it('reports an unclosed quote at the line where its row starts, and lists the line it swallowed', () => {
    const out = parseCsvText('id,text\n1,ok\n2,"never closed\n3,lost\n');
    expect(lines(out)).toEqual([2]);
    expect(out.issues.map((i) => [i.line, i.kind])).toEqual([
      [3, 'malformed'],
      [4, 'malformed'],
    ]);
    expect(out.issues[0]!.reason).toMatch(
      /^Lines 3-4 were read as one field because of the quote opened on line 3/,
    );
    expect(out.summary.quoteSpans).toEqual([{ from: 3, to: 4 }]);
  });

  // The file a new user tried: a stray quote on line 12 of 41, closed by chance by a quote on line 18.
  const strayQuoteFile = (closedAt: number | null): string => {
    const out = ['id,text,channel'];
    for (let line = 2; line <= 41; line++) {
      if (line === 12) out.push('s-x,"The refund never came,email');
      else if (line === closedAt) out.push(`s-${line},"Second message on this ticket",chat`);
      else out.push(`s-${line},Message number ${line},email`);
    }
    return `${out.join('\n')}\n`;
  };

  it('says which lines a stray quote read as one field, lists every one of them, and counts none as read', () => {
    const out = parseCsvText(strayQuoteFile(18));
    const swallowed = [12, 13, 14, 15, 16, 17, 18];
    expect(lines(out).filter((l) => swallowed.includes(l))).toEqual([]);
    expect(out.issues.map((i) => i.line)).toEqual(swallowed);
    expect(out.issues[0]!.reason).toBe(
      'Lines 12-18 were read as one field because of the quote opened on line 12; lines 13-18 did not become rows. Read the file with quotes taken literally to give each line its own row.',
    );
    expect(out.issues[1]!.reason).toBe(
      'Not read as a row: it was taken into the field opened by the quote on line 12.',
    );
    expect(out.summary.quoteSpans).toEqual([{ from: 12, to: 18 }]);
    // Every one of the 40 data lines is either a row or listed.
    expect(out.rows.length + out.issues.length).toBe(40);
  });

  it('lists every line to the end when the stray quote is never closed', () => {
    const out = parseCsvText(strayQuoteFile(null));
    expect(lines(out)).toEqual(Array.from({ length: 10 }, (_, i) => i + 2));
    expect(out.issues.map((i) => i.line)).toEqual(Array.from({ length: 30 }, (_, i) => i + 12));
    expect(out.summary.quoteSpans).toEqual([{ from: 12, to: 41 }]);
  });

  it('reads quotes literally on request: each line is its own row, quotes kept as text', () => {
    const out = parseCsvText(strayQuoteFile(18), { literalQuotes: true });
    expect(lines(out)).toEqual(Array.from({ length: 40 }, (_, i) => i + 2));
    expect(out.issues).toEqual([]);
    expect(out.rows[10]!.data).toEqual({ id: 's-x', text: '"The refund never came', channel: 'email' });
    expect(out.summary.quoteSpans).toEqual([]);
  });

  it('detects other delimiters (tab, semicolon)', () => {
    expect(parseCsvText('id\ttext\n1\thi\n').rows[0]!.data).toEqual({ id: '1', text: 'hi' });
    expect(parseCsvText('id;text\n1;hi\n').rows[0]!.data).toEqual({ id: '1', text: 'hi' });
  });

  it('reads a single-column file and names blank and duplicate headers', () => {
    expect(parseCsvText('text\nhello\nworld\n').rows.map((r) => r.data)).toEqual([
      { text: 'hello' },
      { text: 'world' },
    ]);
    expect(headerNames(['a', '', 'a', ' b '])).toEqual(['a', 'column_2', 'a_2', 'b']);
  });

  it('numbers columns itself when the file has no header', () => {
    const out = parseCsvText('1,a\n2,b\n', { header: false });
    expect(out.rows.map((r) => [r.line, r.data])).toEqual([
      [1, { column_1: '1', column_2: 'a' }],
      [2, { column_1: '2', column_2: 'b' }],
    ]);
  });

  it('says so when the file is empty', () => {
    const out = parseCsvText('');
    expect(out.rows).toEqual([]);
    expect(out.issues[0]!.reason).toMatch(/empty/);
  });

  it('gives the same lines when PapaParse is fed in chunks (as the worker streams a File)', () => {
    const rows = Array.from(
      { length: 500 },
      (_, i) => `${i},"text ${i}${i % 7 === 0 ? '\nsecond line' : ''}"`,
    );
    const text = `id,text\n${rows.join('\n')}\n`;
    const whole = parseCsvText(text);
    const parser = new CsvRowParser();
    // A small chunk size makes PapaParse split records across chunks, as it does with a large file.
    Papa.parse<string[]>(text, {
      ...PAPA_CONFIG,
      delimiter: guessDelimiter(text),
      chunkSize: 97,
      step: (r) => parser.record({ data: r.data, errors: r.errors }),
    } as Papa.ParseConfig<string[]>);
    parser.finish();
    const streamed = parser.take();
    expect(streamed.rows).toEqual(whole.rows);
    expect(whole.rows).toHaveLength(500);
    expect(whole.rows[8]!.line).toBe(12); // header on line 1; rows 0 and 7 each span two lines
  });
});

describe('JSON Lines', () => {
  it('reads one value per line and lists malformed lines with their number and reason', () => {
    const out = parseJsonlText('{"id":1,"text":"a"}\n{"id":2,"text":\n{"id":3,"text":"c"}\nnot json\n');
    expect(lines(out)).toEqual([1, 3]);
    expect(out.issues.map((i) => [i.line, i.kind])).toEqual([
      [2, 'malformed'],
      [4, 'malformed'],
    ]);
    expect(out.issues[1]!.reason).toMatch(/Not valid JSON.*not json/);
  });

  it('strips a BOM, accepts CRLF, lists blank lines in the middle and ignores trailing ones', () => {
    const out = parseJsonlText('\ufeff"first"\r\n\r\n"third"\r\n\r\n');
    expect(out.rows.map((r) => [r.line, r.data])).toEqual([
      [1, 'first'],
      [3, 'third'],
    ]);
    expect(out.issues).toEqual([expect.objectContaining({ line: 2, kind: 'empty' })]);
  });

  it('lists empty values ({} and null) as empty rows', () => {
    const out = parseJsonlText('{}\nnull\n{"a":""}\n{"a":"x"}');
    expect(out.issues.map((i) => [i.line, i.kind])).toEqual([
      [1, 'empty'],
      [2, 'empty'],
      [3, 'empty'],
    ]);
    expect(out.rows).toEqual([{ number: 4, line: 4, data: { a: 'x' } }]);
  });

  it('gives the same rows however the text is chunked, including a CRLF split between chunks', () => {
    const text = '{"a":1}\r\n{"a":2}\r\n\r\n{"a":3}\n{"a":4}';
    const whole = parseJsonlText(text);
    for (let size = 1; size <= 9; size++) {
      const parser = new JsonlRowParser();
      for (let i = 0; i < text.length; i += size) parser.push(text.slice(i, i + size));
      parser.finish();
      const batch = parser.take();
      expect(batch.rows, `chunk size ${size}`).toEqual(whole.rows);
      expect(batch.issues, `chunk size ${size}`).toEqual(whole.issues);
    }
    expect(lines(whole)).toEqual([1, 2, 4, 5]);
  });
});

describe('JSON array', () => {
  it('numbers each element by the line it starts on', () => {
    const text = '[\n  {"id": 1,\n   "text": "a"},\n  {"id": 2, "text": "b"}\n]\n';
    const out = parseJsonArrayText(text);
    expect(out.rows).toEqual([
      { number: 1, line: 2, data: { id: 1, text: 'a' } },
      { number: 2, line: 4, data: { id: 2, text: 'b' } },
    ]);
    expect(out.issues).toEqual([]);
  });

  it('reports a bad element with its line and still loads the others', () => {
    const text = '[\n{"id":1},\n{"id":2,,},\n{"id":"3 ] , }"},\n{"id":4}\n]';
    const out = parseJsonArrayText(text);
    expect(out.rows.map((r) => [r.line, r.data])).toEqual([
      [2, { id: 1 }],
      [4, { id: '3 ] , }' }],
      [5, { id: 4 }],
    ]);
    expect(out.issues).toEqual([expect.objectContaining({ line: 3, number: 2, kind: 'malformed' })]);
  });

  it('says a truncated array is never closed and reports the cut-off element', () => {
    const out = parseJsonArrayText('[\n{"id":1},\n{"id":2, "text": "cut');
    expect(out.rows).toHaveLength(1);
    expect(out.issues.map((i) => [i.line, i.kind])).toEqual([
      [3, 'malformed'],
      [3, 'malformed'],
    ]);
    expect(out.issues[0]!.reason).toMatch(/cut off/);
    expect(out.issues[1]!.reason).toMatch(/never closed/);
  });

  it('refuses a file that is not an array, with a sentence that says what to do', () => {
    const out = parseJsonArrayText('{"id":1}');
    expect(out.rows).toEqual([]);
    expect(out.issues[0]!.reason).toMatch(/array of rows/);
  });

  it('handles a BOM, empty elements and a trailing comma', () => {
    const out = parseJsonArrayText('\ufeff[{"a":1}, {}, {"a":2},]');
    expect(out.rows.map((r) => r.data)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(out.issues).toEqual([expect.objectContaining({ kind: 'empty', number: 2 })]);
  });
});

describe('detectFormat', () => {
  it('goes by extension, then by the first character', () => {
    expect(detectFormat('rows.csv', '[')).toBe('csv');
    expect(detectFormat('rows.jsonl', '[')).toBe('jsonl');
    expect(detectFormat('rows.json', '\ufeff [')).toBe('json');
    expect(detectFormat('rows.json', '{"a":1}\n{"a":2}')).toBe('jsonl');
    expect(detectFormat('upload', '{"a":1}')).toBe('jsonl');
    expect(detectFormat('upload', 'a,b')).toBe('csv');
  });
});
