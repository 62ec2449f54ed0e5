// The proxy's answers to the browser: its own refusals (JSON, one sentence, never cached, redacted), and a target's
// answer passed on with every key redacted, or the sentence for an answer that never came.
import type { ForwardOutcome } from '../targets/forward';
import { browserHeaders } from '../targets/forward';
import type { ProxyTarget } from '../targets/target';
import { proxyRequestId, upstreamFailure } from '../targets/answers';
import type { Logger } from './log';
import { redactBytes, REDACTED } from './log';

/** The error types of the proxy's own answers, in the reference service's body shape. */
export type ProxyErrorType =
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'bad_gateway'
  | 'gateway_timeout'
  | 'server_error'
  | 'key_missing'
  | 'no_model_list'
  | 'invalid_request';

/** Headers of every JSON answer the proxy makes itself. */
export const API_HEADERS = {
  'content-type': 'application/json',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/** An answer the proxy makes itself: JSON, one sentence, never cached. */
export function proxyError(
  status: number,
  errorType: ProxyErrorType,
  message: string,
  headers?: Record<string, string>,
): Response {
  return new Response(JSON.stringify({ detail: { error_type: errorType, message } }), {
    status,
    // Its own id, so a refusal can be found in the server's log like any upstream answer.
    headers: { ...API_HEADERS, 'x-request-id': proxyRequestId(), ...headers },
  });
}

/** The body with every secret replaced, or the same buffer when none occurs (the usual case: no copy). */
export const redactBody = (body: Buffer<ArrayBuffer>, secrets: readonly string[]): Buffer<ArrayBuffer> =>
  redactBytes(body, secrets);

/** What the proxy's routes share: the targets by id, the keys to redact, the log, and the redacted refusal. */
export interface ProxyContext {
  byId: ReadonlyMap<string, ProxyTarget>;
  secrets: readonly string[];
  logger: Logger;
  upstreamTimeoutMs: number;
  bodyLimitBytes: number;
  /** A refusal whose message passes the same redaction as forwarded bodies. */
  refuse(
    status: number,
    errorType: ProxyErrorType,
    message: string,
    headers?: Record<string, string>,
  ): Response;
}

/** The browser's answer to `what` sent to `target`, from what came back (or did not). */
export function answerBrowser(
  ctx: ProxyContext,
  target: ProxyTarget,
  what: string,
  outcome: ForwardOutcome,
): Response {
  const { logger, refuse } = ctx;
  const where = `the ${target.id} target (${target.host})`;
  switch (outcome.type) {
    case 'response':
      return passOn(ctx, target, what, outcome);
    case 'timeout': {
      const seconds = Number((outcome.timeoutMs / 1000).toFixed(3));
      logger.error(`[proxy] ${target.id}: ${what} got no answer within ${seconds} s.`);
      return refuse(
        504,
        'gateway_timeout',
        `No answer came from ${where} within ${seconds} s; the evaluation may have run and been billed, so treat it as unknown.`,
      );
    }
    case 'redirect': {
      const to =
        outcome.location && URL.canParse(outcome.location)
          ? new URL(outcome.location).host
          : 'another address';
      logger.error(
        `[proxy] ${target.id}: ${what} was redirected (${outcome.status}) to ${to}; not followed.`,
      );
      return refuse(
        502,
        'bad_gateway',
        `${where} answered with a redirect (${outcome.status}) to ${to}; the proxy does not follow redirects with a key, so set the target's URL to the final address.`,
      );
    }
    case 'unreachable':
      logger.error(
        `[proxy] ${target.id}: ${what} failed${outcome.sent ? ' after the request was sent' : ''}: ${outcome.detail}`,
      );
      return refuse(
        502,
        'bad_gateway',
        outcome.sent
          ? `The connection to ${where} was dropped after the request was sent (${outcome.detail})${what.startsWith('POST') ? '; the evaluation may have run and been billed' : ''}.`
          : `Could not reach ${where} (${outcome.detail}); check its URL and that the service is up.`,
      );
    case 'failed': {
      const message = upstreamFailure(where, outcome);
      logger.error(`[proxy] ${target.id}: ${what}: ${message}`);
      return refuse(502, 'bad_gateway', message);
    }
    case 'cancelled':
      // The browser went away: nobody reads this answer.
      return new Response(null, { status: 499 });
  }
}

/** A target's answer passed on: its headers and body with every key redacted, a refusal or failure logged. */
function passOn(
  { secrets, logger }: ProxyContext,
  target: ProxyTarget,
  what: string,
  outcome: Extract<ForwardOutcome, { type: 'response' }>,
): Response {
  const headers = browserHeaders(outcome.headers);
  headers['cache-control'] = 'no-store';
  headers['x-content-type-options'] = 'nosniff';
  for (const [name, value] of Object.entries(headers)) {
    if (secrets.some((s) => s !== '' && value.includes(s))) headers[name] = REDACTED;
  }
  const body = redactBody(outcome.body, secrets);
  if (body !== outcome.body)
    logger.warn(`[proxy] ${target.id}: the answer to ${what} held a key; it was redacted.`);
  if (outcome.status === 401 || outcome.status === 403 || outcome.status >= 500) {
    const id = outcome.headers['x-request-id'];
    logger.warn(`[proxy] ${target.id}: ${what} -> ${outcome.status}${id ? ` (x-request-id ${id})` : ''}`);
  }
  return new Response(body.byteLength === 0 ? null : body, { status: outcome.status, headers });
}
