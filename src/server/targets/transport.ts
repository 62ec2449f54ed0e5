// How a target is reached: node:http(s) with keep-alive pools for services on the network, and a direct call into the
// reference app for the in-process local target. Owns the server's outgoing connections (proxy, check, command line).
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { MAX_ANSWER_BYTES } from './answers';

/**
 * Ends a call early: the proxy's timeout, or the browser going away. A plain listener list, because creating an
 * AbortController costs about 10 µs in Node 20 and the proxy would need one or two per call.
 */
export class Cancellation {
  #listeners: (() => void)[] = [];
  #cancelled = false;

  get cancelled(): boolean {
    return this.#cancelled;
  }
  /** Runs `listener` on cancel (at once if already cancelled). */
  onCancel(listener: () => void): void {
    if (this.#cancelled) listener();
    else this.#listeners.push(listener);
  }
  cancel(): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    for (const listener of this.#listeners.splice(0)) listener();
  }
}

/** One call to an upstream, as the proxy builds it: the URL comes from configuration, never from the browser. */
export interface UpstreamCall {
  method: 'GET' | 'POST';
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: Buffer<ArrayBuffer>;
  /** Cancelled on the proxy's timeout and when the browser goes away. */
  cancellation: Cancellation;
}

/** An upstream's whole answer. Header names are lower-case; repeated headers are joined with ", ". */
export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer<ArrayBuffer>;
}

