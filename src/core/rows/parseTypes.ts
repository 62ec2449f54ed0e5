// What a row file's parse hands over: numbered rows, the problems found with their lines, and a summary once read.
// Types only, so the parsers of each format (and the accumulator they share) import them without a cycle.
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
