// The owner's view of one queue: live figures, where people disagree, and labels in and out. The queue's events keep
// all three current while this view is open.
import { useQuery } from '@tanstack/react-query';
import { useQueueEvents } from '../../queries/workspaceEvents';
import { workspaceQueuesQueryOptions } from '../../queries/workspace';
import { AdjudicationPanel } from './AdjudicationPanel';
import { FiguresPanel } from './FiguresPanel';
import { InteropPanel } from './InteropPanel';

export function OwnerQueue({ queueId }: { queueId: string }) {
  const queue = useQuery({
    ...workspaceQueuesQueryOptions(),
    select: (data) => data.queues.find((q) => q.id === queueId),
  }).data;
  const { live } = useQueueEvents(queueId);
  if (!queue) return null;
  return (
    <div className="workspace-owner-queue" data-testid="workspace.owner.queue">
      <h3>
        {queue.name}{' '}
        <span className="muted" data-testid="workspace.owner.progress">
          {queue.progress.text}
        </span>
      </h3>
      <FiguresPanel queueId={queueId} live={live} questions={queue.questions} />
      <AdjudicationPanel queueId={queueId} questions={queue.questions} />
      <InteropPanel queueId={queueId} name={queue.name} />
    </div>
  );
}
