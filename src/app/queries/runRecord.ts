// One run of a request, settled into the session's RunRecord whatever the service said: the single place where the
// app turns the client's result or typed error into what a session keeps.
import { evaluate, isEvaluationError } from '../../client';
import type { AttemptReport, ClientTarget } from '../../client';
import { CONVERSATION_FIELD } from '../../contract';
import type { Conversation, EvaluateRequest } from '../../contract';
import { newId } from '../../core/ids';
import type { AttemptRecord, RunRecord } from '../../core/session';

/** What one run needs. */
export interface RunRecordVariables {
  targetId: string;
  request: EvaluateRequest;
  signal: AbortSignal;
  /** Called as each attempt ends, so the screen can show retries while they happen. */
  onAttempt?: (attempt: AttemptRecord) => void;
}

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
  vars: RunRecordVariables,
  now: () => Date = () => new Date(),
): Promise<RunRecord> {
  // The record keeps the interface's request and the conversation beside it; the body sent carries both.
  const { [CONVERSATION_FIELD]: conversation, ...request } = vars.request as EvaluateRequest & {
    [CONVERSATION_FIELD]?: Conversation;
  };
  const base = {
    id: newId(),
    at: now().toISOString(),
    targetId: vars.targetId,
    request,
    ...(conversation ? { conversation } : {}),
  };
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
