// Relaying a browser's request to a target: the target found and able to answer, the body read within the limit and
// translated for its dialect, sent with the key, cancelled when the browser leaves, and its answer read back.
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { MODELS_PATH } from '../../contract';
import { prepareEvaluate, readEvaluate } from '../targets/dialect';
import { forward, upstreamHeaders } from '../targets/forward';
import { Cancellation } from '../targets/transport';
import type { ProxyContext } from './answers';
import { answerBrowser, API_HEADERS } from './answers';
import { normalizeModelList } from './normalize';

/**
 * Reads a request body up to `limit` bytes; null when it is larger. A declared Content-Length is checked before
 * anything is read (Node's parser holds the body to it); a chunked body is counted as it streams and cut off.
 */
export async function readLimitedBody(request: Request, limit: number): Promise<Buffer<ArrayBuffer> | null> {
  const declared = request.headers.get('content-length');
  if (declared !== null && !request.headers.has('transfer-encoding')) {
    if (Number(declared) > limit) return null;
    return Buffer.from(await request.arrayBuffer());
  }
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Calls `onLeave` if the browser's connection closes before the answer is sent; returns the function that stops
 * watching. Over Node it listens on the response's socket (no AbortSignal to create); elsewhere on the request signal.
 */
function whenBrowserLeaves(c: Context, onLeave: () => void): () => void {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  if (outgoing) {
    outgoing.once('close', onLeave);
    return () => outgoing.off('close', onLeave);
  }
  const signal = c.req.raw.signal;
  signal.addEventListener('abort', onLeave, { once: true });
  return () => signal.removeEventListener('abort', onLeave);
}

const formatBytes = (n: number): string =>
  n >= 1024 * 1024
    ? `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`
    : `${Math.round(n / 1024)} KiB`;

/** Relays the browser's evaluate or models request to its target, with the key, translated for its dialect. */
export async function relay(ctx: ProxyContext, c: Context, route: 'evaluate' | 'models'): Promise<Response> {
  const { byId, logger, refuse, bodyLimitBytes, upstreamTimeoutMs } = ctx;
  const id = c.req.param('id') ?? '';
  const target = byId.get(id);
  if (!target) {
    const known = [...byId.keys()].join(', ');
    return refuse(404, 'not_found', `This workbench has no target "${id}"; it has: ${known}.`);
  }
  if (target.keyMissing !== null) {
    // 401, as for a wrong key: never retried, and a file run stops on it. Nothing is sent without the key.
    const variable = target.description.keyVar ?? '';
    return refuse(
      401,
      'key_missing',
      `The ${target.id} target has no key: set ${variable} in .env.local (or the shell) and restart the workbench server.`,
    );
  }
  const modelsPath = target.description.modelsPath;
  if (route === 'models' && modelsPath === null) {
    return refuse(
      404,
      'no_model_list',
      `The ${target.id} target offers no model list; type the model id its server documents.`,
    );
  }
  let body: Buffer<ArrayBuffer> | undefined;
  let path = MODELS_PATH;
  // The body as the browser wrote it (the interface's form), to read the target's answer against.
  let asWritten: Buffer<ArrayBuffer> | undefined;
  if (route === 'evaluate') {
    const read = await readLimitedBody(c.req.raw, bodyLimitBytes);
    if (read === null) {
      const limit = formatBytes(bodyLimitBytes);
      logger.warn(`[proxy] ${target.id}: refused a request body over ${limit}.`);
      return refuse(
        413,
        'payload_too_large',
        `The request body is over the proxy's ${limit} limit; send a smaller state.`,
      );
    }
    // Translated for a target of another dialect, envelope or model-in-path; sent as it is otherwise.
    const prepared = prepareEvaluate(target, read);
    if (!prepared.ok)
      return new Response(JSON.stringify(prepared.body), { status: prepared.status, headers: API_HEADERS });
    asWritten = read;
    body = prepared.body;
    path = prepared.path;
  }
  if (route === 'models') path = modelsPath ?? MODELS_PATH;
  const method = route === 'evaluate' ? 'POST' : 'GET';
  const cancellation = new Cancellation();
  const stopWhenBrowserLeaves = whenBrowserLeaves(c, () => cancellation.cancel());
  try {
    const outcome = await forward(target, {
      method,
      path,
      headers: upstreamHeaders(c.req.raw.headers, target),
      body,
      timeoutMs: upstreamTimeoutMs,
      cancellation,
    });
    if (route === 'models' && outcome.type === 'response' && outcome.status === 200) {
      return answerBrowser(ctx, target, `${method} ${path}`, {
        ...outcome,
        body: normalizeModelList(outcome.body),
      });
    }
    const read = asWritten ? readEvaluate(target, outcome, asWritten, logger) : outcome;
    return answerBrowser(ctx, target, `${method} ${path}`, read);
  } finally {
    stopWhenBrowserLeaves();
  }
}
