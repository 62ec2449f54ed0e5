// The smallest single edit that turns one text into another, so external changes keep the cursor and undo history.
import type { TextEdit } from './types';

/** One replacement covering everything between the common prefix and the common suffix of `before` and `after`. */
export function minimalEdit(before: string, after: string): TextEdit | null {
  if (before === after) return null;
  let start = 0;
  const shortest = Math.min(before.length, after.length);
  while (start < shortest && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (
    endBefore > start &&
    endAfter > start &&
    before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)
  ) {
    endBefore--;
    endAfter--;
  }
  return { offset: start, length: endBefore - start, content: after.slice(start, endAfter) };
}
