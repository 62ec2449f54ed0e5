// One report per HTTP attempt, so the UI can show retries, delays and request ids as they happen.

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

/** How many attempts may have been billed without an answer (the caller cannot know; it must not act on them). */
export const countPossiblyBilled = (attempts: readonly AttemptReport[]): number =>
  attempts.filter((a) => a.possiblyBilled === true).length;
