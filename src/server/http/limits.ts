// How long a client may take to send a request, on every server this project binds (the workbench and the
// standalone reference): a connection that trickles its headers or body is closed instead of held for Node's 300 s.
import type { Server } from 'node:http';

/** Time for a request's headers to arrive. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Time for a whole request, headers and a 2 MiB body, to arrive. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Applies the header and request timeouts to `server`; Node answers 408 and closes the connection past them. */
export function limitSlowClients(server: Server): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
}
