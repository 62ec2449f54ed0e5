// The answers side: the latest run's status and attempts, its error or its summary, and one card per question in
// question order.
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useMemo } from 'react';
import type { Loc } from '../../../contract';
import { localJudgeLabel } from '../../../contract';
import { lastGoodRun } from '../../../core/lastGood';
import { targetsQueryOptions, useTargetInfo } from '../../queries/targets';
import { useChosenTargetId } from '../../stores/target';
import { useWorkbench } from '../../stores/workbench';
import { runViewOf } from '../../stores/workbench';
import type { RunView, WorkbenchState } from '../../stores/workbench';
import { AttemptList } from './AttemptList';
import { RunErrorView } from './RunErrorView';
import { RunHistory } from './RunHistory';
import { RunSummary } from './RunSummary';

// The charts (recharts and its d3 modules) load after the first paint: the editors are usable before they arrive.
const loadCards = () => import('../../components/answers/AnswerCard');
const AnswerCard = lazy(() => loadCards().then((m) => ({ default: m.AnswerCard })));

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
  const allRuns = useWorkbench((s) => s.runs);
  const showRun = useWorkbench((s) => s.showRun);
  const runs = useMemo(() => allRuns.filter((r) => r.columnId === undefined), [allRuns]);
  const lastGood = useLastGood(run, runs);
  const shown = run?.response ? run : lastGood;
  const { targets, isLocal, targetLabel } = useRunTarget(run);
  // Fetch the charts while the user is still typing, so the first answers draw at once.
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 200));
    idle(() => void loadCards());
  }, []);

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
        <RunHistory runs={runs} currentId={run?.id} disabled={run?.status === 'running'} onShow={showRun} />
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
            {run.error && lastGood ? (
              <LastAttempt
                run={run}
                error={run.error}
                lastGood={lastGood}
                targetLabel={targetLabel}
                onReveal={onReveal}
              />
            ) : (
              run.error && <RunErrorView error={run.error} targetLabel={targetLabel} onReveal={onReveal} />
            )}
            {shown?.response && (
              <RunAnswers
                run={shown}
                inputPrice={targets.data?.find((t) => t.id === shown.targetId)?.inputPrice}
                local={shown.targetId === 'local'}
              />
            )}
          </>
        )}
      </div>
    </section>
  );
}

/**
 * A cancelled or failed attempt does not hide the last good answer on the same target: it is shown under the
 * attempt's note, naming its model when that differs. Another target's answer never stands in for it.
 */
function useLastGood(run: RunView | null | undefined, runs: WorkbenchState['runs']) {
  return useMemo(() => {
    if (!run || (run.status !== 'cancelled' && run.status !== 'failed')) return undefined;
    const good = lastGoodRun(
      { id: run.id, at: run.at, targetId: run.targetId, model: modelOf(run.body), answered: false },
      runs.map((r) => ({
        id: r.id,
        at: r.at,
        targetId: r.targetId,
        model: r.request.model,
        answered: !!r.response,
        r,
      })),
    );
    return good ? runViewOf(good.r) : undefined;
  }, [run, runs]);
}

/** The run's target as the pane names it, and the target list (for the prices of the answers shown). */
function useRunTarget(run: RunView | null | undefined) {
  const targets = useQuery(targetsQueryOptions());
  const target = run ? targets.data?.find((t) => t.id === run.targetId) : undefined;
  const isLocal = target?.kind === 'local' || run?.targetId === 'local';
  // On the local target the answer says which judge gave it: the model file or the lexical judge.
  const targetLabel = isLocal
    ? localJudgeLabel(run?.response?.model ?? modelOf(run?.body))
    : (target?.label ?? run?.targetId ?? '');
  return { targets, isLocal, targetLabel };
}

interface LastAttemptProps extends Pick<AnswersPaneProps, 'onReveal'> {
  run: RunView;
  error: NonNullable<RunView['error']>;
  lastGood: RunView;
  targetLabel: string;
}

/** The failed or cancelled attempt, folded above the last good answer it does not hide. */
function LastAttempt({ run, error, lastGood, targetLabel, onReveal }: LastAttemptProps) {
  return (
    <div className="answers__last-attempt" data-testid="answers.lastAttempt">
      <details open={error.kind === 'validation'}>
        <summary>
          Last attempt: {run.status === 'cancelled' ? 'cancelled' : 'failed'}. The answer below is the last
          good one, from {formatTime(lastGood.at)}
          {modelOf(lastGood.body).trim() !== modelOf(run.body).trim()
            ? `, by ${modelOf(lastGood.body)} (this attempt asked ${modelOf(run.body) || 'no model'})`
            : ''}
          .
        </summary>
        <RunErrorView error={error} targetLabel={targetLabel} onReveal={onReveal} />
      </details>
    </div>
  );
}

/** A run's answers: its facts, then one card per question in question order. */
function RunAnswers({
  run,
  inputPrice,
  local,
}: {
  run: RunView;
  inputPrice?: number | null;
  local: boolean;
}) {
  return (
    <>
      <RunSummary
        local={local}
        response={run.response!}
        sentModel={modelOf(run.body)}
        latencyMs={run.latencyMs}
        attempts={run.attempts.length}
        {...(inputPrice !== undefined ? { inputPrice } : {})}
      />
      <Suspense fallback={<p className="muted">Drawing the charts…</p>}>
        <div className="answers__cards">
          {questionsOf(run.body).map(([name, question]) => {
            const answer = run.response!.answers[name];
            return answer ? <AnswerCard key={name} name={name} answer={answer} question={question} /> : null;
          })}
        </div>
      </Suspense>
    </>
  );
}

const formatTime = (iso: string): string => {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '' : at.toLocaleTimeString();
};

function RunStatus({ run }: { run: RunView }) {
  const time = formatTime(run.at);
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

/** What the costs on screen mean for the chosen target: the local reference bills nothing, another target may. */
function CostWords() {
  const target = useTargetInfo(useChosenTargetId());
  if (!target) return null;
  if (target.kind === 'local')
    return (
      <p className="muted" data-testid="answers.empty.cost">
        On the local reference nothing is billed: the costs shown there are the hosted service&apos;s list
        price for the same tokens. Its lexical judge answers instantly and is not a language model; a model
        file (REFERENCE_MODEL_FILE) answers as that model.
      </p>
    );
  return (
    <p className="muted" data-testid="answers.empty.cost">
      {target.inputPrice === null
        ? `${target.label} states no price, so the cost of its answers is shown as unknown.`
        : `Costs shown are estimated at ${target.label}'s price for the tokens sent; its provider bills them.`}
    </p>
  );
}

function EmptyAnswers() {
  return (
    <div className="answers__empty" data-testid="answers.empty">
      <p>
        Run the request to see one chart per question here: press <kbd>Ctrl</kbd>+<kbd>Enter</kbd> (
        <kbd>⌘</kbd>+<kbd>Enter</kbd> on a Mac) or the Run button.
      </p>
      <CostWords />
    </div>
  );
}
