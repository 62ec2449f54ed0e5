// React Query mutations of the comparison: one per column, each with its own key, so columns run in parallel and
// each shows its own status. A run always settles into a RunRecord (answered, failed or cancelled) that the caller
// saves in the session; the client's retry policy does the retrying, so React Query never retries.
import { mutationOptions } from '@tanstack/react-query';
import type { ClientTarget } from '../../client';
import type { RunRecord } from '../../core/session';
import { runToRecord } from './runRecord';
import type { RunRecordVariables } from './runRecord';

/** What one column's run needs: the session's request with this column's model. */
export type ColumnRunVariables = RunRecordVariables;

/** Key of a column's run mutation: ['compare', sessionId, columnId]; ['compare', sessionId] matches all its columns. */
export const compareRunKey = (sessionId: string, columnId?: string) =>
  columnId === undefined ? (['compare', sessionId] as const) : (['compare', sessionId, columnId] as const);

/** The mutation of one column: evaluates on the column's target through `resolveTarget` (the proxy route). */
export const compareRunMutation = (
  sessionId: string,
  columnId: string,
  resolveTarget: (targetId: string) => ClientTarget,
) =>
  mutationOptions<RunRecord, Error, ColumnRunVariables>({
    mutationKey: compareRunKey(sessionId, columnId),
    mutationFn: async (vars) => ({ ...(await runToRecord(resolveTarget(vars.targetId), vars)), columnId }),
    retry: false,
  });
