// Where generated code sends its request: the target's own service, never the workbench's proxy, and never a key.
import { RETRY_POLICY } from '../../../contract';
import { API_KEY_ENV } from '../../../core/codegen';
import type { CodegenTarget } from '../../../core/codegen';
import type { TargetInfo } from '../../queries/targets';

/** The port the instructions start the standalone reference on. */
export const LOCAL_REFERENCE_PORT = 8787;
export const LOCAL_REFERENCE_URL = `http://127.0.0.1:${LOCAL_REFERENCE_PORT}`;

/** A target as generated code sees it: the URL, and the steps that make the code run there. */
export interface CodeTarget extends CodegenTarget {
  /** Shell lines to run first (start the reference, set the key), each with a comment. */
  setup: string[];
  /** Sentences about the target the user should know before running the code. */
  notes: string[];
}

// Hosts a service answers on without TLS: loopback and unqualified local names.
const isLoopback = (host: string): boolean =>
  /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i.test(host);

/**
 * The base URL and setup for a target of /api/targets. The local target is the in-process reference, so the code
 * calls a standalone one on port 8787; a proxy target's code calls its upstream host directly with the user's key.
 */
export function codeTargetFor(target: TargetInfo | undefined): CodeTarget {
  const keyLine = (what: string): string => `export ${API_KEY_ENV}='…'   # ${what}`;
  if (!target || target.kind === 'local') {
    return {
      baseUrl: LOCAL_REFERENCE_URL,
      evaluatePath: target?.evaluatePath,
      setup: [
        `npm run reference -- --port ${LOCAL_REFERENCE_PORT}   # in the workbench folder; prints its key`,
        keyLine('the key the reference printed'),
      ],
      notes: [
        `The local target runs inside the workbench server; the code calls the standalone reference at ${LOCAL_REFERENCE_URL} instead.`,
      ],
    };
  }
  const scheme = isLoopback(target.host) ? 'http' : 'https';
  const notes = [
    `The code calls ${target.label} directly at ${scheme}://${target.host}, not through the workbench; check the scheme if it serves plain http.`,
  ];
  if (target.kind === 'gateway') {
    notes.push(
      'A gateway uses its own authentication and model ids: change the Authorization header if it expects another one.',
    );
  }
  return {
    baseUrl: `${scheme}://${target.host}`,
    evaluatePath: target.evaluatePath,
    setup: [
      keyLine(target.kind === 'gateway' ? 'your gateway key' : 'your API key, from the account console'),
    ],
    notes,
  };
}

const { maxRetries, initialBackoffMs, maxBackoffMs, jitter, maxRetryAfterMs } = RETRY_POLICY;

/** The retry policy in one sentence, as the generated code follows it. */
export const RETRY_SENTENCE =
  `Retries: at most ${maxRetries}, after 408, 429, any 5xx (529 included), network errors and timeouts; ` +
  `waits ${initialBackoffMs / 1000} s doubling up to ${maxBackoffMs / 1000} s with ${jitter * 100}% jitter, or what ` +
  `Retry-After asks (up to ${maxRetryAfterMs / 1000} s). Never after 401 or 422. A retried request may be billed twice.`;
