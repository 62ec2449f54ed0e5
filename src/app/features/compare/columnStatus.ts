// A column's status in words: what its latest run did, or what its run in flight is doing now.
import type { AttemptRecord, RunRecord } from '../../../core/session';

export type ColumnPhase = 'idle' | 'running' | 'answered' | 'failed' | 'cancelled';

/** What a column header shows about its run. */
export interface ColumnStatus {
  phase: ColumnPhase;
  attempts: AttemptRecord[];
  /** The error's sentence, for failed and cancelled runs. */
  message?: string;
  /** The versioned id the service says it used. */
  resolvedModel?: string;
  latencyMs?: number;
  requestId?: string;
  /** When the run started (ISO). */
  at?: string;
  /** Some attempt may have been evaluated and billed without an answer. */
  possiblyBilled?: boolean;
}

/** The status a saved run leaves its column in; idle when the column has not run. */
export function statusFromRun(run: RunRecord | undefined): ColumnStatus {
  if (!run) return { phase: 'idle', attempts: [] };
  const base = {
    attempts: run.attempts,
    latencyMs: run.latencyMs,
    at: run.at,
    requestId: lastRequestId(run.attempts),
  };
  if (run.response) return { ...base, phase: 'answered', resolvedModel: run.response.model };
  if (run.error) {
    return {
      ...base,
      phase: run.error.kind === 'cancelled' ? 'cancelled' : 'failed',
      message: run.error.message,
      possiblyBilled: run.error.possiblyBilled,
    };
  }
  return { ...base, phase: 'idle' };
}

const lastRequestId = (attempts: readonly AttemptRecord[]): string | undefined =>
  [...attempts].reverse().find((a) => a.requestId)?.requestId;

/** One attempt in words: "attempt 2: 529, retrying in 0.9 s (req abc)". */
export function describeAttempt(a: AttemptRecord): string {
  const outcome = typeof a.outcome === 'number' ? String(a.outcome) : a.outcome;
  const retry = a.retryInMs !== undefined ? `, retrying in ${(a.retryInMs / 1000).toFixed(1)} s` : '';
  const id = a.requestId ? ` (request ${a.requestId})` : '';
  return `attempt ${a.attempt + 1}: ${outcome}${retry}${id}`;
}

/** The status line of a column: "Running, attempt 2…", "Answered by model-1.14.0 in 412 ms", "Failed: …". */
export function statusLine(s: ColumnStatus): string {
  switch (s.phase) {
    case 'idle':
      return 'Not run yet';
    case 'running': {
      const next = s.attempts.length + 1;
      const last = s.attempts[s.attempts.length - 1];
      return last ? `Running, attempt ${next} after ${describeAttempt(last)}` : 'Running…';
    }
    case 'answered':
      return `Answered by ${s.resolvedModel ?? 'the service'}${s.latencyMs !== undefined ? ` in ${formatMs(s.latencyMs)}` : ''}`;
    case 'cancelled':
      return `Cancelled${s.possiblyBilled ? ' (the request may have been evaluated and billed)' : ''}`;
    case 'failed':
      return `Failed: ${s.message ?? 'no answer'}`;
  }
}

const formatMs = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`);
