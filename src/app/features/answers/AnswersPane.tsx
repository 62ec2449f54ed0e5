// The answers side: the latest run's status and attempts, its error or its summary, and one card per question in
// question order.
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useEffect } from 'react';
import type { Loc } from '../../../contract';
import { targetsQueryOptions } from '../../queries/targets';
import { useWorkbench } from '../../stores/workbench';
import type { RunView } from '../../stores/workbench';
import { AttemptList } from './AttemptList';
import { RunErrorView } from './RunErrorView';
import { RunSummary } from './RunSummary';

// The charts (recharts and its d3 modules) load after the first paint: the editors are usable before they arrive.
const loadCards = () => import('../../components/answers/AnswerCard');
const AnswerCard = lazy(() => loadCards().then((m) => ({ default: m.AnswerCard })));

/** How the local target is named wherever its answers are shown. */
export const LOCAL_LABEL = 'Local reference (not a language model)';

export interface AnswersPaneProps {
  onReveal: (loc: Loc) => void;
}

const questionsOf = (body: unknown): [string, unknown][] => {
  const questions =
    body && typeof body === 'object' ? (body as { questions?: unknown }).questions : undefined;
  return questions && typeof questions === 'object' && !Array.isArray(questions)
    ? Object.entries(questions)
    : [];
};
const modelOf = (body: unknown): string =>
  body && typeof body === 'object' && typeof (body as { model?: unknown }).model === 'string'
    ? (body as { model: string }).model
    : '';

/** The answers pane. */
export function AnswersPane({ onReveal }: AnswersPaneProps) {
  const run = useWorkbench((s) => s.current);
  const targets = useQuery(targetsQueryOptions());
  const target = run ? targets.data?.find((t) => t.id === run.targetId) : undefined;
  // Fetch the charts while the user is still typing, so the first answers draw at once.
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 200));
    idle(() => void loadCards());
  }, []);
  const isLocal = target?.kind === 'local' || run?.targetId === 'local';
  const targetLabel = isLocal ? LOCAL_LABEL : (target?.label ?? run?.targetId ?? '');

  return (
    <section className="pane answers" aria-labelledby="answers-heading" data-testid="answers">
      <header className="pane__header">
        <h2 id="answers-heading">Answers</h2>
        {run && (
          <span
            className={`answers__target${isLocal ? ' answers__target--local' : ''}`}
            data-testid="answers.target"
            title={targetLabel}
          >
            {targetLabel}
          </span>
        )}
        {run && <RunStatus run={run} />}
      </header>
      <div
        className="pane__body pane__body--scroll answers__body"
        aria-live="polite"
        aria-busy={run?.status === 'running'}
      >
        {!run && <EmptyAnswers />}
        {run && (
          <>
            {run.replayed && (
              <p className="answers__replayed">Replayed from a saved run: not sent by this browser.</p>
            )}
            {(run.status === 'running' || run.attempts.length > 1 || run.status !== 'succeeded') && (
              <AttemptList attempts={run.attempts} running={run.status === 'running'} />
            )}
            {run.error && <RunErrorView error={run.error} targetLabel={targetLabel} onReveal={onReveal} />}
            {run.response && (
              <>
                <RunSummary
                  response={run.response}
                  sentModel={modelOf(run.body)}
                  latencyMs={run.latencyMs}
                  attempts={run.attempts.length}
                />
                <Suspense fallback={<p className="muted">Drawing the charts…</p>}>
                  <div className="answers__cards">
                    {questionsOf(run.body).map(([name, question]) => {
                      const answer = run.response!.answers[name];
                      return answer ? (
                        <AnswerCard key={name} name={name} answer={answer} question={question} />
                      ) : null;
                    })}
                  </div>
                </Suspense>
              </>
            )}
          </>
        )}
      </div>
    </section>
  );
}

function RunStatus({ run }: { run: RunView }) {
  const at = new Date(run.at);
  const time = Number.isNaN(at.getTime()) ? '' : at.toLocaleTimeString();
  const text = { running: 'Running…', succeeded: 'Answered', failed: 'Failed', cancelled: 'Cancelled' }[
    run.status
  ];
  return (
    <span
      className={`run-status run-status--${run.status}`}
      data-testid="answers.status"
      data-status={run.status}
    >
      {run.status === 'running' && <span className="spinner" aria-hidden="true" />}
      {text}
      {time && <span className="muted num"> · {time}</span>}
    </span>
  );
}

function EmptyAnswers() {
  return (
    <div className="answers__empty" data-testid="answers.empty">
      <p>
        Run the request to see one chart per question here: press <kbd>Ctrl</kbd>+<kbd>Enter</kbd> (
        <kbd>⌘</kbd>+<kbd>Enter</kbd> on a Mac) or the Run button.
      </p>
      <p className="muted">
        The local reference answers instantly and costs nothing; it is not a language model.
      </p>
    </div>
  );
}
