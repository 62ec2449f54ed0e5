// The main screen's run as a React Query mutation: evaluate through the proxy, settle into a RunRecord (answered,
// failed or cancelled). The client's retry policy does the retrying, so React Query never retries.
import { mutationOptions } from '@tanstack/react-query';
import type { EvaluateRequest } from '../../contract';
import type { AttemptRecord, RunRecord } from '../../core/session';
import { runToRecord } from './runRecord';
import { proxyTarget } from './targets';

/** What one run needs; the id and start time are the screen's, so the run on screen and its record match. */
export interface RunVariables {
  runId: string;
  at: string;
  targetId: string;
  /** The body to send. Usually a valid request; a body the local checks refused may be sent anyway. */
  body: unknown;
  /** True when the body met the contract, so the finished run joins the session's history. */
  valid: boolean;
  signal: AbortSignal;
  onAttempt: (attempt: AttemptRecord) => void;
}

/** Key of the workbench's run mutation. */
export const evaluateRunKey = ['evaluate', 'workbench'] as const;

/** The run mutation: resolves with the run's record whatever the service said; rejects only on a bug. */
export const evaluateRunMutation = () =>
  mutationOptions<RunRecord, Error, RunVariables>({
    mutationKey: evaluateRunKey,
    mutationFn: async (vars) => {
      // NOTE: a body sent anyway is not a valid request by type; the client sends it as JSON all the same.
      const record = await runToRecord(proxyTarget(vars.targetId), {
        targetId: vars.targetId,
        request: vars.body as EvaluateRequest,
        signal: vars.signal,
        onAttempt: vars.onAttempt,
      });
      return { ...record, id: vars.runId, at: vars.at };
    },
    retry: false,
  });