/** An upstream answer over MAX_ANSWER_BYTES: the call is ended as soon as the limit is passed. */
export class AnswerTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The answer is larger than ${limit} bytes.`);
    this.name = 'AnswerTooLargeError';
  }
}

/** Sends one call and resolves with the whole answer; rejects on a connection error or an abort. */
export type Transport = (call: UpstreamCall) => Promise<UpstreamAnswer>;

// NOTE: not fetch. Node 20's fetch spent about 285 µs of CPU per forwarded call here against 55 µs for http.request
// on a keep-alive agent (bench/proxy.ts shows what that costs in requests/s). LIFO keeps the warmest sockets busy.
const httpAgent = new HttpAgent({ keepAlive: true, scheduling: 'lifo' });
const httpsAgent = new HttpsAgent({ keepAlive: true, scheduling: 'lifo' });

const flatten = (headers: IncomingHttpHeaders): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
};

// Connection errors of a pooled socket that the server closed while it sat idle.
const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Whether a connection error came after the whole request was handed to the connection: then it may have reached the
 * service (and an evaluation may have run and been billed); before, the service cannot have read a whole request.
 */
export const requestWasWritten = (error: unknown): boolean =>
  (error as { requestWritten?: unknown } | null)?.requestWritten === true;

function send(call: UpstreamCall, retryOnStaleSocket: boolean): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(call.url);
    const secure = url.protocol === 'https:';
    const headers: Record<string, string | number> = { ...call.headers };
    if (call.body) headers['content-length'] = call.body.byteLength;
    let answered = false;
    // 'finish': the request's last byte went to the connection, so the service may have read all of it.
    let written = false;
    const req = (secure ? httpsRequest : httpRequest)(
      url,
      { method: call.method, headers, agent: secure ? httpsAgent : httpAgent },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          // Held in memory until redacted: a bound, so a flood of huge answers cannot grow the process.
          if (size > MAX_ANSWER_BYTES) {
            reject(new AnswerTooLargeError(MAX_ANSWER_BYTES));
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 502,
            headers: flatten(res.headers),
            body: body as Buffer<ArrayBuffer>,
          });
        });
        res.on('error', reject);
      },
    );
    // A 101 switches the connection to another protocol: there is no HTTP answer to read, so it is reported as its
    // status (the proxy turns it into a 502) and the socket dropped.
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 101, headers: flatten(res.headers), body: Buffer.alloc(0) });
    });
    req.on('finish', () => (written = true));
    req.on('error', (error: NodeJS.ErrnoException) => {
      // Node's documented keep-alive race: a reused socket closed by the server just as it was picked. One retry on
      // a fresh socket, free only when it cannot have been evaluated: a GET (a model list), or a POST whose request
      // was not all written. A POST reset after that (a reset mid-evaluation looks the same) is the caller's to
      // retry as a possibly billed attempt, with its backoff and X-Retry-Count.
      if (
        retryOnStaleSocket &&
        req.reusedSocket &&
        !answered &&
        !call.cancellation.cancelled &&
        STALE_SOCKET.has(error.code ?? '') &&
        (call.method === 'GET' || !written)
      ) {
        send(call, false).then(resolve, reject);
      } else reject(Object.assign(error, { requestWritten: written }));
    });
    call.cancellation.onCancel(() => req.destroy(new Error('The call was cancelled.')));
    req.end(call.body);
  });
}

const utf8 = new TextDecoder('utf-8');

/** Calls a service over the network with pooled keep-alive connections; never follows a redirect. */
export const networkTransport: Transport = (call) => send(call, true);

/**
 * The same without the retry on a stale pooled socket, for a caller that counts every attempt itself: the command
 * line's client reports a reset as "may have been billed" and retries by its own policy, never behind its back.
 */
export const networkTransportOnce: Transport = (call) => send(call, false);

/**
 * A Request for an in-process Hono app, without the cost of undici's (a body stream and a followed signal per call,
 * about 17 µs): it has what Hono and the reference read (url, method, headers, signal, the body methods).
 */
class InProcessRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  #body: Buffer<ArrayBuffer> | null;
  #used = false;
  #cancellation: Cancellation;
  #signal: AbortSignal | undefined;

  constructor(call: UpstreamCall) {
    this.url = call.url;
    this.method = call.method;
    this.headers = new Headers(call.headers);
    if (call.body) this.headers.set('content-length', String(call.body.byteLength));
    this.#body = call.body ?? null;
    this.#cancellation = call.cancellation;
  }

  /** Made on first use: the reference reads it only to end a held (fault-injected) answer early. */
  get signal(): AbortSignal {
    if (!this.#signal) {
      const controller = new AbortController();
      this.#cancellation.onCancel(() => controller.abort());
      this.#signal = controller.signal;
    }
    return this.#signal;
  }

  #take(): Promise<Buffer<ArrayBuffer>> {
    if (this.#used) return Promise.reject(new TypeError('Body is unusable: it has already been read.'));
    this.#used = true;
    return Promise.resolve(this.#body ?? Buffer.alloc(0));
  }

  get bodyUsed(): boolean {
    return this.#used;
  }
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === null) return null;
    this.#used = true;
    return new Blob([this.#body]).stream();
  }
  text(): Promise<string> {
    // As fetch's Request does: UTF-8 with a leading byte-order mark dropped.
    return this.#take().then((b) => utf8.decode(b));
  }
  json(): Promise<unknown> {
    return this.text().then((t) => JSON.parse(t) as unknown);
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#take().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  }
  blob(): Promise<Blob> {
    return this.#take().then((b) => new Blob([b], { type: this.headers.get('content-type') ?? '' }));
  }
}
// `instanceof Request` holds; anything not defined above falls through to Request's own members and throws loudly.
Object.setPrototypeOf(InProcessRequest.prototype, Request.prototype);

/** Calls an in-process app (the local reference): no socket, no serialisation of the request beyond its body. */
export function inProcessTransport(fetchApp: (request: Request) => Response | Promise<Response>): Transport {
  return async (call) => {
    let response: Response;
    try {
      response = await fetchApp(new InProcessRequest(call) as unknown as Request);
    } catch (error) {
      // The app holds the whole request from the start: a dropped call (an injected reset) came after it was read.
      throw error !== null && typeof error === 'object'
        ? Object.assign(error, { requestWritten: true })
        : error;
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = Buffer.from(await response.arrayBuffer());
    if (body.byteLength > MAX_ANSWER_BYTES) throw new AnswerTooLargeError(MAX_ANSWER_BYTES);
    return { status: response.status, headers, body };
  };
}
