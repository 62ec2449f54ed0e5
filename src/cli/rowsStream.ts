// The rows file read as a stream, in file order, by the app's own parsers: CSV through PapaParse's streaming parser
// (the file stream paused while the reader is behind, so at most a couple of chunks wait), JSON Lines by line. A JSON array cannot be
// read a piece at a time, so it is read whole up to a size and refused above it with a sentence suggesting JSON Lines.
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import Papa from 'papaparse';
import type { ParseBatch, ParseSummary, RowFormat } from '../core/rows/parse';
import {
  CsvRowParser,
  JsonlRowParser,
  PAPA_CONFIG,
  detectFormat,
  guessDelimiter,
  parseJsonArrayText,
} from '../core/rows/parse';
import { InputError } from './inputs';
import { collectWhenGrown } from './memory';

/** The largest JSON array read whole (bytes): past this, a file of a million rows should be JSON Lines. */
export const MAX_JSON_ARRAY_BYTES = 64 * 1024 * 1024;
/** Bytes read from the file at a time. */
const CHUNK_BYTES = 256 * 1024;

/** A rows file opened for streaming: its format and, for CSV, its delimiter, read from its first bytes. */
export interface RowsSource {
  file: string;
  name: string;
  format: RowFormat;
  delimiter: string;
  bytes: number;
}

function head(file: string, bytes: number): string {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const n = readSync(fd, buffer, 0, bytes, 0);
    // A multi-byte character cut at the end decodes as U+FFFD; only the format and the delimiter are read from it.
    return buffer.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}

const mb = (bytes: number): string => `${Math.max(0.1, Math.round(bytes / 1024 / 102.4) / 10)} MB`;

/** Bytes read for a CSV's header; a header longer than this is read by a pass over the file instead. */
const HEADER_BYTES = 65_536;

/**
 * A CSV's columns from its first record alone, through the same parser as a pass over the file; null when the first
 * record is blank or malformed, or does not end within the first 64 KB (a pass over the file then says why).
 */
export function csvHeaderColumns(source: RowsSource): string[] | null {
  const start = head(source.file, HEADER_BYTES);
  const parsed = Papa.parse<string[]>(start, { ...PAPA_CONFIG, delimiter: source.delimiter, preview: 1 });
  const fields = parsed.data[0];
  const whole = source.bytes <= HEADER_BYTES || parsed.meta.cursor < start.length;
  if (!fields || !whole || parsed.errors.some((e) => e.type !== 'Delimiter')) return null;
  if (fields.every((f) => f.replace(/^\ufeff/, '').trim() === '')) return null;
  const parser = new CsvRowParser();
  parser.record({ data: [...fields], errors: [] });
  const { columns } = parser.finish();
  return columns.length > 0 ? columns : null;
}

/** Opens a rows file: refuses one that cannot be read, and a JSON array too large to read whole. */
export function openRowsSource(file: string, maxJsonArrayBytes = MAX_JSON_ARRAY_BYTES): RowsSource {
  let bytes: number;
  try {
    bytes = statSync(file).size;
  } catch (error) {
    throw new InputError(
      `The rows file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
    );
  }
  const start = head(file, 65_536);
  const format = detectFormat(file, start.slice(0, 4096));
  if (format === 'json' && bytes > maxJsonArrayBytes)
    throw new InputError(
      `The rows file ${basename(file)} is a JSON array of ${mb(bytes)}, which is read whole; ` +
        `above ${mb(maxJsonArrayBytes)} give the rows as JSON Lines, one row per line ` +
        `(for example: jq -c '.[]' ${basename(file)} > ${basename(file).replace(/\.json$/i, '')}.jsonl).`,
    );
  return {
    file,
    name: basename(file),
    format,
    delimiter: format === 'csv' ? guessDelimiter(start) : ',',
    bytes,
  };
}

/**
 * The batches of a rows file in order, then its summary: rows and issues of each chunk, never the whole file. Each
 * chunk checks the heap (./memory.ts): a reader that keeps up with the disk (a pass over the file, or a resume skipping
 * the rows already settled) would otherwise leave V8 to let a hundred megabytes of parsed rows pile up.
 */
export async function* rowBatches(source: RowsSource): AsyncGenerator<ParseBatch, ParseSummary> {
  if (source.format === 'json') {
    const parsed = parseJsonArrayText(readFileSync(source.file, 'utf8'));
    yield { rows: parsed.rows, issues: parsed.issues };
    return parsed.summary;
  }
  if (source.format === 'jsonl') {
    const parser = new JsonlRowParser();
    const stream = createReadStream(source.file, { encoding: 'utf8', highWaterMark: CHUNK_BYTES });
    for await (const chunk of stream) {
      parser.push(chunk as string);
      collectWhenGrown();
      yield parser.take();
    }
    const summary = parser.finish();
    yield parser.take();
    return summary;
  }
  return yield* csvBatches(source);
}

interface PapaChunk {
  data: string[][];
  errors: { code?: string; type?: string; message: string; row?: number }[];
}

/**
 * CSV through PapaParse's stream reader, one batch per chunk it parses; the file stream itself pauses while two wait.
 * (Papa's own pause, on the handle its chunk callback gets, stops only its parser: the stream went on reading the
 * whole file into Papa's queue while the run waited on the network, 80 MB of a million rows.)
 */
async function* csvBatches(source: RowsSource): AsyncGenerator<ParseBatch, ParseSummary> {
  const parser = new CsvRowParser();
  const waiting: PapaChunk[] = [];
  let handle: Papa.Parser | null = null;
  let finished = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const poke = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const stream = createReadStream(source.file, { encoding: 'utf8', highWaterMark: CHUNK_BYTES });
  Papa.parse<string[]>(stream, {
    ...PAPA_CONFIG,
    delimiter: source.delimiter,
    chunk: (results, p) => {
      handle = p;
      waiting.push({ data: results.data, errors: results.errors });
      if (waiting.length >= 2 && !stream.isPaused()) stream.pause();
      poke();
    },
    complete: () => {
      finished = true;
      poke();
    },
    error: (error: Error) => {
      failure = error;
      finished = true;
      poke();
    },
  });
  try {
    for (;;) {
      const next = waiting.shift();
      if (next) {
        if (waiting.length === 0 && stream.isPaused()) stream.resume();
        feed(parser, next);
        collectWhenGrown();
        yield parser.take();
        continue;
      }
      if (finished) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    // Left before the end (the run stopped): stop reading the file.
    if (!finished) {
      (handle as Papa.Parser | null)?.abort();
      stream.destroy();
    }
  }
  if (failure) throw new InputError(`The rows file ${source.name} could not be read (${String(failure)}).`);
  const summary = parser.finish();
  yield parser.take();
  return summary;
}

/** One PapaParse chunk into the app's CSV parser, record by record with each record's own errors. */
function feed(parser: CsvRowParser, chunk: PapaChunk): void {
  const errorsOf = new Map<number, PapaChunk['errors']>();
  for (const e of chunk.errors) {
    const at = e.row ?? -1;
    const list = errorsOf.get(at);
    if (list) list.push(e);
    else errorsOf.set(at, [e]);
  }
  chunk.data.forEach((data, i) => parser.record({ data, errors: errorsOf.get(i) ?? [] }));
}

/** Reads every batch of a file to the end, for the passes that only count (columns, records, the plan). */
export async function eachBatch(
  source: RowsSource,
  onBatch: (batch: ParseBatch) => void | Promise<void>,
): Promise<ParseSummary> {
  const batches = rowBatches(source);
  for (;;) {
    const next = await batches.next();
    if (next.done) return next.value;
    await onBatch(next.value);
  }
}
