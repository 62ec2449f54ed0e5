// The queues this person sees: the owner's every queue with everyone's progress, a labeller's own with theirs.
import { useQuery } from '@tanstack/react-query';
import type { Role } from '../../../contract/workspace';
import { errorText } from '../../../contract/text';
import { workspaceQueuesQueryOptions } from '../../queries/workspace';
import { useWorkspaceUi } from './workspaceStore';

export function QueueList({ role }: { role: Role }) {
  const queues = useQuery(workspaceQueuesQueryOptions());
  const openQueue = useWorkspaceUi((s) => s.openQueue);
  const open = useWorkspaceUi((s) => s.queueId);
  const list = queues.data?.queues ?? [];
  return (
    <section className="panel" aria-labelledby="workspace-queues-title" data-testid="workspace.queues">
      <h3 id="workspace-queues-title">{role === 'owner' ? 'Queues' : 'Your queues'}</h3>
      {queues.error && (
        <p role="alert" className="error">
          {errorText(queues.error)}
        </p>
      )}
      {queues.data && list.length === 0 && (
        <p className="muted" data-testid="workspace.queues.empty">
          {role === 'owner' ? 'No queue yet: publish a run’s rows below.' : 'No queue for you yet.'}
        </p>
      )}
      <ul className="workspace-queues">
        {list.map((q) => (
          <li key={q.id} data-testid={`workspace.queue.${q.name}`}>
            <strong>{q.name}</strong> <span className="muted">{q.progress.text}</span>{' '}
            {role === 'owner' ? (
              <>
                <button
                  type="button"
                  aria-pressed={open === q.id}
                  onClick={() => openQueue(q.id, 'figures')}
                  data-testid={`workspace.queue.${q.name}.figures`}
                >
                  Figures and disagreements
                </button>{' '}
                <button
                  type="button"
                  onClick={() => openQueue(q.id, 'label')}
                  data-testid={`workspace.queue.${q.name}.label`}
                >
                  Label it yourself
                </button>
              </>
            ) : (
              <button
                type="button"
                aria-pressed={open === q.id}
                onClick={() => openQueue(q.id, 'label')}
                data-testid={`workspace.queue.${q.name}.label`}
              >
                Label
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
