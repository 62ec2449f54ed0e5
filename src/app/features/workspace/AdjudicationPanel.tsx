// Where people disagree: each row and question with different labels, who gave which, and the owner's settled label
// with a note. Figures read on "settled labels" use it; the others say they do not.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Questions } from '../../../contract';
import type { DisagreementsResponse, WorkspaceLabelValue } from '../../../contract/workspace';
import { errorText, plural } from '../../../contract/text';
import { labelText } from '../../../core/labels/values';
import { labelOptions } from '../../components/labelKeys';
import {
  adjudicateMutationOptions,
  invalidateQueue,
  queueDisagreementsQueryOptions,
} from '../../queries/workspace';

type Disagreement = DisagreementsResponse['disagreements'][number];

export function AdjudicationPanel({ queueId, questions }: { queueId: string; questions: Questions }) {
  const disagreements = useQuery(queueDisagreementsQueryOptions(queueId));
  const list = disagreements.data?.disagreements ?? [];
  const open = list.filter((d) => !d.settled).length;
  return (
    <section
      className="panel"
      aria-labelledby="workspace-adjudicate-title"
      data-testid="workspace.adjudicate"
    >
      <h3 id="workspace-adjudicate-title">Where people disagree</h3>
      {disagreements.error && (
        <p role="alert" className="error">
          {errorText(disagreements.error)}
        </p>
      )}
      <p className="muted" data-testid="workspace.adjudicate.count">
        {list.length === 0
          ? 'No disagreement so far.'
          : `${plural(list.length, 'disagreement')}, ${open} not settled yet.`}
      </p>
      <ul className="workspace-disagreements">
        {list.map((d) => (
          <DisagreementItem key={`${d.row}:${d.question}`} queueId={queueId} item={d} questions={questions} />
        ))}
      </ul>
    </section>
  );
}

function DisagreementItem({
  queueId,
  item,
  questions,
}: {
  queueId: string;
  item: Disagreement;
  questions: Questions;
}) {
  const client = useQueryClient();
  const definition = questions[item.question];
  const [value, setValue] = useState<string>(item.settled ? String(item.settled.value) : '');
  const [note, setNote] = useState(item.settled?.note ?? '');
  const settle = useMutation({
    ...adjudicateMutationOptions(queueId),
    onSuccess: () => invalidateQueue(client, queueId),
  });
  const options = definition ? labelOptions(definition) : [];
  const text = (v: WorkspaceLabelValue): string => (definition ? labelText(v, definition) : String(v));
  const testId = `workspace.adjudicate.${item.key}.${item.question}`;
  return (
    <li data-testid={testId}>
      <strong>Row {item.key}</strong>, {item.question}:{' '}
      {item.labels.map((l) => `${l.name} ${text(l.value)}`).join(' · ')}
      {item.settled && (
        <span data-testid={`${testId}.settled`}>
          {' '}
          · settled: {text(item.settled.value)}
          {item.settled.note ? ` (“${item.settled.note}”)` : ''}
        </span>
      )}
      <form
        className="workspace-settle"
        onSubmit={(event) => {
          event.preventDefault();
          const chosen = options.find((o) => String(o.value) === value);
          settle.mutate({
            row: item.row,
            question: item.question,
            value: chosen?.value ?? null,
            note: note.trim(),
          });
        }}
      >
        <select
          value={value}
          aria-label={`Settled label of row ${item.key}, ${item.question}`}
          onChange={(e) => setValue(e.currentTarget.value)}
          data-testid={`${testId}.value`}
        >
          <option value="">not settled</option>
          {options.map((o) => (
            <option key={String(o.value)} value={String(o.value)}>
              {o.text}
            </option>
          ))}
        </select>{' '}
        <input
          value={note}
          maxLength={2000}
          placeholder="why (a note)"
          aria-label={`Note on row ${item.key}, ${item.question}`}
          onChange={(e) => setNote(e.currentTarget.value)}
          data-testid={`${testId}.note`}
        />{' '}
        <button type="submit" disabled={settle.isPending} data-testid={`${testId}.save`}>
          Settle
        </button>
        {settle.error && (
          <span role="alert" className="error">
            {' '}
            {errorText(settle.error)}
          </span>
        )}
      </form>
    </li>
  );
}
