// Results files read as streams, for files of a million rows: line by line with each line's byte offset, never the
// whole text. What is kept per row is a few numbers in typed arrays by record number; a row's full line is read again
// from its offset when it is needed (an answer to reuse, a row of the figures, a line of a merge).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { z } from 'zod';
import type { Questions } from '../contract';
import { computeAlignment } from '../core/alignment';
import type { AlignmentOptions, AlignmentReport, AlignRow } from '../core/alignment';
import type { CascadeTables } from '../core/alignment/questionTrust';
import { annotatorsByQuestion, labelColumnsOf, readRowLabels } from '../core/labels';
import type { LabelColumn } from '../core/labels';
import type { AlignTable } from '../core/alignment/table';
import { AlignTableWriter } from '../core/alignment/table';
import { ROW_STATUSES } from '../core/rows/records';
import type { RowStatus } from '../core/rows/records';
import type { ReadRow, ResultsHeader } from '../core/rows/resultsFile';
import { ResultLineSchema, readHeaderLine, readRowLine } from '../core/rows/resultsFile';
import { InputError } from './inputs';
import { collectGarbage, collectWhenGrown } from './memory';

const READ_BYTES = 1024 * 1024;
const NEWLINE = 10;

/**
 * Calls `onLine` for every line of a file (without its newline) with its byte offset and length, reading a megabyte
 * at a time. Returns the file's size and whether it ends with a newline (a process killed mid-write leaves none).
 */
export function forEachLine(
  file: string,
  onLine: (text: string, offset: number, bytes: number, index: number) => void,
): { size: number; endsWithNewline: boolean } {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    let buffer = Buffer.alloc(READ_BYTES);
    let held = 0;
    let position = 0;
    let index = 0;
    let last = -1;
    for (;;) {
      if (held === buffer.length) {
        // One line longer than the buffer: make room for it.
        const bigger = Buffer.alloc(buffer.length * 2);
        buffer.copy(bigger, 0, 0, held);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, held, buffer.length - held, position);
      const end = held + n;
      let start = 0;
      for (let i = buffer.indexOf(NEWLINE, held); i !== -1 && i < end; i = buffer.indexOf(NEWLINE, i + 1)) {
        onLine(buffer.toString('utf8', start, i), position - held + start, i - start, index++);
        start = i + 1;
        last = NEWLINE;
      }
      position += n;
      // A megabyte of lines parsed: a resume, a merge or a report reads a million of them.
      collectWhenGrown();
      if (n === 0) {
        if (start < end) {
          onLine(buffer.toString('utf8', start, end), position - end + start, end - start, index++);
          last = 0;
        }
        return { size, endsWithNewline: size === 0 || last === NEWLINE };
      }
      buffer.copy(buffer, 0, start, end);
      held = end - start;
      if (held > 0) last = 0;
    }
  } finally {
    closeSync(fd);
  }
}

