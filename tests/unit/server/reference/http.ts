// Helpers for the reference service's HTTP tests: a served instance per test file and plain fetch calls.
import type { ReferenceOptions } from '../../../../src/server/reference/options';
import type { RunningReference } from '../../../../src/server/reference/serve';
import { serveReference } from '../../../../src/server/reference/serve';

export const KEY = 'local-dev-key';

/** A response read once: status, headers and the body parsed as JSON (or null when it is not JSON). */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

async function read(res: Response): Promise<Reply> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** POSTs a body (an object is sent as JSON, a string as it is) to /v1/evaluate. */
export async function evaluate(
  base: string,
  body: unknown,
  init: { key?: string | null; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Reply> {
  const key = init.key === undefined ? KEY : init.key;
  const res = await fetch(`${base}/v1/evaluate`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...init.headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: init.signal,
  });
  return read(res);
}

/** Any request to the served reference. */
export async function call(base: string, path: string, init: RequestInit = {}): Promise<Reply> {
  return read(await fetch(`${base}${path}`, init));
}

/** Starts a reference on a free loopback port; the returned `stop` closes it. */
export async function start(options: Partial<ReferenceOptions> = {}): Promise<RunningReference> {
  return serveReference({ port: 0, ...options });
}

/** The contract's error body's field errors, for assertions. */
export function fieldErrors(reply: Reply): Array<{ loc: Array<string | number>; msg: string }> {
  const detail = (reply.json as { detail?: { errors?: Array<{ loc: Array<string | number>; msg: string }> } })
    .detail;
  return detail?.errors ?? [];
}
