// One call to the team workspace (/api/workspace) under the contract's retry policy: the proxy's request header,
// the browser's cookie on same-origin requests (or a bearer token from a command line or a test), a per-attempt
// timeout, and the answer parsed by the endpoint's zod schema. Fails with a WorkspaceCallError.
import type { z } from 'zod';
import { RETRY_POLICY } from '../contract';
import { describeNetworkError } from './errors';
import { abortableSleep } from './evaluate';
import { delayBeforeRetry, isRetryableStatus } from './policy';
import { WORKBENCH_REQUEST_HEADER, WORKBENCH_REQUEST_VALUE } from './workbenchApi';
import {
  WorkspaceCallError,
  badResponseSentence,
  readWorkspaceError,
  statusFailureKind,
  statusSentence,
  unreachableSentence,
} from './workspaceErrors';

/** Where the workspace is and who speaks: same origin with the cookie in the browser; an origin and a token elsewhere. */
export interface WorkspaceConnection {
  /** '' in the browser (same origin); the workbench's URL in Node. */
  origin?: string;
  /** A person's token, sent as `Authorization: Bearer` (the command line, tests); the browser uses its cookie. */
  token?: string;
  fetch?: typeof fetch;
}

export interface WorkspaceCallOptions {
  signal?: AbortSignal;
  /** Retries after the first attempt; default the contract's. Calls that spend a single-use token pass 0. */
  maxRetries?: number;
  timeoutMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface WorkspaceRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** The full path, from WORKSPACE_PATHS. */
  path: string;
  query?: Record<string, string>;
  /** A JSON body, or a text body sent as it is (an imported file). */
  json?: unknown;
  text?: { body: string; type: string };
  /** What the answer should be, for the sentence when it is not. */
  what: string;
}

/** The URL of a path on a connection. */
export function workspaceUrl(
  conn: WorkspaceConnection,
  path: string,
  query?: Record<string, string>,
): string {
  const search = query ? `?${new URLSearchParams(query).toString()}` : '';
  return `${(conn.origin ?? '').replace(/\/+$/, '')}${path}${search}`;
}

/** The headers every workspace request carries. */
export function workspaceHeaders(conn: WorkspaceConnection): Record<string, string> {
  return {
    [WORKBENCH_REQUEST_HEADER]: WORKBENCH_REQUEST_VALUE,
    ...(conn.token ? { Authorization: `Bearer ${conn.token}` } : {}),
  };
}

type Attempt =
  | { type: 'response'; status: number; headers: Headers; text: string }
  | { type: 'timeout' }
  | { type: 'cancelled' }
  | { type: 'network'; error: unknown };

async function attemptOnce(
  transport: typeof fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = (): void => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await transport(url, { ...init, signal: controller.signal });
    const text = await response.text();
    return { type: 'response', status: response.status, headers: response.headers, text };
  } catch (error) {
    if (signal?.aborted) return { type: 'cancelled' };
    if (timedOut) return { type: 'timeout' };
    return { type: 'network', error };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The answer's text when it is 2xx, else a WorkspaceCallError; retries what the policy retries. */
async function send(
  conn: WorkspaceConnection,
  request: WorkspaceRequest,
  options: WorkspaceCallOptions,
): Promise<{ status: number; text: string; attempts: number }> {
  const url = workspaceUrl(conn, request.path, request.query);
  const transport = conn.fetch ?? globalThis.fetch.bind(globalThis);
  const maxRetries = options.maxRetries ?? RETRY_POLICY.maxRetries;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const headers: Record<string, string> = { ...workspaceHeaders(conn), Accept: 'application/json' };
  let body: string | undefined;
  if (request.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.text) {
    headers['Content-Type'] = request.text.type;
    body = request.text.body;
  }
  // NOTE: credentials 'same-origin' is fetch's default; said here because the cookie is how a browser signs in.
  const init: RequestInit = { method: request.method, headers, body, credentials: 'same-origin' };
  for (let attempt = 1; ; attempt++) {
    const result = await attemptOnce(
      transport,
      url,
      init,
      options.timeoutMs ?? RETRY_POLICY.defaultTimeoutMs,
      options.signal,
    );
    if (result.type === 'cancelled')
      throw new WorkspaceCallError({
        kind: 'cancelled',
        message: 'The request to the workspace was cancelled.',
        attempts: attempt,
      });
    if (result.type === 'response' && result.status >= 200 && result.status < 300)
      return { status: result.status, text: result.text, attempts: attempt };
    const retryable = result.type !== 'response' || isRetryableStatus(result.status);
    if (!retryable || attempt > maxRetries) throw failure(url, result, attempt);
    const wait = delayBeforeRetry(
      attempt - 1,
      result.type === 'response' ? result.headers : null,
      Date.now(),
      random,
    );
    try {
      await sleep(wait, options.signal);
    } catch (error) {
      throw new WorkspaceCallError({
        kind: 'cancelled',
        message: 'The request to the workspace was cancelled.',
        attempts: attempt,
        cause: error,
      });
    }
  }
}

function failure(url: string, result: Exclude<Attempt, { type: 'cancelled' }>, attempts: number) {
  if (result.type === 'timeout')
    return new WorkspaceCallError({
      kind: 'timeout',
      message: unreachableSentence(url, 'no answer in time', attempts),
      attempts,
    });
  if (result.type === 'network')
    return new WorkspaceCallError({
      kind: 'network',
      message: unreachableSentence(url, describeNetworkError(result.error).detail, attempts),
      attempts,
      cause: result.error,
    });
  const said = readWorkspaceError(result.status, result.text);
  return new WorkspaceCallError({
    kind: statusFailureKind(result.status),
    status: result.status,
    serverType: said.type,
    serverMessage: said.message,
    message: statusSentence(result.status, said.message, attempts),
    attempts,
  });
}

/** A workspace call whose JSON answer is parsed by `schema`. */
export async function workspaceJson<T>(
  conn: WorkspaceConnection,
  request: WorkspaceRequest,
  schema: z.ZodType<T>,
  options: WorkspaceCallOptions = {},
): Promise<T> {
  const { status, text, attempts } = await send(conn, request, options);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WorkspaceCallError({
      kind: 'bad_response',
      status,
      message: badResponseSentence(status, request.what, 'the body is not JSON'),
      attempts,
    });
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const problem = issue ? `${issue.path.join('.') || 'the body'}: ${issue.message}` : 'it does not match';
  throw new WorkspaceCallError({
    kind: 'bad_response',
    status,
    message: badResponseSentence(status, request.what, problem),
    attempts,
  });
}

/** A workspace call whose answer is text (an export file), returned as it came. */
export async function workspaceText(
  conn: WorkspaceConnection,
  request: WorkspaceRequest,
  options: WorkspaceCallOptions = {},
): Promise<string> {
  return (await send(conn, request, options)).text;
}
