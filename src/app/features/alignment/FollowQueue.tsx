// The owner's alignment screen reading a team workspace queue's labels (issue 40): pick the queue this run was
// published as, and each person's labels arrive in the run as they label, so kappa, the confusion matrix and "Can the
// judge replace a person?" follow without a reload. The workspace is asked nothing until the picker is opened.
import { useQuery } from '@tanstack/react-query';
import { errorText } from '../../../contract/text';
import { pulledSentence } from '../../../core/workspace/pullLabels';
import type { RowRun } from '../../../core/rows/records';
import { workspaceQueuesQueryOptions, workspaceStatusQueryOptions } from '../../queries/workspace';
import type { RowsState } from '../../stores/rows';
import { useFollowQueue } from './followQueueStore';
import { useFollowedQueue } from './useFollowedQueue';

export function FollowQueue({ run, rows }: { run: RowRun; rows: RowsState }) {
  const { byRun, picking, setPicking, follow } = useFollowQueue();
  const queueId = byRun[run.id];
  if (queueId)
    return <Followed queueId={queueId} run={run} rows={rows} onStop={() => follow(run.id, null)} />;
  if (!picking)
    return (
      <button
        type="button"
        className="link-button"
        onClick={() => setPicking(true)}
        data-testid="align.follow.open"
      >
        Labels from a team workspace queue…
      </button>
    );
  return <QueuePicker onPick={(id) => follow(run.id, id)} onClose={() => setPicking(false)} />;
}

function QueuePicker({ onPick, onClose }: { onPick: (queueId: string) => void; onClose: () => void }) {
  const status = useQuery(workspaceStatusQueryOptions());
  const owner = status.data?.me?.role === 'owner';
  const queues = useQuery({ ...workspaceQueuesQueryOptions(), enabled: owner });
  const close = (
    <button type="button" className="link-button" onClick={onClose}>
      Close
    </button>
  );
  if (status.isPending || (owner && queues.isPending))
    return <p className="muted">Asking the team workspace…</p>;
  if (!owner)
    return (
      <p className="muted" data-testid="align.follow.none">
        {status.error
          ? `The team workspace did not answer: ${errorText(status.error)} `
          : 'Only the workspace’s owner reads its labels here: start a workspace on the Team workspace screen and publish this run as a queue. '}
        {close}
      </p>
    );
  const list = queues.data?.queues ?? [];
  return (
    <p>
      <label>
        Follow the labels of{' '}
        <select
          value=""
          onChange={(e) => e.currentTarget.value && onPick(e.currentTarget.value)}
          data-testid="align.follow.queue"
        >
          <option value="">{list.length ? 'a queue…' : 'no queue published yet'}</option>
          {list.map((q) => (
            <option key={q.id} value={q.id}>
              {q.name} ({q.rows} rows)
            </option>
          ))}
        </select>
      </label>{' '}
      {close}
    </p>
  );
}

interface FollowedProps {
  queueId: string;
  run: RowRun;
  rows: RowsState;
  onStop: () => void;
}

function Followed({ queueId, run, rows, onStop }: FollowedProps) {
  const { live, pulled, error } = useFollowedQueue(queueId, run, rows);
  const queues = useQuery(workspaceQueuesQueryOptions());
  const name = queues.data?.queues.find((q) => q.id === queueId)?.name ?? queueId;
  const said = error
    ? `The queue’s labels could not be read: ${errorText(error)}`
    : !pulled
      ? 'Reading the queue’s labels…'
      : pulledSentence(pulled);
  return (
    <p className="muted" role="status" data-testid="align.follow.status">
      Following “{name}” {live ? '(live)' : '(connecting…)'}: {said}{' '}
      <button type="button" className="link-button" onClick={onStop} data-testid="align.follow.stop">
        Stop following
      </button>
    </p>
  );
}
