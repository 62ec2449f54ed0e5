// "Publish as a queue": the rows run open on the rows screen (each row's state as the judge saw it, the questions, the
// judge's answers) becomes a workspace queue, with how many people label each row, on what share of the rows, whether
// anyone or only chosen people get them, and how long a row stays reserved for whoever has it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Overlap } from '../../../contract/workspace';
import { errorText, plural } from '../../../contract/text';
import { publishedRows } from '../../../core/workspace/publish';
import { useRows } from '../../stores/rows';
import {
  publishQueueMutationOptions,
  workspaceKeys,
  workspacePeopleQueryOptions,
} from '../../queries/workspace';
import { useWorkspaceUi } from './workspaceStore';

export interface PublishPanelProps {
  onOpenRows: () => void;
}

export function PublishPanel({ onOpenRows }: PublishPanelProps) {
  const run = useRows((s) => s.openRun);
  const version = useRows((s) => s.resultsVersion);
  const people = useQuery(workspacePeopleQueryOptions());
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [perRow, setPerRow] = useState<string>('1');
  const [share, setShare] = useState('1');
  const [assigned, setAssigned] = useState<ReadonlySet<string>>(new Set());
  const [anyone, setAnyone] = useState(true);
  const [reservation, setReservation] = useState('10');
  const publish = useMutation({
    ...publishQueueMutationOptions(),
    onSuccess: async (answer) => {
      useWorkspaceUi.getState().openQueue(answer.queue.id);
      await client.invalidateQueries({ queryKey: workspaceKeys.queues() });
    },
  });
  const plan = useMemo(
    () => (run ? publishedRows(useRows.getState().results(), run.mapping, run.questions) : null),
    // The results are read again whenever the rows store says they changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [run, version],
  );
  if (!run || !plan)
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

  const labellers = (people.data?.people ?? []).filter((p) => p.role === 'labeller');
  const overlap: Overlap | string = overlapOf(perRow, share);
  const minutes = Number(reservation);
  const problem =
    typeof overlap === 'string'
      ? overlap
      : !(Number.isInteger(minutes) && minutes >= 1 && minutes <= 1440)
        ? 'Give the reservation in whole minutes, from 1 to 1440.'
        : !anyone && assigned.size === 0
          ? 'Choose at least one person, or let anyone label.'
          : plan.rows.length === 0
            ? 'No row of this run maps to a state.'
            : null;
  const submit = () => {
    if (problem || typeof overlap === 'string') return;
    publish.mutate({
      name: name.trim() || run.fileName,
      questions: run.questions,
      rows: plan.rows,
      overlap,
      assignment: anyone ? { kind: 'any' } : { kind: 'assigned', people: [...assigned] },
      reservationSeconds: minutes * 60,
      order: { kind: 'random', seed: 1 },
    });
  };
  return (
    <section
      className="panel workspace-publish"
      aria-labelledby="workspace-publish-title"
      data-testid="workspace.publish"
    >
      <h3 id="workspace-publish-title">Publish as a queue</h3>
      <p className="muted" data-testid="workspace.publish.summary">
        {run.fileName}: {plural(plan.rows.length, 'row')},{' '}
        {plural(Object.keys(run.questions).length, 'question')} ({Object.keys(run.questions).join(', ')}).
        {plan.leftOut > 0 ? ` ${plural(plan.leftOut, 'row')} map to no state and are left out.` : ''}{' '}
        Labellers never see the judge’s answers; rows are handed out in random order.
      </p>
      <form
        className="workspace-form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <label>
          Queue name{' '}
          <input
            value={name}
            placeholder={run.fileName}
            maxLength={80}
            onChange={(e) => setName(e.currentTarget.value)}
            data-testid="workspace.publish.name"
          />
        </label>
        <label>
          People per row{' '}
          <select
            value={perRow}
            onChange={(e) => setPerRow(e.currentTarget.value)}
            data-testid="workspace.publish.perRow"
          >
            {['1', '2', '3', '4', '5'].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
            <option value="everyone">everyone</option>
          </select>
        </label>
        <label>
          on this share of the rows (the rest get one person){' '}
          <input
            value={share}
            inputMode="decimal"
            size={5}
            onChange={(e) => setShare(e.currentTarget.value)}
            data-testid="workspace.publish.share"
          />
        </label>
        <fieldset>
          <legend>Who labels</legend>
          <label>
            <input
              type="radio"
              checked={anyone}
              onChange={() => setAnyone(true)}
              data-testid="workspace.publish.any"
            />{' '}
            Anyone in the workspace
          </label>
          <label>
            <input
              type="radio"
              checked={!anyone}
              onChange={() => setAnyone(false)}
              data-testid="workspace.publish.assigned"
            />{' '}
            Only these people:
          </label>
          {!anyone &&
            (labellers.length === 0 ? (
              <span className="muted"> nobody has joined yet.</span>
            ) : (
              labellers.map((p) => (
                <label key={p.id}>
                  <input
                    type="checkbox"
                    checked={assigned.has(p.id)}
                    onChange={(e) => {
                      const next = new Set(assigned);
                      if (e.currentTarget.checked) next.add(p.id);
                      else next.delete(p.id);
                      setAssigned(next);
                    }}
                  />{' '}
                  {p.name}
                </label>
              ))
            ))}
        </fieldset>
        <label>
          A row stays reserved for whoever has it for{' '}
          <input
            value={reservation}
            inputMode="numeric"
            size={4}
            onChange={(e) => setReservation(e.currentTarget.value)}
            data-testid="workspace.publish.reservation"
          />{' '}
          minutes
        </label>
        <button
          type="submit"
          disabled={problem !== null || publish.isPending}
          data-testid="workspace.publish.button"
        >
          Publish {plural(plan.rows.length, 'row')}
        </button>
      </form>
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

/** The overlap the form says, or the sentence why not. */
export function overlapOf(perRow: string, share: string): Overlap | string {
  const s = Number(share.trim());
  if (!(Number.isFinite(s) && s > 0 && s <= 1))
    return 'Give the share of rows as a number above 0, up to 1 (all rows).';
  if (perRow === 'everyone') return { perRow: 'everyone', share: s };
  const n = Number(perRow);
  return Number.isInteger(n) && n >= 1 ? { perRow: n, share: s } : 'Choose how many people label each row.';
}
