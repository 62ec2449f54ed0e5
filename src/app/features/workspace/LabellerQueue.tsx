// The labeller's screen: the keyboard labelling card fed by the queue's next row, with progress ("41 of 200, about
// 12 minutes left") and what this browser keeps until the connection is back. Blind by construction: the next row
// carries no judge's answer and no one else's label, and this screen has nowhere to show one.
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import type { State } from '../../../contract';
import { plural } from '../../../contract/text';
import { KeyboardLabelCard } from '../../components/KeyboardLabelCard';
import { labelOptions } from '../../components/labelKeys';
import { appOutbox } from '../../stores/workspaceOutbox';
import { appQueueLabelling } from '../../stores/workspaceLabelling';

const stateText = (state: State): string =>
  typeof state === 'string' ? state : JSON.stringify(state, null, 2);

export function LabellerQueue({ queueId }: { queueId: string }) {
  const outbox = appOutbox();
  const labelling = appQueueLabelling(outbox);
  const s = useStore(labelling);
  const pending = useStore(outbox, (o) => o.pending);
  const problem = useStore(outbox, (o) => o.problem);
  const refused = useStore(outbox, (o) => o.refused);
  useEffect(() => {
    void labelling.getState().open(queueId);
    void outbox.getState().flush();
    return () => labelling.getState().close();
  }, [labelling, outbox, queueId]);

  const names = Object.keys(s.next?.questions ?? {});
  const question = names[s.questionIndex];
  const definition = question !== undefined ? s.next?.questions[question] : undefined;
  const options = useMemo(() => (definition ? labelOptions(definition) : []), [definition]);
  const row = s.next?.row;

  const status = (
    <>
      <p className="label-card__progress" role="status" data-testid="workspace.label.progress">
        {s.progress?.text ?? 'Finding your next row…'}
      </p>
      {pending > 0 && (
        <p className="muted" role="status" data-testid="workspace.label.pending">
          {plural(pending, 'label')} kept in this browser until the workspace acknowledges{' '}
          {pending === 1 ? 'it' : 'them'}.{problem ? ` ${problem}` : ''}
        </p>
      )}
      {refused.length > 0 && (
        <ul className="error" data-testid="workspace.label.refused">
          {refused.map((r) => (
            <li key={r.clientId}>
              Row {r.label.row + 1}, {r.label.question}: {r.refusal}{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => void outbox.getState().discard(r.clientId)}
              >
                Drop this label
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );

  if (row && definition && question !== undefined && s.phase === 'row')
    return (
      <KeyboardLabelCard
        key={`${row.index}`}
        label={`Label ${question} for row ${row.key}, one row at a time`}
        heading={
          <>
            Row {row.key}{' '}
            <span className="muted">
              · {question}
              {names.length > 1 ? ` (question ${s.questionIndex + 1} of ${names.length})` : ''}
            </span>
          </>
        }
        text={stateText(row.state)}
        options={options}
        chosen={s.given[question]}
        onGive={(value) => void labelling.getState().give(value)}
        onSkip={() => void labelling.getState().skip()}
        onBack={() => labelling.getState().back()}
        testId="workspace.label"
      >
        {status}
        {definition.instructions !== undefined && (
          <p className="muted">
            {typeof definition.instructions === 'string'
              ? definition.instructions
              : JSON.stringify(definition.instructions)}
          </p>
        )}
        {s.message && (
          <p role="alert" className="error">
            {s.message}
          </p>
        )}
      </KeyboardLabelCard>
    );

  return (
    <section className="panel" data-testid="workspace.label.idle">
      {status}
      {s.phase === 'done' && (
        <p data-testid="workspace.label.done">
          Every row of this queue that is yours to label has your label. Thank you.
        </p>
      )}
      {s.phase === 'reserved' && (
        <p data-testid="workspace.label.reserved">
          The rows left are being labelled by others just now; this page asks again in a few seconds.
        </p>
      )}
      {s.phase === 'offline' && (
        <p role="alert" data-testid="workspace.label.offline">
          The workspace cannot be reached, so the next row has to wait; your labels are kept in this browser
          and sent when the connection is back. ({s.message})
        </p>
      )}
      {s.phase === 'error' && (
        <p role="alert" className="error" data-testid="workspace.label.error">
          {s.message}{' '}
          <button type="button" onClick={() => void labelling.getState().retry()}>
            Try again
          </button>
        </p>
      )}
      {s.phase === 'loading' && <p className="muted">Finding your next row…</p>}
    </section>
  );
}
