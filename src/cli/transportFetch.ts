// The headless run's fetch: the client's calls go through the proxy's transports (node:http with keep-alive, or the
// in-process reference) instead of Node's fetch. Node 20's fetch registers every request that carries a signal in a
// FinalizationRegistry (nodejs/undici#4984, nodejs/node#52203), so each call's Request, signal and body streams
// outlive the young generation and pile up until a full collection: about 30 KB a row, 80 MB over 10,000 rows.
import { incoming, outgoing, PLAIN_WIRE } from '../contract';
import type { WireSettings } from '../contract';
import { Cancellation } from '../server/targets/transport';
import type { Transport } from '../server/targets/transport';

// Statuses whose Response may carry no body (the Response constructor refuses one).
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch over a proxy transport: the signal cancels the call and is let go of when the call ends. An evaluate call
 * (the one POST) is translated both ways for the target's wire by the proxy's own functions, so the command line sends
 * what the proxy would: the Decisions form, a conversation natively, the workbench's conversation field never.
 */
export function transportFetch(
  transport: Transport,
  wire: WireSettings = PLAIN_WIRE,
  normalise = false,
): typeof fetch {
  return async (input, init) => {
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== 'string')
      throw new TypeError('This fetch sends text bodies only (the client sends JSON text).');
    let url = new URL(input instanceof Request ? input.url : String(input));
    const evaluate = init?.method === 'POST' && typeof body === 'string';
    let sent = typeof body === 'string' ? body : undefined;
    if (evaluate) {
      const out = outgoing(wire, url.pathname, body);
      if (!out.ok)
        return new Response(JSON.stringify(out.body), {
          status: out.status,
          headers: { 'content-type': 'application/json' },
        });
      url = new URL(out.path, url);
      sent = out.body;
    }
    const cancellation = new Cancellation();
    const onAbort = (): void => cancellation.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = await transport({
        method: init?.method === 'POST' ? 'POST' : 'GET',
        url: url.href,
        headers,
        ...(sent !== undefined ? { body: Buffer.from(sent, 'utf8') } : {}),
        cancellation,
      });
      if (answer.status < 200 || answer.status > 599)
        throw new TypeError(`fetch failed: the server answered with status ${answer.status}`);
      // The answer in the interface's form, read against the request as the client wrote it.
      const read = evaluate
        ? incoming(
            wire,
            { status: answer.status, headers: answer.headers, body: answer.body.toString('utf8') },
            body,
            {
              normalise,
            },
          ).body
        : null;
      return new Response(NULL_BODY.has(answer.status) ? null : (read ?? answer.body), {
        status: answer.status,
        headers: answer.headers,
      });
    } catch (error) {
      // As fetch does: an aborted call rejects with the signal's reason, whatever the transport saw.
      if (signal?.aborted) throw signal.reason;
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  };
}
