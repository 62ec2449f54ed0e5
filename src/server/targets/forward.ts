// Forwarding one browser request to a target: a fixed set of headers out, the target's credential added, the answer
// passed back with only the headers the workbench reads.
import { joinUrl } from '../../client/target';
import type { AnswerProblem } from './answers';
import { decodedBody, passableStatus } from './answers';
import type { ProxyTarget } from './target';
import type { Cancellation } from './transport';
import { AnswerTooLargeError, requestWasWritten } from './transport';

/** Browser headers that reach the upstream; everything else (Authorization, Cookie, hop-by-hop...) stays behind. */
export const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'x-retry-count'] as const;

/** Upstream headers that reach the browser, besides the rate-limit family below. */
export const PASSED_RESPONSE_HEADERS = new Set([
  'content-type',
  'retry-after',
  'retry-after-ms',
  'x-request-id',
  'request-id',
]);
// Rate-limit budgets (x-ratelimit-remaining-requests, ratelimit-reset...) help a user pace a run; they carry no secret.
const RATE_LIMIT_HEADER = /^(x-)?ratelimit-[a-z0-9-]+$/;

/** RFC 9110 hop-by-hop headers: they describe one connection and are never forwarded, whatever else a list says. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** What forwarding found: an answer, or why there is none. */
export type ForwardOutcome =
  | { type: 'response'; status: number; headers: Record<string, string>; body: Buffer<ArrayBuffer> }
  | { type: 'timeout'; timeoutMs: number }
  | { type: 'redirect'; status: number; location: string | null }
  /** `sent`: the connection failed after the whole request was written, so the upstream may have acted on it. */
  | { type: 'unreachable'; detail: string; sent: boolean }
  | ({ type: 'failed' } & AnswerProblem)
  | { type: 'cancelled' };

export interface ForwardInit {
  method: 'GET' | 'POST';
  /** The upstream path: the target's evaluate path or the models path. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer<ArrayBuffer>;
  timeoutMs: number;
  /** Cancelled when the browser goes away: the upstream call stops too. */
  cancellation: Cancellation;
}

const NONE = new Set<string>();

/** Header names a `Connection: a, b` value marks as hop-by-hop for this one connection. */
function connectionTokens(value: string | null | undefined): Set<string> {
  // The usual values name no header; skip the split for them.
  if (!value || value === 'keep-alive' || value === 'close') return NONE;
  return new Set(value.split(',').map((t) => t.trim().toLowerCase()));
}

/** The headers sent upstream: the allowed browser headers, then the target's credential. */
export function upstreamHeaders(incoming: Headers, target: ProxyTarget): Record<string, string> {
  const named = connectionTokens(incoming.get('connection'));
  // An encoded answer could hide a key from the redaction below; identity keeps the body readable.
  const out: Record<string, string> = { 'accept-encoding': 'identity' };
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = incoming.get(name);
    if (value !== null && !named.has(name)) out[name] = value;
  }
  // A keyless target (a local llama.cpp or Ollama) sends no credential at all.
  if (target.credential) out[target.credential.header.toLowerCase()] = target.credential.value;
  return out;
}

/** The headers passed back to the browser: the allowed set, minus anything the upstream's Connection names. */
export function browserHeaders(upstream: Record<string, string>): Record<string, string> {
  const named = connectionTokens(upstream.connection);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    if (PASSED_RESPONSE_HEADERS.has(name) || RATE_LIMIT_HEADER.test(name)) out[name] = value;
  }
  return out;
}

/** A connection error's code (ECONNREFUSED...), as Node nests it in `cause`, or its message. */
function networkDetail(error: unknown): string {
  for (let at: unknown = error, depth = 0; at && typeof at === 'object' && depth < 4; depth++) {
    const { code, cause } = at as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    at = cause;
  }
  return error instanceof Error ? error.message : 'connection failed';
}

/** Sends one request to the target; never throws. The timeout covers the whole answer, body included. */
export async function forward(target: ProxyTarget, init: ForwardInit): Promise<ForwardOutcome> {
  const { cancellation } = init;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    cancellation.cancel();
  }, init.timeoutMs);
  // NOTE: racing the cancel also ends the wait on a transport that ignores it.
  const cancelled = new Promise<never>((_, reject) =>
    cancellation.onCancel(() => reject(new Error('cancelled'))),
  );
  cancelled.catch(() => {});
  try {
    const answer = await Promise.race([
      target.transport({
        method: init.method,
        url: joinUrl(target.baseUrl, init.path),
        headers: init.headers,
        body: init.body,
        cancellation,
      }),
      cancelled,
    ]);
    // A redirect would carry the credential to wherever Location points: it is reported, never followed.
    if (answer.status >= 300 && answer.status < 400) {
      return { type: 'redirect', status: answer.status, location: answer.headers.location ?? null };
    }
    if (!passableStatus(answer.status)) return { type: 'failed', problem: 'status', status: answer.status };
    const decoded = decodedBody(answer.headers['content-encoding'], answer.body);
    if (!('body' in decoded)) return { type: 'failed', ...decoded };
    return { type: 'response', status: answer.status, headers: answer.headers, body: decoded.body };
  } catch (error) {
    if (error instanceof AnswerTooLargeError)
      return { type: 'failed', problem: 'too_large', limit: error.limit };
    if (timedOut) return { type: 'timeout', timeoutMs: init.timeoutMs };
    if (cancellation.cancelled) return { type: 'cancelled' };
    return { type: 'unreachable', detail: networkDetail(error), sent: requestWasWritten(error) };
  } finally {
    clearTimeout(timer);
  }
}
