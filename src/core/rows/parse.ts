// Row files (CSV, JSONL, JSON array) turned into numbered rows plus a list of problems, each with its line number.
// Incremental on purpose: the worker feeds chunks as it reads, so a 100,000-row file never blocks the page, and the
// same code runs in unit tests on plain strings. Nothing is dropped silently: a line that is not a row is an issue.
import Papa from 'papaparse';
import type { JsonValue } from '../../contract';

/** The file kinds a run can be imported from. */
export type RowFormat = 'csv' | 'jsonl' | 'json';

/** One data row of the file. */
export interface SourceRow {
  /** 1-based position among the file's records (header and trailing blank lines excluded); stable across mappings. */
  number: number;
  /** 1-based line of the file where the row starts. */
  line: number;
  /** The row: an object of named fields for CSV and JSON objects, any JSON value otherwise. */
  data: JsonValue;
}

export type IssueKind = 'malformed' | 'empty' | 'too_large' | 'unmappable' | 'duplicate_id';

/** A line that will not run (severity 'skip') or runs with a caveat ('warn'), with where and why. */
export interface RowIssue {
  line: number;
  /** The record number, when the problem belongs to one record. */
  number?: number;
  kind: IssueKind;
  severity: 'skip' | 'warn';
  reason: string;
}

/** What a parser hands over at each step: rows and issues found since the previous take. */
export interface ParseBatch {
  rows: SourceRow[];
  issues: RowIssue[];
}

/** Summary once the whole file is read. */
export interface ParseSummary {
  format: RowFormat;
  /** Column names in first-seen order (CSV header, or the union of object keys). */
  columns: string[];
  /** Records seen, rows accepted, issues found. */
  records: number;
  rows: number;
  issues: number;
  /**
   * CSV: lines read as one field because a quote opened on `from` was not closed where it should be (a stray quote),
   * so none of them became a row. Reading the file with quotes taken literally gives each line its own row.
   */
  quoteSpans: { from: number; to: number }[];
}

/** An incremental row parser: feed text or records, take batches, finish once. */
export interface RowParser {
  take(): ParseBatch;
  finish(): ParseSummary;
}

const BOM = '\ufeff';
const LINE_BREAKS = /\r\n|\r|\n/g;
const countLineBreaks = (text: string): number => text.match(LINE_BREAKS)?.length ?? 0;

