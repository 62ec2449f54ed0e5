// Stable keys for stored answers: the same state, questions, pinned model and target always give the same key, so a
// row that was already answered (in this run, an earlier one, or another file) is reused instead of billed again.
import { isVersionedId } from '../../contract';
import type { JsonValue, Questions, State } from '../../contract';

/** JSON with object keys sorted at every depth: equal values give equal text, whatever order their keys came in. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    // undefined (absent optional fields) reads as null, like JSON.stringify inside arrays.
    return value === undefined ? 'null' : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

const hex = (bytes: ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** SHA-256 of a text, in hex, through Web Crypto (browsers, workers and Node 20 alike). */
export async function sha256Hex(text: string): Promise<string> {
  return hex(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** What identifies an answer. The target is part of it: the local reference and a real service answer differently. */
export interface AnswerIdentity {
  targetId: string;
  /** A versioned model id: the one that answered (the response's `model`) or the one pinned in the request. */
  model: string;
  state: State;
  questions: Questions;
}

/** The text hashed for a key; versioned so a future change of the recipe cannot match old keys by accident. */
export const dedupText = (id: AnswerIdentity): string =>
  canonicalJson({ v: 1, target: id.targetId, model: id.model, state: id.state as JsonValue, questions: id.questions });

/** The dedup key of an answer: SHA-256 of the canonical identity. */
export const dedupKey = (id: AnswerIdentity): Promise<string> => sha256Hex(dedupText(id));

/**
 * The model under which stored answers may be looked up before sending, or null when the model is an alias: an alias
 * can move to a new version at any time, so only a pinned (versioned) id matches earlier answers.
 */
export const pinnedModel = (model: string): string | null => (isVersionedId(model.trim()) ? model.trim() : null);
