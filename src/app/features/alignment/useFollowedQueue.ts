// Follows one workspace queue for the open run: its labels (refetched on each of the queue's events, so without a
// reload) are pulled into the run's rows as each person's annotations, and every figure of the screen reads them.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { pullLabels } from '../../../core/workspace/pullLabels';
import type { PulledLabels } from '../../../core/workspace/pullLabels';
import type { RowRun } from '../../../core/rows/records';
import { queueLabelsQueryOptions } from '../../queries/workspace';
import { useQueueEvents } from '../../queries/workspaceEvents';
import type { RowsState } from '../../stores/rows';

export interface FollowedQueue {
  live: boolean;
  pulled: PulledLabels | null;
  error: Error | null;
}

export function useFollowedQueue(queueId: string, run: RowRun, rows: RowsState): FollowedQueue {
  const { live } = useQueueEvents(queueId);
  const labels = useQuery(queueLabelsQueryOptions(queueId));
  const pulled = useMemo(
    () => (labels.data ? pullLabels(labels.data.labels, rows.results(), run.questions) : null),
    // The rows are read again whenever the rows store says they changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [labels.data, rows.resultsVersion, run],
  );
  const { setLabels } = rows;
  // Each answer of the server is applied once: an edit the run cannot hold is never retried in a loop.
  const applied = useRef<unknown>(null);
  useEffect(() => {
    if (!pulled || applied.current === labels.data) return;
    applied.current = labels.data;
    if (pulled.edits.length > 0) void setLabels(pulled.edits);
  }, [pulled, labels.data, setLabels]);
  return { live, pulled, error: labels.error };
}
