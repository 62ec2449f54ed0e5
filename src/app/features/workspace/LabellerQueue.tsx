// The labeller's screen: the keyboard labelling card fed by the queue's next row, with progress ("41 of 200, about
// 12 minutes left") and what this browser keeps until the connection is back. Blind by construction: the next row
// carries no judge's answer and no one else's label, and this screen has nowhere to show one.
import type { ReactNode } from 'react';
import type { State } from '../../../contract';
import { KeyboardLabelCard } from '../../components/KeyboardLabelCard';
import type { QueueLabellingState } from '../../stores/workspaceLabelling';
import { LabellerStatus } from './LabellerStatus';
import { useLabellerQueue } from './useLabellerQueue';

const stateText = (state: State): string =>
  typeof state === 'string' ? state : JSON.stringify(state, null, 2);

export function LabellerQueue({ queueId }: { queueId: string }) {
  const { outbox, labelling, s, names, question, definition, options, row } = useLabellerQueue(queueId);
  const status = <LabellerStatus outbox={outbox} progress={s.progress?.text} />;

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

  return <LabellerWaiting status={status} state={s} onRetry={() => void labelling.getState().retry()} />;
}

interface LabellerWaitingProps {
  status: ReactNode;
  state: QueueLabellingState;
  onRetry: () => void;
}

/** No row to label just now: why (done, every row reserved, offline, an error) and what happens next. */
function LabellerWaiting({ status, state: s, onRetry }: LabellerWaitingProps) {
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
          <button type="button" onClick={onRetry}>
            Try again
          </button>
        </p>
      )}
      {s.phase === 'loading' && <p className="muted">Finding your next row…</p>}
    </section>
  );
}
