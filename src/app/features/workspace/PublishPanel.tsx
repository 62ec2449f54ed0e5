// "Publish as a queue": the rows run open on the rows screen (each row's state as the judge saw it, the questions, the
// judge's answers) becomes a workspace queue, with how many people label each row, on what share of the rows, whether
// anyone or only chosen people get them, and how long a row stays reserved for whoever has it.
import { errorText, plural } from '../../../contract/text';
import type { PublishPlan } from '../../../core/workspace/publish';
import type { RowRun } from '../../../core/rows/records';
import { overlapOf, publishProblem } from './publishChecks';
import { PublishForm } from './PublishForm';
import { usePublishQueue } from './usePublishQueue';

export interface PublishPanelProps {
  onOpenRows: () => void;
}

export function PublishPanel({ onOpenRows }: PublishPanelProps) {
  const { run, plan, labellers, fields, publish } = usePublishQueue();
  if (!run || !plan) return <NoRunToPublish onOpenRows={onOpenRows} />;

  const overlap = overlapOf(fields.perRow, fields.share);
  const minutes = Number(fields.reservation);
  const { anyone, assigned } = fields;
  const problem = publishProblem({
    overlap,
    minutes,
    anyone,
    assigned: assigned.size,
    rows: plan.rows.length,
  });
  const submit = () => {
    if (problem || typeof overlap === 'string') return;
    publish.mutate({
      name: fields.name.trim() || run.fileName,
      questions: run.questions,
      rows: plan.rows,
      overlap,
      assignment: anyone ? { kind: 'any' } : { kind: 'assigned', people: [...assigned] },
      reservationSeconds: minutes * 60,
      order: fields.order,
    });
  };
  return (
    <section
      className="panel workspace-publish"
      aria-labelledby="workspace-publish-title"
      data-testid="workspace.publish"
    >
      <h3 id="workspace-publish-title">Publish as a queue</h3>
      <PublishSummary run={run} plan={plan} active={fields.order.kind === 'active'} />
      <PublishForm
        fields={fields}
        questions={run.questions}
        labellers={labellers}
        fileName={run.fileName}
        rows={plan.rows.length}
        disabled={problem !== null || publish.isPending}
        onSubmit={submit}
      />
      {problem && (
        <p className="muted" role="status" data-testid="workspace.publish.problem">
          {problem}
        </p>
      )}
      {publish.data && (
        <p role="status" data-testid="workspace.publish.done">
          Published “{publish.data.queue.name}”: {plural(publish.data.queue.rows, 'row')}.
        </p>
      )}
      {publish.error && (
        <p role="alert" className="error" data-testid="workspace.publish.error">
          {errorText(publish.error)}
        </p>
      )}
    </section>
  );
}

/** Said in place of the form while no run is open on the rows screen. */
function NoRunToPublish({ onOpenRows }: PublishPanelProps) {
  return (
    <section className="panel" data-testid="workspace.publish.none">
      <h3>Publish rows for people to label</h3>
      <p>
        Open a run on the rows screen first: its rows, questions and the judge’s answers become the queue.{' '}
        <button type="button" className="link-button" onClick={onOpenRows}>
          Go to the rows screen
        </button>
      </p>
    </section>
  );
}

/** The run's file, rows and questions as the queue will hold them, and what labellers will not see. */
function PublishSummary({ run, plan, active }: { run: RowRun; plan: PublishPlan; active: boolean }) {
  return (
    <p className="muted" data-testid="workspace.publish.summary">
      {run.fileName}: {plural(plan.rows.length, 'row')},{' '}
      {plural(Object.keys(run.questions).length, 'question')} ({Object.keys(run.questions).join(', ')}).
      {plan.leftOut > 0 ? ` ${plural(plan.leftOut, 'row')} map to no state and are left out.` : ''} Labellers
      never see the judge’s answers; rows are handed out in {active ? 'active' : 'random'} order.
    </p>
  );
}