/** Lines of a file (a last line without a newline counts), counted as bytes: a million lines in a fraction of a second. */
export function countLines(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(READ_BYTES);
    let lines = 0;
    let last = NEWLINE;
    for (let position = 0; ;) {
      const n = readSync(fd, buffer, 0, buffer.length, position);
      if (n === 0) return lines + (last === NEWLINE ? 0 : 1);
      for (let i = buffer.indexOf(NEWLINE, 0); i !== -1 && i < n; i = buffer.indexOf(NEWLINE, i + 1)) lines++;
      last = buffer[n - 1]!;
      position += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** The buffer readAt reads into, grown to the longest line read: a million lines read back allocate it once. */
let scratch = Buffer.alloc(0);

/** Reads `bytes` bytes of a file at `offset`, as text. */
export function readAt(fd: number, offset: number, bytes: number): string {
  if (scratch.length < bytes) scratch = Buffer.alloc(Math.max(bytes, 64 * 1024));
  const n = readSync(fd, scratch, 0, bytes, offset);
  return scratch.toString('utf8', 0, n);
}

/** The line of a file that starts at `offset` (without its newline), read 4 KB at a time. */
export function readLineAt(fd: number, offset: number): string {
  const parts: Buffer[] = [];
  for (let at = offset; ;) {
    const buffer = Buffer.alloc(4096);
    const n = readSync(fd, buffer, 0, buffer.length, at);
    const end = buffer.indexOf(NEWLINE);
    if (end !== -1 && end < n) {
      parts.push(buffer.subarray(0, end));
      break;
    }
    parts.push(buffer.subarray(0, n));
    if (n < buffer.length) break;
    at += n;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The header of a results file (its first line), or an InputError naming the file. */
export function readHeaderOf(file: string): ResultsHeader {
  let first: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(256 * 1024);
      let n = readSync(fd, buffer, 0, buffer.length, 0);
      let text = buffer.toString('utf8', 0, n);
      let big = buffer;
      // A header with a large questions map: read on until its line ends.
      while (!text.includes('\n') && n === big.length) {
        const more = Buffer.alloc(big.length * 2);
        n = readSync(fd, more, 0, more.length, 0);
        big = more;
        text = more.toString('utf8', 0, n);
      }
      first = text.split('\n', 1)[0] ?? '';
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new InputError(
      `The results file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
    );
  }
  const read = readHeaderLine(first);
  if (!read.ok) throw new InputError(`${file}: ${read.message}`);
  return read.header;
}

/** The fields of a row line that resuming, merging and counting need; the answers are only checked to be there. */
export const SlimLineSchema = ResultLineSchema.pick({
  row: true,
  status: true,
  attempts: true,
  possibly_billed_attempts: true,
  model: true,
  usage: true,
  answer_key: true,
}).extend({ answers: z.unknown() });
export type SlimLine = z.infer<typeof SlimLineSchema>;

/** A row line's slim fields, or null when the line cannot be read (cut off, or not a row). */
export function slimLine(text: string): SlimLine | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = SlimLineSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** A status as a small number (0: no line), and back. */
export const statusCode = (status: RowStatus): number => ROW_STATUSES.indexOf(status) + 1;
export const statusOf = (code: number): RowStatus | undefined => ROW_STATUSES[code - 1];

/** Grows a typed array to hold index `n`, doubling; returns the same array when it already does. */
export function grow<T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(
  array: T,
  n: number,
): T {
  if (n < array.length) return array;
  let size = Math.max(1024, array.length);
  while (size <= n) size *= 2;
  const bigger = new (array.constructor as new (size: number) => T)(size);
  bigger.set(array);
  return bigger;
}

/** The newest line of each row of one results file: where it is and what it says, by record number. */
export interface RowIndex {
  header: ResultsHeader;
  file: string;
  /** Byte offset and length of the newest line of each row; length 0 for a row with no line. */
  offset: Float64Array;
  bytes: Uint32Array;
  status: Uint8Array;
  /** Billed input tokens of the newest line (NaN when it names none). */
  billed: Float64Array;
  /** Whether the newest line carries answers. */
  answered: Uint8Array;
  /** The highest record number seen. */
  maxRow: number;
  rows: number;
  unreadable: number;
}

/** Reads a results file once and indexes the newest line of each row. */
export function indexRows(file: string): RowIndex {
  const header = readHeaderOf(file);
  // Sized once where the header or a count of lines says how many records there are: arrays grown by doubling leave
  // their earlier copies (22 MB at a million rows) as memory the process keeps.
  const records = header.shard?.records ?? header.merged?.planned ?? countLines(file);
  const index: RowIndex = {
    header,
    file,
    offset: new Float64Array(records + 1),
    bytes: new Uint32Array(records + 1),
    status: new Uint8Array(records + 1),
    billed: new Float64Array(records + 1),
    answered: new Uint8Array(records + 1),
    maxRow: 0,
    rows: 0,
    unreadable: 0,
  };
  forEachLine(file, (text, offset, bytes, i) => {
    if (i === 0 || text.trim() === '') return;
    const line = slimLine(text);
    if (!line) {
      index.unreadable++;
      return;
    }
    const n = line.row;
    if (n >= index.offset.length) {
      index.offset = grow(index.offset, n);
      index.bytes = grow(index.bytes, n);
      index.status = grow(index.status, n);
      index.billed = grow(index.billed, n);
      index.answered = grow(index.answered, n);
    }
    if (index.bytes[n] === 0) index.rows++;
    index.offset[n] = offset;
    index.bytes[n] = bytes;
    index.status[n] = statusCode(line.status);
    const billed = line.usage?.billed_input_tokens;
    index.billed[n] = typeof billed === 'number' ? billed : Number.NaN;
    index.answered[n] = line.answers !== null && line.answers !== undefined && line.model !== null ? 1 : 0;
    index.maxRow = Math.max(index.maxRow, n);
  });
  return index;
}

/** Where the newest line of each row is, without what it says: all a second pass over the rows reads. */
export type RowLines = Pick<RowIndex, 'header' | 'file' | 'offset' | 'bytes' | 'maxRow' | 'rows'>;

/** An index's line positions alone, so its other columns (10 bytes a record) are let go before the rows are read. */
export const linesOf = ({ header, file, offset, bytes, maxRow, rows }: RowIndex): RowLines => ({
  header,
  file,
  offset,
  bytes,
  maxRow,
  rows,
});

/** Calls `onRow` with the newest line of each row, in record order, read again from its offset. */
export function eachNewestRow(index: RowLines, onRow: (row: ReadRow) => void, now = Date.now()): void {
  const fd = openSync(index.file, 'r');
  try {
    for (let n = 1; n <= index.maxRow; n++) {
      const bytes = index.bytes[n]!;
      if (bytes === 0) continue;
      const read = readRowLine(readAt(fd, index.offset[n]!, bytes), now);
      if (read.ok) onRow(read.row);
      if (n % 4096 === 0) collectWhenGrown();
    }
  } finally {
    closeSync(fd);
  }
}

/** A row of the figures: its labels read from its columns by the functions the rows screen reads them with. */
function alignRowOf(questions: Questions, row: ReadRow, columns: readonly LabelColumn[]): AlignRow {
  const read = readRowLabels(row.data, columns, questions);
  return {
    id: row.id,
    labels: read.labels ?? {},
    ...(read.annotations && { annotations: read.annotations }),
    ...(row.response && { answers: row.response.answers }),
  };
}

/** The labelled rows of a results file as the figures read them, with the questions they answer. */
export interface LabelTable {
  questions: Questions;
  table: AlignTable;
}

/**
 * The rows of a results file for its figures: its newest line of each row in record order (the order the whole-file
 * reader gives, so a merge of shards and one process's file give the same figures), each annotator's labels kept
 * apart. Null without label columns. The index is not kept: the figures of a million rows are computed with it let
 * go (22 bytes a record).
 */
export function labelTableOf(index: RowLines): LabelTable | null {
  const { questions } = index.header;
  const labels = labelColumnsOf(index.header.labels);
  if (labels.length === 0) return null;
  const table = new AlignTableWriter(questions, index.rows, Object.fromEntries(annotatorsByQuestion(labels)));
  eachNewestRow(index, (row) => table.add(alignRowOf(questions, row, labels)));
  return { questions, table: table.table() };
}

/**
 * The alignment report of a results file's rows (null without label columns), read under `options` (the trust
 * options). A full collection first, so what reading the rows left (the index, the parsed lines) is let go before the
 * figures' arrays (about 80 bytes a labelled row) are made.
 */
export function alignmentOf(
  labelled: LabelTable | null,
  options: Partial<AlignmentOptions> = {},
  cascade?: CascadeTables,
): AlignmentReport | null {
  if (!labelled) return null;
  collectGarbage();
  return computeAlignment(labelled.questions, labelled.table, options, cascade, collectGarbage);
}