/** True for values with nothing in them: null, blank text, [], {} or an object whose fields are all blank. */
export function isBlankValue(value: JsonValue): boolean {
  if (value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every(isBlankValue);
  if (typeof value === 'object') return Object.values(value).every(isBlankValue);
  return false;
}

/**
 * Collects rows and issues in file order. Blank records are held back: blank lines at the very end of a file are
 * only a trailing newline, not rows, while a blank record followed by more data is reported as an empty row.
 */
class Accumulator {
  private rows: SourceRow[] = [];
  private issues: RowIssue[] = [];
  private heldBlank: { line: number; number: number }[] = [];
  private readonly columnSet = new Set<string>();
  readonly columns: string[] = [];
  records = 0;
  rowCount = 0;
  issueCount = 0;

  constructor(readonly format: RowFormat) {}

  private flushBlanks(): void {
    for (const b of this.heldBlank) {
      this.pushIssue({
        line: b.line,
        number: b.number,
        kind: 'empty',
        severity: 'skip',
        reason: 'Empty row: nothing to evaluate.',
      });
    }
    this.heldBlank = [];
  }

  private pushIssue(issue: RowIssue): void {
    this.issues.push(issue);
    this.issueCount++;
  }

  addColumns(names: Iterable<string>): void {
    for (const n of names) {
      if (!this.columnSet.has(n)) {
        this.columnSet.add(n);
        this.columns.push(n);
      }
    }
  }

  /** A record that is blank: held until we know whether data follows. */
  blank(line: number): void {
    this.records++;
    this.heldBlank.push({ line, number: this.records });
  }

  row(line: number, data: JsonValue): void {
    this.flushBlanks();
    this.records++;
    if (isBlankValue(data)) {
      this.pushIssue({
        line,
        number: this.records,
        kind: 'empty',
        severity: 'skip',
        reason: 'Empty row: every field is blank.',
      });
      return;
    }
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) this.addColumns(Object.keys(data));
    this.rows.push({ number: this.records, line, data });
    this.rowCount++;
  }

  readonly quoteSpans: { from: number; to: number }[] = [];

  /** Lines after `from` that a stray quote pulled into its record: each listed, none counted as a record. */
  swallowed(from: number, to: number): void {
    this.quoteSpans.push({ from, to });
    for (let line = from + 1; line <= to; line++)
      this.pushIssue({
        line,
        kind: 'malformed',
        severity: 'skip',
        reason: `Not read as a row: it was taken into the field opened by the quote on line ${from}.`,
      });
  }

  malformed(line: number, reason: string): void {
    this.flushBlanks();
    this.records++;
    this.pushIssue({ line, number: this.records, kind: 'malformed', severity: 'skip', reason });
  }

  /** A problem with the file itself rather than one record (an unclosed array, a missing header). */
  fileIssue(line: number, reason: string): void {
    this.flushBlanks();
    this.pushIssue({ line, kind: 'malformed', severity: 'skip', reason });
  }

  /** Rows and issues collected since the last take. */
  get pending(): number {
    return this.rows.length + this.issues.length;
  }

  take(): ParseBatch {
    const batch = { rows: this.rows, issues: this.issues };
    this.rows = [];
    this.issues = [];
    return batch;
  }

  summary(): ParseSummary {
    // Blank records still held are the file's trailing newlines: not rows, so not counted as records either.
    this.records -= this.heldBlank.length;
    this.heldBlank = [];
    return {
      format: this.format,
      columns: [...this.columns],
      records: this.records,
      rows: this.rowCount,
      issues: this.issueCount,
      quoteSpans: [...this.quoteSpans],
    };
  }
}

const clip = (text: string, max = 60): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

/** Why JSON.parse refused a piece of text, as a short clause without V8's position noise. */
function jsonProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^JSON\.parse: /, '').replace(/\s+in JSON at position \d+.*$/s, '');
}

// ---------------------------------------------------------------------------------------------------------------------
// CSV: PapaParse splits records (quotes, embedded newlines, delimiter detection); we number lines and shape rows.

/** A record as PapaParse reports it in step mode (header off), with the errors it found in that record. */
export interface CsvRecord {
  data: string[];
  errors: readonly { code?: string; type?: string; message: string }[];
}

export interface CsvOptions {
  /** The first record names the columns. Default true; without it columns are column_1, column_2, ... */
  header?: boolean;
  /** Quotes are plain characters: every line is its own record (for files whose quotes are not CSV quoting). */
  literalQuotes?: boolean;
}

/** PapaParse's quote setting for the options: a character no text holds when quotes are taken literally. */
export const quoteCharOf = (options: CsvOptions): string => (options.literalQuotes ? '\u0000' : '"');

