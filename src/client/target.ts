// Where a call goes: a base URL, an optional evaluate path, extra headers and an injectable transport.
import { DEFAULT_EVALUATE_PATH } from '../contract';

/** A service the client can call: the real one, the local reference, or the proxy's route for a target. */
export interface ClientTarget {
  /** Absolute ('http://127.0.0.1:8787') or, in the browser, relative ('/api/targets/local'). */
  baseUrl: string;
  /** Path of the evaluate route; some deployments serve it elsewhere. Default DEFAULT_EVALUATE_PATH. */
  evaluatePath?: string;
  /** Sent on every attempt, e.g. Authorization in Node or X-Workbench-Request in the browser. */
  headers?: Record<string, string>;
  /** Transport, e.g. an in-process Hono app's fetch; default globalThis.fetch. */
  fetch?: typeof fetch;
}

/** Joins a base URL and a path with exactly one slash between them. */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const tail = path.replace(/^\/+/, '');
  return tail === '' ? base : `${base}/${tail}`;
}

/** The evaluate URL of a target. */
export const evaluateUrl = (target: ClientTarget): string =>
  joinUrl(target.baseUrl, target.evaluatePath ?? DEFAULT_EVALUATE_PATH);
