// React Query mutations of the comparison: one per column, each with its own key, so columns run in parallel and
// each shows its own status. A run always settles into a RunRecord (answered, failed or cancelled) that the caller
// saves in the session; the client's retry policy does the retrying, so React Query never retries.
import { mutationOptions } from '@tanstack/react-query';
import { evaluate, isEvaluationError } from '../../client';
import type { AttemptReport, ClientTarget } from '../../client';
import type { EvaluateRequest } from '../../contract';
import { newId } from '../../core/ids';
import type { AttemptRecord, RunRecord } from '../../core/session';

/** What one column's run needs. */
export interface ColumnRunVariables {
  targetId: string;
  /** The session's request with this column's model. */
  request: EvaluateRequest;
  signal: AbortSignal;
  /** Called as each attempt ends, so the header can show retries while they happen. */
  onAttempt?: (attempt: AttemptRecord) => void;
}

/** Key of a column's run mutation: ['compare', sessionId, columnId]; ['compare', sessionId] matches all its columns. */
export const compareRunKey = (sessionId: string, columnId?: string) =>
  columnId === undefined ? (['compare', sessionId] as const) : (['compare', sessionId, columnId] as const);

/** The session's record of an attempt (the client's report without its billing hint, which the error carries). */
function attemptRecord(a: AttemptReport): AttemptRecord {
  const { possiblyBilled: _billed, ...rest } = a;
  return rest;
}

/**
 * Runs a request and settles into a RunRecord: the response, or the error as one sentence with its status, field
 * errors and billing doubt. Never rejects, so a failed or cancelled column is saved like an answered one.
 */
export async function runToRecord(
  target: ClientTarget,
  vars: ColumnRunVariables,
  now: () => Date = () => new Date(),
): Promise<RunRecord> {
  const base = { id: newId(), at: now().toISOString(), targetId: vars.targetId, request: vars.request };
  const onAttempt = vars.onAttempt;
  try {
    const result = await evaluate(target, vars.request, {
      signal: vars.signal,
      ...(onAttempt ? { onAttempt: (a: AttemptReport) => onAttempt(attemptRecord(a)) } : {}),
    });
    return {
      ...base,
      response: result.response,
      latencyMs: result.latencyMs,
      attempts: result.attempts.map(attemptRecord),
    };
  } catch (error) {
    if (!isEvaluationError(error)) throw error; // a bug, not a run outcome: let React Query surface it
    const duration = error.attempts.reduce((sum, a) => sum + a.durationMs, 0);
    return {
      ...base,
      error: {
        kind: error.kind,
        message: error.message,
        ...(error.status !== undefined ? { status: error.status } : {}),
        fieldErrors: error.fieldErrors,
        possiblyBilled: error.possiblyBilled,
      },
      latencyMs: duration,
      attempts: error.attempts.map(attemptRecord),
    };
  }
}

/** The mutation of one column: evaluates on the column's target through `resolveTarget` (the proxy route). */
export const compareRunMutation = (
  sessionId: string,
  columnId: string,
  resolveTarget: (targetId: string) => ClientTarget,
) =>
  mutationOptions<RunRecord, Error, ColumnRunVariables>({
    mutationKey: compareRunKey(sessionId, columnId),
    mutationFn: (vars) => runToRecord(resolveTarget(vars.targetId), vars),
    retry: false,
  });
