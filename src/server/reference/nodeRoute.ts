// The evaluate route served straight from node:http: the same route function as the Hono app (app.ts), without
// building a fetch Request and Response around every request. Under load that wrapping cost about a fifth of the
// service's time (npm run bench reference); every other route still goes through Hono.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_EVALUATE_PATH, SYSTEMONE_PATH } from '../../contract';
import type { BodyRead, EvaluateCall, EvaluateOutcome, Reply } from './app';
import { decodeBody, MAX_BODY_BYTES, newRequestId, REQUEST_ID_HEADER, serverErrorReply } from './app';

/** Whether node:http's request is one for the evaluate route (exact path, no query: anything else goes to Hono). */
export const isEvaluateRoute = (req: IncomingMessage): boolean =>
  req.method === 'POST' && (req.url === DEFAULT_EVALUATE_PATH || req.url === SYSTEMONE_PATH);

/** Reads the body as text, refusing more than `max` bytes without keeping them (as app.ts's readBody does). */
function readNodeBody(req: IncomingMessage, max: number): Promise<BodyRead> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && req.headers['transfer-encoding'] === undefined && Number(declared) > max)
    return Promise.resolve({ ok: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size <= max) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.off('end', onEnd);
      resolve({ ok: false });
    };
    const onEnd = (): void =>
      resolve({ ok: true, text: decodeBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)) });
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
    // A client that leaves mid-body: nothing will end the read otherwise.
    req.once(
      'close',
      () => !req.complete && reject(new Error('The client went away before its body was read.')),
    );
  });
}

/** Serves one evaluate request with `evaluate` (createReference's route function). */
export async function serveEvaluate(
  evaluate: (call: EvaluateCall) => Promise<EvaluateOutcome>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let controller: AbortController | null = null;
  const signal = (): AbortSignal => {
    if (!controller) {
      const made = new AbortController();
      controller = made;
      const leave = (): void => made.abort(new DOMException('The client went away.', 'AbortError'));
      if (res.destroyed) leave();
      else res.once('close', () => !res.writableFinished && leave());
    }
    return controller.signal;
  };
  let outcome: EvaluateOutcome;
  try {
    outcome = await evaluate({
      authorization: req.headers.authorization,
      readBody: () => readNodeBody(req, MAX_BODY_BYTES),
      signal,
    });
  } catch (err) {
    // A caller that left is not a fault of the service: nothing to send, nothing to log. (Not req.destroyed: a request
    // whose body was read to its end reads as destroyed too, and its caller is waiting for the 500.)
    if (res.destroyed) return;
    outcome = serverErrorReply(err);
  }
  if (outcome.kind === 'reset') {
    req.socket.destroy();
    return;
  }
  if (outcome.kind === 'gone' || res.destroyed) return;
  write(res, outcome, !req.complete);
}

function write(res: ServerResponse, reply: Reply, bodyLeftUnread: boolean): void {
  const headers: Record<string, string | number> = {
    ...reply.headers,
    'Content-Length': Buffer.byteLength(reply.body),
    [REQUEST_ID_HEADER]: newRequestId(),
  };
  // A body refused unread (413) is not drained: the connection closes after the reply instead.
  if (bodyLeftUnread) headers.Connection = 'close';
  res.writeHead(reply.status, headers);
  res.end(reply.body);
}
