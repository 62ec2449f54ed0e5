// A queue's live figures: while the owner's view is open, the queue's server-sent events invalidate its labels,
// disagreements and figures, so they are fetched again without a reload. A burst of labels (three people labelling at
// once) becomes one refetch per quiet moment, not one per label.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { followQueueEvents } from '../../client/workspace';
import type { WorkspaceConnection } from '../../client/workspace';
import { invalidateQueue } from './workspace';
import { workspaceConnection } from './workspaceConnection';

/** At most one refetch per this many ms while events keep coming. */
const SETTLE_MS = 300;

/** Follows a queue's events while mounted; says whether the stream is open and how many events came. */
export function useQueueEvents(
  queueId: string,
  conn: WorkspaceConnection = workspaceConnection(),
): { live: boolean; events: number } {
  const client = useQueryClient();
  const [live, setLive] = useState(false);
  const [events, setEvents] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const onEvent = () => {
      setEvents((n) => n + 1);
      timer ??= setTimeout(() => {
        timer = null;
        void invalidateQueue(client, queueId);
      }, SETTLE_MS);
    };
    void followQueueEvents(conn, queueId, onEvent, {
      signal: controller.signal,
      onLive: (open) => {
        setLive(open);
        // What changed while the stream was down is fetched once it is back.
        if (open) void invalidateQueue(client, queueId);
      },
    });
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
    // The connection is the same origin in the app; a test passes one object for the life of the view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, queueId]);
  return { live, events };
}
