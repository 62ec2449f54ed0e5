// A queue's server-sent events (GET /api/workspace/queues/:id/events), read through fetch rather than EventSource:
// the same code runs in the browser (cookie) and in Node (bearer token), and every event's data is parsed by the
// contract's schema. A dropped stream reconnects after the retry policy's backoff until the caller aborts.
import { WORKSPACE_PATHS, WorkspaceEventSchema, queuePath } from '../contract/workspace';
import type { WorkspaceEvent } from '../contract/workspace';
import { abortableSleep } from './evaluate';
import { backoffDelayMs } from './policy';
import { workspaceHeaders, workspaceUrl } from './workspaceCall';
import type { WorkspaceConnection } from './workspaceCall';

export interface QueueEventsOptions {
  signal: AbortSignal;
  /** Told when the stream opens (true) and when it drops (false), so a page can say it is live. */
  onLive?: (live: boolean) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** One `event:`/`data:` block of a stream, or null for a comment or a block with no data. */
export function parseEventBlock(block: string): { event: string; data: string } | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? null : { event, data: data.join('\n') };
}

/** Reads one stream to its end, handing each valid event on; resolves when the stream ends. */
async function readStream(body: ReadableStream<Uint8Array>, onEvent: (event: WorkspaceEvent) => void) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    const blocks = buffer.split(/\r?\n\r?\n/);
    buffer = blocks.pop() ?? '';
    for (const block of blocks) {
      const parsed = parseEventBlock(block);
      if (!parsed) continue;
      try {
        const event = WorkspaceEventSchema.safeParse(JSON.parse(parsed.data));
        // An event this page does not know is no reason to stop listening.
        if (event.success) onEvent(event.data);
      } catch {
        // not JSON: a keep-alive or a newer server's event
      }
    }
  }
}

/**
 * Follows a queue's events until `signal` aborts, reconnecting after a drop (backoff grows while it keeps failing,
 * and starts over once a stream opened). Never rejects: a page reads `onLive` to say whether figures are live.
 */
export async function followQueueEvents(
  conn: WorkspaceConnection,
  queueId: string,
  onEvent: (event: WorkspaceEvent) => void,
  options: QueueEventsOptions,
): Promise<void> {
  const { signal } = options;
  const sleep = options.sleep ?? abortableSleep;
  const transport = conn.fetch ?? globalThis.fetch.bind(globalThis);
  const url = workspaceUrl(conn, queuePath(WORKSPACE_PATHS.events, queueId));
  let failures = 0;
  while (!signal.aborted) {
    try {
      const response = await transport(url, {
        headers: { ...workspaceHeaders(conn), Accept: 'text/event-stream' },
        credentials: 'same-origin',
        signal,
      });
      if (response.ok && response.body) {
        failures = 0;
        options.onLive?.(true);
        await readStream(response.body, onEvent);
      } else {
        await response.body?.cancel();
      }
    } catch {
      // dropped or refused: try again below unless the caller stopped listening
    }
    if (signal.aborted) break;
    options.onLive?.(false);
    try {
      await sleep(backoffDelayMs(Math.min(failures++, 4), Math.random), signal);
    } catch {
      break;
    }
  }
  options.onLive?.(false);
}
