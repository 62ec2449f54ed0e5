// Cache keys by content: a fixed-size digest of a value's JSON, so a cache's keys cost the same however large the
// value is (a question with 1.5 MB of instructions is keyed by 20 bytes, not by its text).
import { createHash } from 'node:crypto';

/** A digest of `json` (a value's JSON text), for keying caches by content. */
export const contentKey = (json: string): string => createHash('sha1').update(json).digest('base64');

const keys = new WeakMap<object, { key: string; bytes: number }>();

/**
 * The content key of a parsed value and the length of its JSON, computed once per object: the token count and the
 * judge both key a request's questions, and the same object reaches both.
 */
export function keyOf(value: object): { key: string; bytes: number } {
  let known = keys.get(value);
  if (!known) {
    const json = JSON.stringify(value);
    known = { key: contentKey(json), bytes: json.length };
    keys.set(value, known);
  }
  return known;
}
