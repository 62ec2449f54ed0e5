import { describe, expect, it } from 'vitest';
import { LineIndex, firstLineSpan, locateInJson, splitLoc } from '../../../src/core/locate';

const TEXT = `{
  "tone": {
    "type": "boolean",
    "criteria": ["Cold", "Warm"]
  },
  "team": { "type": "choice", "criteria": { "a": null } }
}`;

describe('splitLoc', () => {
  it('sends each body location to its area', () => {
    expect(splitLoc(['questions', 'tone', 'criteria', 1])).toEqual({
      area: 'questions',
      path: ['tone', 'criteria', 1],
    });
    expect(splitLoc(['state', 'claim'])).toEqual({ area: 'state', path: ['claim'] });
    expect(splitLoc(['model'])).toEqual({ area: 'model', path: [] });
    expect(splitLoc(['metadata'])).toEqual({ area: 'request', path: ['metadata'] });
    expect(splitLoc([])).toEqual({ area: 'request', path: [] });
  });
});

describe('locateInJson', () => {
  it('marks a primitive property with its key, on its own line', () => {
    const found = locateInJson(TEXT, ['tone', 'type'])!;
    expect(found.exact).toBe(true);
    expect(found.span.start).toEqual({ line: 3, column: 5 });
    expect(TEXT.slice(found.span.offset, found.span.offset + found.span.length)).toBe('"type": "boolean"');
  });

  it('marks an array item by itself', () => {
    const found = locateInJson(TEXT, ['tone', 'criteria', 1])!;
    expect(TEXT.slice(found.span.offset, found.span.offset + found.span.length)).toBe('"Warm"');
    expect(found.span.start.line).toBe(4);
  });

  it('marks the key of a property holding an object, so the marker stays on one line', () => {
    const found = locateInJson(TEXT, ['tone'])!;
    expect(TEXT.slice(found.span.offset, found.span.offset + found.span.length)).toBe('"tone"');
    expect(found.span.end.line).toBe(2);
  });

  it('falls back to the nearest existing part for a missing field', () => {
    const found = locateInJson(TEXT, ['team', 'instructions'])!;
    expect(found.exact).toBe(false);
    expect(TEXT.slice(found.span.offset, found.span.offset + found.span.length)).toBe('"team"');
    expect(found.span.start.line).toBe(6);
  });

  it('accepts numeric strings as array indices (score levels come back as "1")', () => {
    const found = locateInJson(TEXT, ['tone', 'criteria', '0'])!;
    expect(found.exact).toBe(true);
    expect(TEXT.slice(found.span.offset, found.span.offset + found.span.length)).toBe('"Cold"');
  });

  it('still finds paths in text with a syntax error further down', () => {
    const broken = '{\n  "a": { "type": "noul" },\n  "b": { "type": \n}';
    expect(locateInJson(broken, ['a', 'type'])!.span.start.line).toBe(2);
  });

  it('returns null when there is no JSON at all', () => {
    expect(locateInJson('', ['a'])).toBeNull();
  });
});

describe('LineIndex', () => {
  it('converts offsets and positions both ways, CRLF included', () => {
    const text = 'ab\r\ncd\nef';
    const index = new LineIndex(text);
    expect(index.positionAt(0)).toEqual({ line: 1, column: 1 });
    expect(index.positionAt(4)).toEqual({ line: 2, column: 1 });
    expect(index.positionAt(8)).toEqual({ line: 3, column: 2 });
    expect(index.positionAt(999)).toEqual({ line: 3, column: 3 });
    expect(index.offsetAt({ line: 2, column: 2 })).toBe(5);
    expect(index.offsetAt({ line: 9, column: 1 })).toBe(7);
    expect(index.lineCount).toBe(3);
  });

  it('firstLineSpan skips blank lines and trailing spaces', () => {
    const span = firstLineSpan('\n\n  hello there  \nnext');
    expect(span.start).toEqual({ line: 3, column: 3 });
    expect(span.length).toBe('hello there'.length);
  });
});
