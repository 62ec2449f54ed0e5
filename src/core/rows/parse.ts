// Row files (CSV, JSONL, JSON array) turned into numbered rows plus a list of problems, each with its line number.
// Incremental on purpose: the worker feeds chunks as it reads, so a 100,000-row file never blocks the page, and the
// same code runs in unit tests on plain strings. Nothing is dropped silently: a line that is not a row is an issue.
import Papa from 'papaparse';
import type { JsonValue } from '../../contract';
import { Accumulator, BOM, clip, jsonProblem } from './parseAccumulator';
import { parseJsonArrayText } from './parseJsonArray';
import type { ParseBatch, ParseSummary, RowFormat, RowParser } from './parseTypes';

export type {
  IssueKind,
  ParseBatch,
  ParseSummary,
  RowFormat,
  RowIssue,
  RowParser,
  SourceRow,
} from './parseTypes';
export { isBlankValue } from './parseAccumulator';
export { parseJsonArrayText } from './parseJsonArray';

const LINE_BREAKS = /\r\n|\r|\n/g;
const countLineBreaks = (text: string): number => text.match(LINE_BREAKS)?.length ?? 0;

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

/**
 * The column names the first record gives: its fields named (with a header), else column_1, column_2... for each field.
 * Null when the header line is blank, reported.
 */
function headerOf(
  acc: Accumulator,
  useHeader: boolean,
  record: { fields: string[]; errors: CsvRecord['errors']; blank: boolean; line: number },
): string[] | null {
  const { fields, errors, blank, line } = record;
  if (!useHeader) {
    const positional = fields.map((_, i) => `column_${i + 1}`);
    acc.addColumns(positional);
    return positional;
  }
  if (blank) {
    acc.fileIssue(line, 'The first line is empty; the header (column names) must be on line 1.');
    return null;
  }
  const header = headerNames(fields);
  acc.addColumns(header);
  if (errors.length > 0) acc.fileIssue(line, `The header line is malformed: ${errors[0]!.message}.`);
  return header;
}

/**
 * Reports a record PapaParse found errors in (false when it found none): a stray quote that made one field of the lines
 * up to `nextLine`, or a malformed record.
 */
function reportedCsvErrors(
  acc: Accumulator,
  errors: CsvRecord['errors'],
  fields: readonly string[],
  line: number,
  nextLine: number,
): boolean {
  if (errors.length === 0) return false;
  // An unclosed quote takes the file's final line break into its field; that break ends the last line, not a line.
  const lastLine = nextLine - 1 - (/(\r\n|\r|\n)$/.test(fields[fields.length - 1] ?? '') ? 1 : 0);
  const quoteProblem = errors.some((e) => e.type === 'Quotes' || e.code === 'MissingQuotes');
  if (quoteProblem && lastLine > line) {
    // A stray quote: the lines up to the next quote character (or the end of the file) became one field.
    const until = lastLine === line + 1 ? `line ${lastLine}` : `lines ${line + 1}-${lastLine}`;
    acc.malformed(
      line,
      `Lines ${line}-${lastLine} were read as one field because of the quote opened on line ${line}; ${until} did not become rows. Read the file with quotes taken literally to give each line its own row.`,
    );
    acc.swallowed(line, lastLine);
    return true;
  }
  const what = errors.some((e) => e.code === 'MissingQuotes')
    ? 'a quoted field is never closed'
    : quoteProblem
      ? 'a quote inside a field is not doubled ("") or is not followed by a comma'
      : errors[0]!.message;
  acc.malformed(line, `Malformed CSV: ${what.replace(/\.$/, '')}.`);
  return true;
}

/** A sound record's row keyed by the header, or an issue when its field count differs from the header's. */
function addCsvRow(
  acc: Accumulator,
  header: readonly string[],
  fields: readonly string[],
  line: number,
): void {
  if (fields.length !== header.length) {
    acc.malformed(
      line,
      `Malformed CSV: ${fields.length} field${fields.length === 1 ? '' : 's'}, but the header has ${header.length}.`,
    );
    return;
  }
  const data: Record<string, JsonValue> = {};
  header.forEach((name, i) => {
    data[name] = fields[i] ?? '';
  });
  acc.row(line, data);
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
      // Once per file: the header, or the positional names of a file without one (whose first record is a row).
      const header = headerOf(this.acc, this.useHeader, { fields, errors, blank, line });
      if (header === null) return;
      this.header = header;
      if (this.useHeader) return;
    }
    if (reportedCsvErrors(this.acc, errors, fields, line, this.nextLine)) return;
    if (blank) this.acc.blank(line);
    else addCsvRow(this.acc, this.header, fields, line);
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
