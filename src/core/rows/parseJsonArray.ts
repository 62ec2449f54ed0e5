// A JSON array of rows: one scan finds each top-level element and its line, then each element is parsed on its own, so
// one bad element is reported with its line and the others still load.
import type { JsonValue } from '../../contract';
import { Accumulator, BOM, clip, jsonProblem } from './parseAccumulator';
import type { ParseBatch, ParseSummary } from './parseTypes';

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

/** Where the scan of a JSON array's text is, on which line, and whether the last element ran off inside a string. */
class JsonArrayCursor {
  i = 0;
  line = 1;
  unclosedString = false;
  readonly n: number;

  constructor(readonly text: string) {
    this.n = text.length;
  }

  atEnd(): boolean {
    return this.i >= this.n;
  }

  code(): number {
    return this.text.charCodeAt(this.i);
  }

  skipSpace(): void {
    const { text, n } = this;
    while (this.i < n && isSpace(text.charCodeAt(this.i))) {
      const c = text.charCodeAt(this.i);
      if (c === Ch.Newline || (c === Ch.Return && text.charCodeAt(this.i + 1) !== Ch.Newline)) this.line++;
      this.i++;
    }
  }

  /**
   * Scans one element up to the comma or closing bracket at depth 0, skipping strings: that character's index, or -1
   * when the text ends first.
   */
  scanElement(): number {
    const { text, n } = this;
    let { i, line } = this;
    let depth = 0;
    let end = -1;
    this.unclosedString = false;
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
          this.unclosedString = true;
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
    this.i = i;
    this.line = line;
    return end;
  }
}

/** One scanned element, from `start` to `end` (-1: the text's end), read into a row or an issue. */
function readElement(
  acc: Accumulator,
  cursor: JsonArrayCursor,
  start: number,
  end: number,
  startLine: number,
): void {
  const { text } = cursor;
  const slice = text.slice(start, end === -1 ? text.length : end);
  if (slice.trim() === '') {
    // "[1,,2]": a hole between commas holds no data; a trailing comma before "]" is only a typo.
    if (end !== -1 && text.charCodeAt(end) === Ch.Comma)
      acc.malformed(startLine, 'Nothing between two commas.');
    return;
  }
  try {
    acc.row(startLine, JSON.parse(slice) as JsonValue);
  } catch (error) {
    const why = cursor.unclosedString || end === -1 ? 'it is cut off' : jsonProblem(error);
    acc.malformed(startLine, `Not valid JSON (${why}): ${clip(slice)}`);
  }
}

/** Reads the elements after the opening "[" into `acc`; whether the array was closed with "]". */
function readElements(acc: Accumulator, cursor: JsonArrayCursor): boolean {
  while (!cursor.atEnd()) {
    cursor.skipSpace();
    if (cursor.atEnd()) break;
    if (cursor.code() === Ch.CloseBracket) {
      cursor.i++;
      return true;
    }
    const startLine = cursor.line;
    const start = cursor.i;
    const end = cursor.scanElement();
    readElement(acc, cursor, start, end, startLine);
    if (end === -1) return false;
    cursor.i = end + 1;
    if (cursor.text.charCodeAt(end) !== Ch.Comma) return true;
  }
  return false;
}

/** Parses a JSON array of rows, element by element, each with the line where it starts. */
export function parseJsonArrayText(input: string): ParseBatch & { summary: ParseSummary } {
  const acc = new Accumulator('json');
  const cursor = new JsonArrayCursor(input.startsWith(BOM) ? input.slice(1) : input);
  cursor.skipSpace();
  if (cursor.atEnd()) acc.fileIssue(1, 'The file is empty: a JSON file must hold an array of rows.');
  else if (cursor.code() !== Ch.OpenBracket)
    acc.fileIssue(
      cursor.line,
      'A JSON file must hold an array of rows, [ {...}, {...} ]; use JSON Lines for one row per line.',
    );
  else {
    cursor.i++;
    if (!readElements(acc, cursor))
      acc.fileIssue(cursor.line, 'The JSON array is never closed with "]": the file may be truncated.');
    else {
      cursor.skipSpace();
      if (!cursor.atEnd())
        acc.fileIssue(
          cursor.line,
          `Unexpected text after the closing "]": ${clip(cursor.text.slice(cursor.i))}`,
        );
    }
  }
  const summary = acc.summary();
  return { ...acc.take(), summary };
}
