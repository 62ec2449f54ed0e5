// Maps a request-body location (an error's `loc`) to a span of an editor's text, so markers land on the right line.
import { parseTree } from 'jsonc-parser';
import type { Node as JsonNode } from 'jsonc-parser';
import type { Loc } from '../contract';

/** A 1-based line and column, as editors count them. */
export interface TextPosition {
  line: number;
  column: number;
}

/** A range of text: offsets for string work, positions for editor markers. */
export interface TextSpan {
  offset: number;
  length: number;
  start: TextPosition;
  end: TextPosition;
}

/** Where a body location points: into one of the editors, the model picker, or the request as a whole. */
export type LocArea = 'questions' | 'state' | 'model' | 'request';

/** Splits a body `loc` into the area it belongs to and the path inside that area's document. */
export function splitLoc(loc: Loc): { area: LocArea; path: (string | number)[] } {
  const [head, ...rest] = loc;
  // FastAPI servers prefix a body field's location with "body".
  if (head === 'body' && rest.length > 0) return splitLoc(rest);
  if (head === 'questions') return { area: 'questions', path: rest };
  if (head === 'state') return { area: 'state', path: rest };
  if (head === 'model') return { area: 'model', path: rest };
  return { area: 'request', path: [...loc] };
}

/** Start offsets of each line, for turning offsets into positions without rescanning the text. */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  /** The 1-based position of an offset (clamped to the text). */
  positionAt(offset: number): TextPosition {
    const at = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: at - this.starts[lo]! + 1 };
  }

  /** The offset of a 1-based position (clamped to the text). */
  offsetAt(position: TextPosition): number {
    const line = Math.max(1, Math.min(position.line, this.starts.length));
    const start = this.starts[line - 1]!;
    const next = line < this.starts.length ? this.starts[line]! - 1 : this.text.length;
    return Math.min(start + Math.max(0, position.column - 1), next);
  }

  /** A span from an offset and a length. */
  span(offset: number, length: number): TextSpan {
    return { offset, length, start: this.positionAt(offset), end: this.positionAt(offset + length) };
  }

  get lineCount(): number {
    return this.starts.length;
  }
}

/** A located span; `exact` is false when the path does not exist and the nearest enclosing part was used. */
export interface Located {
  span: TextSpan;
  exact: boolean;
}

const isContainer = (node: JsonNode): boolean => node.type === 'object' || node.type === 'array';

/** The span to mark for a value: the key of a property holding a container (one line), else key and value together. */
function markSpan(value: JsonNode): { offset: number; length: number } {
  const property = value.parent?.type === 'property' ? value.parent : undefined;
  const key = property?.children?.[0];
  if (property && key) {
    if (isContainer(value)) return { offset: key.offset, length: key.length };
    return { offset: property.offset, length: property.length };
  }
  if (isContainer(value)) return { offset: value.offset, length: 1 };
  return { offset: value.offset, length: value.length };
}

/**
 * Finds a path inside a JSON text. An error about a missing field or a field the text lacks lands on the nearest
 * part that exists (the question's name for a missing `criteria`), so every error gets a line. Null when the text
 * holds no JSON value at all.
 */
export function locateInJson(text: string, path: readonly (string | number)[]): Located | null {
  const root = parseTree(text, [], { disallowComments: false, allowTrailingComma: true });
  if (!root) return null;
  let node: JsonNode = root;
  let exact = true;
  for (const segment of path) {
    let next: JsonNode | undefined;
    if (node.type === 'object') {
      const property = node.children?.find((p) => p.children?.[0]?.value === String(segment));
      next = property?.children?.[1];
    } else if (node.type === 'array' && typeof segment === 'number') {
      next = node.children?.[segment];
    } else if (node.type === 'array' && /^\d+$/.test(String(segment))) {
      next = node.children?.[Number(segment)];
    }
    if (!next) {
      exact = false;
      break;
    }
    node = next;
  }
  const { offset, length } = markSpan(node);
  return { span: new LineIndex(text).span(offset, length), exact };
}

/** The span of the first non-blank line of a text (where an error about the whole text is shown). */
export function firstLineSpan(text: string): TextSpan {
  const index = new LineIndex(text);
  const match = /\S[^\n]*/.exec(text);
  if (!match) return index.span(0, 0);
  return index.span(match.index, match[0].trimEnd().length);
}
