// Rows and issues of a row file collected in file order, shared by the CSV, JSON Lines and JSON array parsers. Blank
// records are held back: a trailing newline is not a row, while a blank record followed by data is an empty row.
import type { JsonValue } from '../../contract';
import type { ParseBatch, ParseSummary, RowFormat, RowIssue, SourceRow } from './parseTypes';

export const BOM = '\ufeff';

/** True for values with nothing in them: null, blank text, [], {} or an object whose fields are all blank. */
export function isBlankValue(value: JsonValue): boolean {
  if (value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every(isBlankValue);
  if (typeof value === 'object') return Object.values(value).every(isBlankValue);
  return false;
}

/** A line's text flattened and cut short, to quote it in an issue. */
export const clip = (text: string, max = 60): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

/** Why JSON.parse refused a piece of text, as a short clause without V8's position noise. */
export function jsonProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^JSON\.parse: /, '').replace(/\s+in JSON at position \d+.*$/s, '');
}

/** The issues found so far, with the blank records held back until data follows them (then each is an empty row). */
class IssueLog {
  private issues: RowIssue[] = [];
  private heldBlank: { line: number; number: number }[] = [];
  count = 0;

  push(issue: RowIssue): void {
    this.issues.push(issue);
    this.count++;
  }

  hold(line: number, number: number): void {
    this.heldBlank.push({ line, number });
  }

  /** Data followed the held blank records: each is reported as an empty row. */
  flushBlanks(): void {
    if (this.heldBlank.length === 0) return;
    for (const b of this.heldBlank)
      this.push({
        line: b.line,
        number: b.number,
        kind: 'empty',
        severity: 'skip',
        reason: 'Empty row: nothing to evaluate.',
      });
    this.heldBlank = [];
  }

  /** The file ended: the blank records still held were its trailing newlines; how many they were. */
  dropHeld(): number {
    const dropped = this.heldBlank.length;
    this.heldBlank = [];
    return dropped;
  }

  get pending(): number {
    return this.issues.length;
  }

  take(): RowIssue[] {
    const issues = this.issues;
    this.issues = [];
    return issues;
  }
}

/** Column names in first-seen order. */
class ColumnOrder {
  private readonly seen = new Set<string>();
  readonly names: string[] = [];

  add(names: Iterable<string>): void {
    for (const n of names) {
      if (!this.seen.has(n)) {
        this.seen.add(n);
        this.names.push(n);
      }
    }
  }
}

/** Collects rows, columns and issues in file order (see the file's comment on blank records). */
export class Accumulator {
  private rows: SourceRow[] = [];
  private readonly log = new IssueLog();
  private readonly columns = new ColumnOrder();
  readonly quoteSpans: { from: number; to: number }[] = [];
  records = 0;
  rowCount = 0;

  constructor(readonly format: RowFormat) {}

  addColumns(names: Iterable<string>): void {
    this.columns.add(names);
  }

  /** A record that is blank: held until we know whether data follows. */
  blank(line: number): void {
    this.records++;
    this.log.hold(line, this.records);
  }

  row(line: number, data: JsonValue): void {
    this.log.flushBlanks();
    this.records++;
    if (isBlankValue(data)) {
      const reason = 'Empty row: every field is blank.';
      this.log.push({ line, number: this.records, kind: 'empty', severity: 'skip', reason });
      return;
    }
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) this.addColumns(Object.keys(data));
    this.rows.push({ number: this.records, line, data });
    this.rowCount++;
  }

  /** Lines after `from` that a stray quote pulled into its record: each listed, none counted as a record. */
  swallowed(from: number, to: number): void {
    this.quoteSpans.push({ from, to });
    const reason = `Not read as a row: it was taken into the field opened by the quote on line ${from}.`;
    for (let line = from + 1; line <= to; line++)
      this.log.push({ line, kind: 'malformed', severity: 'skip', reason });
  }

  malformed(line: number, reason: string): void {
    this.log.flushBlanks();
    this.records++;
    this.log.push({ line, number: this.records, kind: 'malformed', severity: 'skip', reason });
  }

  /** A problem with the file itself rather than one record (an unclosed array, a missing header). */
  fileIssue(line: number, reason: string): void {
    this.log.flushBlanks();
    this.log.push({ line, kind: 'malformed', severity: 'skip', reason });
  }

  /** Rows and issues collected since the last take. */
  get pending(): number {
    return this.rows.length + this.log.pending;
  }

  take(): ParseBatch {
    const batch = { rows: this.rows, issues: this.log.take() };
    this.rows = [];
    return batch;
  }

  summary(): ParseSummary {
    // Blank records still held are the file's trailing newlines: not rows, so not counted as records either.
    this.records -= this.log.dropHeld();
    return {
      format: this.format,
      columns: [...this.columns.names],
      records: this.records,
      rows: this.rowCount,
      issues: this.log.count,
      quoteSpans: [...this.quoteSpans],
    };
  }
}
