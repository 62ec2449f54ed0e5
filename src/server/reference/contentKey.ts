// Cache keys by content. A short value's JSON is its own key (a Map hashes it natively, far cheaper than a digest); a
// long one is keyed by a fixed-size digest, so a cache's keys stay small however large the value is (a question with
// 1.5 MB of instructions is keyed by 29 characters, not by its text).
import { createHash } from 'node:crypto';
import type { State } from '../../contract';
import type { Lru } from './judge/lru';

/** JSON up to this many characters is its own key (V8 hashes a string of up to 16k characters in full). */
const INLINE_KEY_CHARS = 4096;
/** Bytes a cache entry costs beyond its key's characters: the entry, its links and a small value. */
const ENTRY_OVERHEAD_BYTES = 32;

/**
 * The cache key of `json` (a value's JSON text). A digest starts with '#', which no JSON text does, so a digest never
 * equals an inline key.
 */
export const contentKey = (json: string): string =>
  json.length <= INLINE_KEY_CHARS ? json : `#${createHash('sha1').update(json).digest('base64')}`;

/** What a cache entry under `key` is estimated to hold, not counting its value. */
export const keyBytes = (key: string): number => key.length * 2 + ENTRY_OVERHEAD_BYTES;

const keys = new WeakMap<object, { key: string; bytes: number }>();

/**
 * The content key of a parsed value and the length of its JSON, computed once per object: the token count and the
 * judge both key a request's questions, and the same object reaches both. A WeakMap, so a refused request's values
 * (1.5 MB of instructions, say) are not kept alive by the memo.
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

// The last text state keyed: the token count and the judge key the same string one after the other.
let lastText: { state: string; known: { key: string; bytes: number } } | null = null;

/**
 * The content key of a request's state. A text state is keyed by its JSON (quoted), so it never shares a key with an
 * object state whose JSON is that text.
 */
export function stateKeyOf(state: State): { key: string; bytes: number } {
  if (typeof state !== 'string') return keyOf(state);
  if (lastText?.state === state) return lastText.known;
  const json = JSON.stringify(state);
  const known = { key: contentKey(json), bytes: json.length };
  lastText = { state, known };
  return known;
}

/**
 * What `compute` gives for a value under a judge version, kept in `cache` by the value's content (`known`, from keyOf
 * or stateKeyOf); the entry's bytes are estimated as `perJsonChar` per character of the value's JSON.
 */
export function cachedPerVersion<V>(
  cache: Lru<string, V>,
  version: string,
  known: { key: string; bytes: number },
  perJsonChar: number,
  compute: () => V,
): V {
  const key = `${version}\u0000${known.key}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = compute();
  cache.set(key, value, keyBytes(key) + known.bytes * perJsonChar);
  return value;
}
