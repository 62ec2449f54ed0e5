// Where a call goes: a base URL, an optional evaluate path, extra headers and an injectable transport.
import { DEFAULT_EVALUATE_PATH } from '../contract';
import type { ClientTarget } from '../contract/evaluateCall';

export type { ClientTarget } from '../contract/evaluateCall';

/** Joins a base URL and a path with exactly one slash between them. */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const tail = path.replace(/^\/+/, '');
  return tail === '' ? base : `${base}/${tail}`;
}

/** The evaluate URL of a target. */
export const evaluateUrl = (target: ClientTarget): string =>
  joinUrl(target.baseUrl, target.evaluatePath ?? DEFAULT_EVALUATE_PATH);
