// Reads a picked file into an import session, streaming: PapaParse reads CSV in chunks, JSON Lines is decoded as a
// stream, a JSON array is read whole (it has to be to be an array). Progress is reported as it goes.
import Papa from 'papaparse';
import { ImportSession } from '../../core/rows/importSession';
import type { ImportSummary } from '../../core/rows/importSession';
import {
  CsvRowParser,
  JsonlRowParser,
  PAPA_CONFIG,
  quoteCharOf,
  detectFormat,
  guessDelimiter,
  parseJsonArrayText,
} from '../../core/rows/parse';
import type { ParseSummary, RowFormat } from '../../core/rows/parse';
import type { ParseOptions, ParseProgress } from './rowsParserProtocol';

/** Bytes PapaParse reads at a time: large enough to be fast, small enough for steady progress. */
const CSV_CHUNK_BYTES = 1 << 20;
/** At most one progress report per this many ms. */
const PROGRESS_EVERY_MS = 100;

/** The first bytes of a file as text, to guess its format and delimiter. */
const head = (file: Blob): Promise<string> => file.slice(0, 65_536).text();

/** Parses a file into a new import session and returns it with its summary. */
export async function readRows(
  file: File,
  options: ParseOptions,
  onProgress: (progress: ParseProgress) => void,
): Promise<{ session: ImportSession; summary: ImportSummary }> {
  const session = new ImportSession(file.name);
  const start = await head(file);
  const format: RowFormat = options.format === 'auto' ? detectFormat(file.name, start) : options.format;
  let last = 0;
  const progress = (bytes: number): void => {
    const now = Date.now();
    if (now - last < PROGRESS_EVERY_MS) return;
    last = now;
    onProgress({ bytes: Math.min(bytes, file.size), total: file.size, rows: session.rowCount });
  };

  let parsed: ParseSummary;
  if (format === 'csv') {
    const csvOptions = { header: options.header, literalQuotes: options.literalQuotes };
    const parser = new CsvRowParser(csvOptions);
    await new Promise<void>((resolve, reject) => {
      Papa.parse<string[]>(file, {
        ...PAPA_CONFIG,
        delimiter: guessDelimiter(start),
        quoteChar: quoteCharOf(csvOptions),
        chunkSize: CSV_CHUNK_BYTES,
        step: (results) => {
          parser.record({ data: results.data, errors: results.errors });
          // Rows move to the session as they come, so memory holds one copy.
          if (parser.pending() >= 1000) session.add(parser.take());
          progress(results.meta.cursor);
        },
        complete: () => resolve(),
        error: (error) => reject(new Error(`The file could not be read: ${error.message}`)),
      });
    });
    parsed = parser.finish();
    session.add(parser.take());
  } else if (format === 'jsonl') {
    const parser = new JsonlRowParser();
    const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
    let read = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(value);
      session.add(parser.take());
      read += value.length;
      progress(read);
    }
    parsed = parser.finish();
    session.add(parser.take());
  } else {
    const out = parseJsonArrayText(await file.text());
    session.add(out);
    parsed = out.summary;
  }
  onProgress({ bytes: file.size, total: file.size, rows: session.rowCount });
  return { session, summary: session.summary(parsed) };
}
