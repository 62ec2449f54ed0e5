// Forwarding one browser request to a target: a fixed set of headers out, the target's credential added, the answer
// passed back with only the headers the workbench reads.
import { joinUrl } from '../../client/target';
import type { ProxyTarget } from './targets';

/** Browser headers that reach the upstream; everything else (Authorization, Cookie, hop-by-hop...) stays behind. */
export const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'x-retry-count'] as const;

/** Upstream headers that reach the browser, besides the rate-limit family below. */
export const PASSED_RESPONSE_HEADERS = ['content-type', 'retry-after', 'retry-after-ms', 'x-request-id', 'request-id'];
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

/** The part of a proxy answer that decides its status: what the forwarding found. */
export type ForwardOutcome =
  | { type: 'response'; status: number; headers: Headers; body: Buffer<ArrayBuffer> }
  | { type: 'timeout'; timeoutMs: number }
  | { type: 'redirect'; status: number; location: string | null }
  | { type: 'unreachable'; detail: string }
  | { type: 'cancelled' };

export interface ForwardInit {
  method: 'GET' | 'POST';
  /** The upstream path: the target's evaluate path or the models path. */
  path: string;
  headers: Headers;
  body?: Uint8Array<ArrayBuffer>;
  timeoutMs: number;
  /** Aborts when the browser goes away: the upstream call stops too. */
  signal?: AbortSignal;
}

/** Headers a connection names as its own in `Connection: a, b` are hop-by-hop too. */
function connectionTokens(headers: Headers): Set<string> {
  const value = headers.get('connection');
  return new Set(value ? value.split(',').map((t) => t.trim().toLowerCase()) : []);
}

/** The headers sent upstream: the allowed browser headers, then the target's credential. */
export function upstreamHeaders(incoming: Headers, target: ProxyTarget): Headers {
  const named = connectionTokens(incoming);
  const out = new Headers();
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = incoming.get(name);
    if (value !== null && !named.has(name)) out.set(name, value);
  }
  out.set(target.credential.header, target.credential.value);
  return out;
}

/** The headers passed back to the browser: the allowed set, minus anything the upstream's Connection names. */
export function browserHeaders(upstream: Headers): Headers {
  const named = connectionTokens(upstream);
  const out = new Headers();
  upstream.forEach((value, name) => {
    if (HOP_BY_HOP.has(name) || named.has(name)) return;
    if (PASSED_RESPONSE_HEADERS.includes(name) || RATE_LIMIT_HEADER.test(name)) out.set(name, value);
  });
  return out;
}

/** Connection error codes, as Node's fetch nests them in `cause`. */
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
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, init.timeoutMs);
  const onCancel = (): void => controller.abort();
  init.signal?.addEventListener('abort', onCancel, { once: true });
  // NOTE: racing the abort also ends the wait on a transport that ignores the signal (the in-process reference).
  let rejectOnAbort: (reason: unknown) => void = () => {};
  const aborted = new Promise<never>((_, reject) => (rejectOnAbort = reject));
  aborted.catch(() => {});
  const onAbort = (): void => rejectOnAbort(new Error('aborted'));
  controller.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const request = new Request(joinUrl(target.baseUrl, init.path), {
      method: init.method,
      headers: init.headers,
      body: init.body,
      signal: controller.signal,
      // A redirect would carry the credential to wherever Location points: it is reported, never followed.
      redirect: 'manual',
    });
    const upstream = await Promise.race([target.transport(request), aborted]);
    if (upstream.status >= 300 && upstream.status < 400) {
      await upstream.body?.cancel();
      return { type: 'redirect', status: upstream.status, location: upstream.headers.get('location') };
    }
    const body = await Promise.race([upstream.arrayBuffer(), aborted]);
    return { type: 'response', status: upstream.status, headers: upstream.headers, body: Buffer.from(body) };
  } catch (error) {
    if (timedOut) return { type: 'timeout', timeoutMs: init.timeoutMs };
    if (init.signal?.aborted) return { type: 'cancelled' };
    return { type: 'unreachable', detail: networkDetail(error) };
  } finally {
    clearTimeout(timer);
    init.signal?.removeEventListener('abort', onCancel);
    controller.signal.removeEventListener('abort', onAbort);
  }
}
