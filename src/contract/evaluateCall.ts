// What one evaluate call takes and gives, declared below the client so the core's runner names it without importing
// the client: src/client implements these shapes, and the core injects a function of them.
import type { EvaluateResponse } from './response';

/** How an attempt ended: an HTTP status, or no status at all. */
export type AttemptOutcome = number | 'timeout' | 'network' | 'cancelled';

/** What one attempt did. Reported through `onAttempt` as soon as it ends, and kept on results and errors. */
export interface AttemptReport {
  /** 0 for the first attempt, N for retry N (the value of its X-Retry-Count header). */
  attempt: number;
  outcome: AttemptOutcome;
  /** The server's x-request-id, when a response came back. */
  requestId?: string;
  durationMs: number;
  /** Delay before the next attempt, when one follows. */
  retryInMs?: number;
  /** One sentence about a failed attempt: the server's message, or what went wrong on the way. */
  message?: string;
  /**
   * True when this attempt may have been evaluated and billed without an answer reaching the caller: a timeout, a 5xx,
   * a connection lost after sending, a cancel in flight. Successful attempts are billed and are not flagged.
   */
  possiblyBilled?: boolean;
}

/** A service the client can call: the real one, the local reference, or the proxy's route for a target. */
export interface ClientTarget {
  /** Absolute ('http://127.0.0.1:8787') or, in the browser, relative ('/api/targets/local'). */
  baseUrl: string;
  /** Path of the evaluate route; some deployments serve it elsewhere. Default DEFAULT_EVALUATE_PATH. */
  evaluatePath?: string;
  /** Sent on every attempt, e.g. Authorization in Node or X-Workbench-Request in the browser. */
  headers?: Record<string, string>;
  /** Transport, e.g. an in-process Hono app's fetch; default globalThis.fetch. */
  fetch?: typeof fetch;
}

/** Per-call settings; clock, sleep and randomness are injectable so tests can assert exact delays. */
export interface CallOptions {
  /** Aborting stops the call at once, in flight or during a backoff sleep, with kind 'cancelled'. */
  signal?: AbortSignal;
  /** Per-attempt timeout in ms, covering the response body too. Default 30000. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 2 (3 attempts in all). */
  maxRetries?: number;
  /** Called as each attempt ends, before any backoff sleep. */
  onAttempt?: (attempt: AttemptReport) => void;
  /** Waits before a retry. Default: a timer that rejects when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Clock in epoch ms, for durations and HTTP-date Retry-After. Default Date.now. */
  now?: () => number;
  /** Uniform in [0, 1), for the backoff jitter. Default Math.random. */
  random?: () => number;
}

/** A successful evaluation and how it was reached. */
export interface EvaluateResult {
  response: EvaluateResponse;
  attempts: AttemptReport[];
  requestId?: string;
  /** Duration of the successful (last) attempt. */
  latencyMs: number;
  /** Failed attempts before the success that may have been billed too (timeouts, 5xx, dropped connections). */
  possiblyBilledAttempts: number;
}

/** Why a call failed, in one word the caller can act on. */
export type EvaluationErrorKind =
  | 'auth'
  | 'validation'
  | 'rate_limited'
  | 'quota'
  | 'not_decision_model'
  | 'overloaded'
  | 'timeout'
  | 'network'
  | 'cancelled'
  | 'http'
  | 'bad_response';
