// The nesting limit of request bodies: checked without recursion before any check that recurses (the schema, the
// reserved-key scan, the judge's reading of the state), so a deeply nested body is a located 422, never a stack
// overflow and a 500.
import type { FieldError, Loc } from '../../contract';

/** Deepest nesting of objects and arrays a body may have; the body itself is level 1. Far above any real rubric. */
export const MAX_NESTING_DEPTH = 64;

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | null;
  key: string | number | null;
}

const locOf = (frame: Frame): Loc => {
  const loc: Loc = [];
  for (let at: Frame | null = frame; at && at.key !== null; at = at.parent) loc.push(at.key);
  return loc.reverse();
};

/** A located error at the first object or array nested deeper than `max` levels, or null. Iterative. */
export function nestingError(body: unknown, max = MAX_NESTING_DEPTH): FieldError | null {
  const stack: Frame[] = [{ value: body, depth: 1, parent: null, key: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { value, depth } = frame;
    if (value === null || typeof value !== 'object') continue;
    if (depth > max) {
      return {
        loc: locOf(frame),
        msg: `Objects and arrays may be nested at most ${max} levels deep; this one is deeper. Flatten the value or send it as text.`,
      };
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i] as unknown, depth: depth + 1, parent: frame, key: i });
    } else {
      const entries = Object.keys(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const key = entries[i]!;
        stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, parent: frame, key });
      }
    }
  }
  return null;
}