/** Column names from a header record: blanks get a positional name, duplicates a numeric suffix. */
export function headerNames(fields: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return fields.map((raw, i) => {
    const base = raw.trim() === '' ? `column_${i + 1}` : raw.trim();
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}_${n}`;
  });
}

/** Feeds PapaParse records (header off) and turns them into rows keyed by the header, line numbers included. */
export class CsvRowParser implements RowParser {
  private readonly acc = new Accumulator('csv');
  private header: string[] | null = null;
  private nextLine = 1;
  private readonly useHeader: boolean;

  constructor(options: CsvOptions = {}) {
    this.useHeader = options.header ?? true;
  }

  /** One record from PapaParse's `step`; its line is where it starts, its span counts newlines inside quotes. */
  record(record: CsvRecord): void {
    const line = this.nextLine;
    const fields = record.data;
    if (line === 1 && fields.length > 0 && fields[0]!.startsWith(BOM)) fields[0] = fields[0]!.slice(1);
    this.nextLine += 1 + fields.reduce((n, f) => n + countLineBreaks(f), 0);
    // An undetectable delimiter only means a one-column file; every other error makes the record unreliable.
    const errors = record.errors.filter((e) => e.type !== 'Delimiter');
    const blank = fields.every((f) => f.trim() === '');

    if (this.header === null) {
      if (this.useHeader) {
        if (blank) {
          this.acc.fileIssue(line, 'The first line is empty; the header (column names) must be on line 1.');
          return;
        }
        this.header = headerNames(fields);
        this.acc.addColumns(this.header);
        if (errors.length > 0)
          this.acc.fileIssue(line, `The header line is malformed: ${errors[0]!.message}.`);
        return;
      }
      this.header = fields.map((_, i) => `column_${i + 1}`);
      this.acc.addColumns(this.header);
    }

    // An unclosed quote takes the file's final line break into its field; that break ends the last line, not a line.
    const lastLine = this.nextLine - 1 - (/(\r\n|\r|\n)$/.test(fields[fields.length - 1] ?? '') ? 1 : 0);
    const quoteProblem = errors.some((e) => e.type === 'Quotes' || e.code === 'MissingQuotes');
    if (quoteProblem && lastLine > line) {
      // A stray quote: the lines up to the next quote character (or the end of the file) became one field.
      const until = lastLine === line + 1 ? `line ${lastLine}` : `lines ${line + 1}-${lastLine}`;
      this.acc.malformed(
        line,
        `Lines ${line}-${lastLine} were read as one field because of the quote opened on line ${line}; ${until} did not become rows. Read the file with quotes taken literally to give each line its own row.`,
      );
      this.acc.swallowed(line, lastLine);
      return;
    }
    if (errors.length > 0) {
      const what = errors.some((e) => e.code === 'MissingQuotes')
        ? 'a quoted field is never closed'
        : quoteProblem
          ? 'a quote inside a field is not doubled ("") or is not followed by a comma'
          : errors[0]!.message;
      this.acc.malformed(line, `Malformed CSV: ${what.replace(/\.$/, '')}.`);
      return;
    }
    if (blank) {
      this.acc.blank(line);
      return;
    }
    if (fields.length !== this.header.length) {
      this.acc.malformed(
        line,
        `Malformed CSV: ${fields.length} field${fields.length === 1 ? '' : 's'}, but the header has ${this.header.length}.`,
      );
      return;
    }
    const data: Record<string, JsonValue> = {};
    this.header.forEach((name, i) => {
      data[name] = fields[i] ?? '';
    });
    this.acc.row(line, data);
  }

  /** Rows and issues collected since the last take. */
  pending(): number {
    return this.acc.pending;
  }

  take(): ParseBatch {
    return this.acc.take();
  }

  finish(): ParseSummary {
    if (this.header === null && this.useHeader)
      this.acc.fileIssue(1, 'The file is empty: no header and no rows.');
    return this.acc.summary();
  }
}

/** PapaParse settings shared by the worker (File input) and tests (string input): header off, we number the lines. */
export const PAPA_CONFIG = { header: false, skipEmptyLines: false, dynamicTyping: false } as const;

/**
 * The delimiter of a CSV file from its first bytes (comma, tab, semicolon, pipe...). Guessed here rather than by the
 * streaming parse: with empty lines kept (we report them), PapaParse's own guess fails on a trailing newline.
 */
export function guessDelimiter(head: string): string {
  const sample = head.length > 65_536 ? head.slice(0, 65_536) : head;
  const result = Papa.parse<string[]>(sample.replace(/^\ufeff/, ''), { preview: 20, skipEmptyLines: true });
  const undetected = result.errors.some((e) => e.code === 'UndetectableDelimiter');
  return undetected ? ',' : result.meta.delimiter;
}

/** Parses CSV text at once with the same record path the worker uses; for tests, previews and small files. */
export function parseCsvText(text: string, options: CsvOptions = {}): ParseBatch & { summary: ParseSummary } {
  const parser = new CsvRowParser(options);
  Papa.parse<string[]>(text, {
    ...PAPA_CONFIG,
    delimiter: guessDelimiter(text),
    quoteChar: quoteCharOf(options),
    step: (results) => parser.record({ data: results.data, errors: results.errors }),
  });
  const summary = parser.finish();
  return { ...parser.take(), summary };
}

// ---------------------------------------------------------------------------------------------------------------------
// JSONL: one JSON value per line, fed in arbitrary chunks.

/** Reads JSON Lines from text chunks of any size; each non-blank line is one row. */
export class JsonlRowParser implements RowParser {
  private readonly acc = new Accumulator('jsonl');
  private partial = '';
  private line = 0;
  private started = false;

  /** Feeds the next chunk of text. */
  push(chunk: string): void {
    let text = chunk;
    if (!this.started) {
      this.started = true;
      if (text.startsWith(BOM)) text = text.slice(1);
    }
    const buffer = this.partial + text;
    const breaks = /\r\n|\r|\n/g;
    let start = 0;
    for (let m = breaks.exec(buffer); m; m = breaks.exec(buffer)) {
      // A lone \r at the chunk's end may be the first half of \r\n: leave it for the next chunk to decide.
      if (m[0] === '\r' && m.index === buffer.length - 1) break;
      this.lineOf(buffer.slice(start, m.index));
      start = m.index + m[0].length;
    }
    this.partial = buffer.slice(start);
  }

  private lineOf(text: string): void {
    this.line++;
    if (text.trim() === '') {
      this.acc.blank(this.line);
      return;
    }
    let value: JsonValue;
    try {
      value = JSON.parse(text) as JsonValue;
    } catch (error) {
      this.acc.malformed(this.line, `Not valid JSON (${jsonProblem(error)}): ${clip(text)}`);
      return;
    }
    this.acc.row(this.line, value);
  }

  take(): ParseBatch {
    return this.acc.take();
  }

  finish(): ParseSummary {
    const rest = this.partial.replace(/\r$/, '');
    this.partial = '';
    if (rest !== '') this.lineOf(rest);
    return this.acc.summary();
  }
}

/** Parses JSON Lines text at once. */
export function parseJsonlText(text: string): ParseBatch & { summary: ParseSummary } {
  const parser = new JsonlRowParser();
  parser.push(text);
  const summary = parser.finish();
  return { ...parser.take(), summary };
}

// ---------------------------------------------------------------------------------------------------------------------
// JSON array: one scan finds each top-level element and its line, then each element is parsed on its own, so one bad
// element is reported with its line and the others still load.

const enum Ch {
  Quote = 34,
  Backslash = 92,
  Comma = 44,
  OpenBracket = 91,
  CloseBracket = 93,
  OpenBrace = 123,
  CloseBrace = 125,
  Newline = 10,
  Return = 13,
}

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/** Parses a JSON array of rows, element by element, each with the line where it starts. */
export function parseJsonArrayText(input: string): ParseBatch & { summary: ParseSummary } {
  const acc = new Accumulator('json');
  const text = input.startsWith(BOM) ? input.slice(1) : input;
  const done = (): ParseBatch & { summary: ParseSummary } => {
    const summary = acc.summary();
    return { ...acc.take(), summary };
  };

  let i = 0;
  let line = 1;
  const n = text.length;
  const skipSpace = (): void => {
    while (i < n && isSpace(text.charCodeAt(i))) {
      const c = text.charCodeAt(i);
      if (c === Ch.Newline || (c === Ch.Return && text.charCodeAt(i + 1) !== Ch.Newline)) line++;
      i++;
    }
  };
  skipSpace();
  if (i >= n) {
    acc.fileIssue(1, 'The file is empty: a JSON file must hold an array of rows.');
    return done();
  }
  if (text.charCodeAt(i) !== Ch.OpenBracket) {
    acc.fileIssue(
      line,
      'A JSON file must hold an array of rows, [ {...}, {...} ]; use JSON Lines for one row per line.',
    );
    return done();
  }
  i++;

  let closed = false;
  while (i < n) {
    skipSpace();
    if (i >= n) break;
    if (text.charCodeAt(i) === Ch.CloseBracket) {
      closed = true;
      i++;
      break;
    }
    // Scan one element up to the comma or closing bracket at depth 0, skipping strings.
    const startLine = line;
    const start = i;
    let depth = 0;
    let end = -1;
    let unclosedString = false;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === Ch.Quote) {
        i++;
        while (i < n) {
          const s = text.charCodeAt(i);
          if (s === Ch.Backslash) i += 2;
          else if (s === Ch.Quote) break;
          else {
            if (s === Ch.Newline) line++;
            i++;
          }
        }
        if (i >= n) {
          unclosedString = true;
          break;
        }
        i++;
        continue;
      }
      if (c === Ch.Newline || (c === Ch.Return && text.charCodeAt(i + 1) !== Ch.Newline)) line++;
      if (c === Ch.OpenBrace || c === Ch.OpenBracket) depth++;
      else if (c === Ch.CloseBrace || c === Ch.CloseBracket) {
        // A stray "}" at depth 0 stays inside the element, which then fails to parse and is reported.
        if (depth === 0 && c === Ch.CloseBracket) {
          end = i;
          break;
        }
        depth = Math.max(0, depth - 1);
      } else if (c === Ch.Comma && depth === 0) {
        end = i;
        break;
      }
      i++;
    }
    const slice = text.slice(start, end === -1 ? n : end);
    if (slice.trim() === '') {
      // "[1,,2]": a hole between commas holds no data; a trailing comma before "]" is only a typo.
      if (end !== -1 && text.charCodeAt(end) === Ch.Comma)
        acc.malformed(startLine, 'Nothing between two commas.');
    } else {
      try {
        acc.row(startLine, JSON.parse(slice) as JsonValue);
      } catch (error) {
        const why = unclosedString || end === -1 ? 'it is cut off' : jsonProblem(error);
        acc.malformed(startLine, `Not valid JSON (${why}): ${clip(slice)}`);
      }
    }
    if (end === -1) break;
    if (text.charCodeAt(end) === Ch.Comma) {
      i = end + 1;
      continue;
    }
    closed = true;
    i = end + 1;
    break;
  }
  if (!closed) {
    acc.fileIssue(line, 'The JSON array is never closed with "]": the file may be truncated.');
  } else {
    skipSpace();
    if (i < n) acc.fileIssue(line, `Unexpected text after the closing "]": ${clip(text.slice(i))}`);
  }
  return done();
}

// ---------------------------------------------------------------------------------------------------------------------

/** Guesses the format from the file name, then from the first non-blank character. */
export function detectFormat(fileName: string, head: string): RowFormat {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  if (lower.endsWith('.csv') || lower.endsWith('.tsv') || lower.endsWith('.txt')) return 'csv';
  const first = head.replace(/^\ufeff/, '').trimStart();
  if (lower.endsWith('.json')) return first.startsWith('[') ? 'json' : 'jsonl';
  if (first.startsWith('[')) return 'json';
  if (first.startsWith('{')) return 'jsonl';
  return 'csv';
}

/** Parses a whole text in the given format; the worker streams instead, with the same parsers. */
export function parseRowsText(
  format: RowFormat,
  text: string,
  options: CsvOptions = {},
): ParseBatch & { summary: ParseSummary } {
  if (format === 'csv') return parseCsvText(text, options);
  if (format === 'jsonl') return parseJsonlText(text);
  return parseJsonArrayText(text);
}
