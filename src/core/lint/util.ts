// Small readers shared by the lint rules: they accept any JSON value and never throw.
import type { Loc } from '../../contract';
import { isRecord } from '../../contract/guards';

/** One piece of text found inside a description, with its path relative to where the search began. */
export interface TextAt {
  text: string;
  path: (string | number)[];
}

/** Every string inside a value (text, or the string values of objects and arrays, at any depth), in order. */
export function textsIn(value: unknown, path: (string | number)[] = []): TextAt[] {
  if (typeof value === 'string') return [{ text: value, path }];
  if (Array.isArray(value)) return value.flatMap((v, i) => textsIn(v, [...path, i]));
  if (isRecord(value)) return Object.entries(value).flatMap(([k, v]) => textsIn(v, [...path, k]));
  return [];
}

/** The request-body path of something inside a question. */
export const questionLoc = (name: string, ...rest: (string | number)[]): Loc => ['questions', name, ...rest];

/** A label as compared for near-duplicates: case, spaces, underscores and hyphens ignored. */
export const labelKey = (label: string): string => label.toLowerCase().replace(/[\s_-]+/g, '');

/** Words in a text, for length thresholds. */
export const wordCount = (text: string): number =>
  text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/** A value quoted for a message, shortened so a sentence stays readable. */
export function quote(value: unknown, max = 40): string {
  const s = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return `"${s.length > max ? `${s.slice(0, max - 1)}…` : s}"`;
}
