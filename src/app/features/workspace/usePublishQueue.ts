// The publish panel's state: the open run read as a queue's rows, the workspace's labellers, what the form holds, and
// the publish call (on success the new queue opens and the queue list is read again).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { QueueOrderInput } from './QueueOrderFields';
import { publishedRows } from '../../../core/workspace/publish';
import { useRows } from '../../stores/rows';
import {
  publishQueueMutationOptions,
  workspaceKeys,
  workspacePeopleQueryOptions,
} from '../../queries/workspace';
import { useWorkspaceUi } from './workspaceStore';

/** What the publish form holds, each value with its setter. */
export interface PublishFields {
  name: string;
  setName: (name: string) => void;
  perRow: string;
  setPerRow: (perRow: string) => void;
  share: string;
  setShare: (share: string) => void;
  assigned: ReadonlySet<string>;
  setAssigned: (assigned: ReadonlySet<string>) => void;
  anyone: boolean;
  setAnyone: (anyone: boolean) => void;
  reservation: string;
  setReservation: (reservation: string) => void;
  order: QueueOrderInput;
  setOrder: (order: QueueOrderInput) => void;
}

function usePublishFields(): PublishFields {
  const [name, setName] = useState('');
  const [perRow, setPerRow] = useState<string>('1');
  const [share, setShare] = useState('1');
  const [assigned, setAssigned] = useState<ReadonlySet<string>>(new Set());
  const [anyone, setAnyone] = useState(true);
  const [reservation, setReservation] = useState('10');
  const [order, setOrder] = useState<QueueOrderInput>({ kind: 'random', seed: 1 });
  return {
    order,
    setOrder,
    name,
    setName,
    perRow,
    setPerRow,
    share,
    setShare,
    assigned,
    setAssigned,
    anyone,
    setAnyone,
    reservation,
    setReservation,
  };
}

function usePublishMutation() {
  const client = useQueryClient();
  return useMutation({
    ...publishQueueMutationOptions(),
    onSuccess: async (answer) => {
      useWorkspaceUi.getState().openQueue(answer.queue.id);
      await client.invalidateQueries({ queryKey: workspaceKeys.queues() });
    },
  });
}

/** The open run, its rows as a queue (null without a run), the labellers, the form and the publish call. */
export function usePublishQueue() {
  const run = useRows((s) => s.openRun);
  const version = useRows((s) => s.resultsVersion);
  const people = useQuery(workspacePeopleQueryOptions());
  const fields = usePublishFields();
  const publish = usePublishMutation();
  const plan = useMemo(
    () => (run ? publishedRows(useRows.getState().results(), run.mapping, run.questions) : null),
    // The results are read again whenever the rows store says they changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [run, version],
  );
  const labellers = (people.data?.people ?? []).filter((p) => p.role === 'labeller');
  return { run, plan, labellers, fields, publish };
}
