// Before the run: how many rows go, which do not and why, the estimated tokens and cost of the whole file, the
// model (with a warning for an alias), pacing and budget, and the button that stores the run and starts it.
import { useMemo } from 'react';
import { estimateCost, formatCost } from '../../../contract';
import type { PlanSummary } from '../../../core/rows/importSession';
import type { Pacing } from '../../../core/rows/pacer';
import { budgetFit, planDurationMs } from '../../../core/rows/runPlan';
import { formatCount, formatDuration } from './format';
import { PacingFields } from './PacingFields';
import type { SessionQuestions } from '../../stores/sessionQuestions';

export interface PlanPanelProps {
  plan: PlanSummary | null;
  planning: boolean;
  planError: string | null;
  session: SessionQuestions;
  targetLabel: string;
  /** The target's price per million input tokens: null when it states none (the cost is unknown), absent: published. */
  inputPrice?: number | null;
  pacing: Pacing;
  maxCost: number | null;
  onPacing: (pacing: Pacing) => void;
  onMaxCost: (maxCost: number | null) => void;
  onStart: () => void;
  busy: boolean;
}

/** The estimate and settings of a run about to start. */
export function PlanPanel(props: PlanPanelProps) {
  const { plan, session } = props;
  const fit = useMemo(() => (plan ? budgetFit(plan.tokens, props.maxCost) : null), [plan, props.maxCost]);
  // A target with no price has an unknown cost, said in words, never $0.00; otherwise its own price counts.
  const costOf = (tokens: number): string =>
    props.inputPrice === null ? 'unknown' : formatCost(estimateCost(tokens, props.inputPrice));
  const canStart = !!plan && plan.rowCount > 0 && !session.problem && !props.busy && !props.planning;
  return (
    <section className="rows-plan panel" aria-label="Estimate and settings" data-testid="rows.plan">
      <h2>3. Check the estimate and run</h2>
      <PlanSession session={session} targetLabel={props.targetLabel} />
      {props.planError && <p className="error-text">{props.planError}</p>}
      {props.planning && (
        <p className="muted" role="status">
          Counting tokens…
        </p>
      )}
      {plan && (
        <PlanFigures plan={plan} pacing={props.pacing} inputPrice={props.inputPrice} costOf={costOf} />
      )}
      <PacingFields
        pacing={props.pacing}
        maxCost={props.maxCost}
        onPacing={props.onPacing}
        onMaxCost={props.onMaxCost}
      />
      {plan && fit && !fit.fitsAll && (
        <p className="rows-warning" data-testid="rows.plan.budget">
          The cap covers about {formatCount(fit.rowsWithin)} of {formatCount(plan.rowCount)} rows (
          {costOf(plan.tokens.slice(0, fit.rowsWithin).reduce((a, b) => a + b, 0))}); the run stops before it
          would pass the cap.
        </p>
      )}
      <button
        type="button"
        className="primary"
        disabled={!canStart}
        onClick={props.onStart}
        data-testid="rows.start"
      >
        {props.busy ? 'Storing the rows…' : `Run ${plan ? formatCount(plan.rowCount) : ''} rows`}
      </button>
    </section>
  );
}

/** Where the rows go: the session's questions, target and model, or the session's problem that blocks the run. */
function PlanSession({ session, targetLabel }: Pick<PlanPanelProps, 'session' | 'targetLabel'>) {
  return (
    <>
      {session.problem ? (
        <p className="error-text" role="alert" data-testid="rows.plan.problem">
          {session.problem} Fix it on the main screen: every row is sent with the session&apos;s questions and
          model.
        </p>
      ) : (
        <p>
          Each row is sent with the session&apos;s {Object.keys(session.questions ?? {}).length} question(s)
          to <strong>{targetLabel}</strong>, model <code>{session.model}</code>.
        </p>
      )}
      {session.alias && (
        <p className="rows-warning" role="note" data-testid="rows.plan.alias">
          <code>{session.model}</code> is an alias: it can move to a new version in the middle of a long run,
          and stored answers are only reused for a pinned model. Pin a versioned id (such as model-1.13.0) for
          comparable results.
        </p>
      )}
    </>
  );
}

interface PlanFiguresProps extends Pick<PlanPanelProps, 'pacing' | 'inputPrice'> {
  plan: PlanSummary;
  costOf: (tokens: number) => string;
}

/** The estimate of the whole run: rows, tokens, cost, tokens per row and time at this pace. */
function PlanFigures({ plan, pacing, inputPrice, costOf }: PlanFiguresProps) {
  return (
    <dl className="rows-figures" data-testid="rows.plan.figures">
      <div>
        <dt>Rows to send</dt>
        <dd data-testid="rows.plan.rows">{formatCount(plan.rowCount)}</dd>
      </div>
      <div>
        <dt>Estimated input tokens</dt>
        <dd data-testid="rows.plan.tokens">{formatCount(plan.totalTokens)}</dd>
      </div>
      <div>
        <dt>Estimated cost</dt>
        <dd data-testid="rows.plan.cost">
          {costOf(plan.totalTokens)}
          {inputPrice === null && <span className="muted"> (the target states no price)</span>}
        </dd>
      </div>
      <div>
        <dt>Per row</dt>
        <dd>
          {formatCount(plan.rowCount ? plan.totalTokens / plan.rowCount : 0)} tokens on average, at most{' '}
          {formatCount(plan.maxRowTokens)} ({formatCount(plan.questionTokens)} of them the questions)
        </dd>
      </div>
      <div>
        <dt>Time at this pace</dt>
        <dd>{formatDuration(planDurationMs(plan, pacing))}</dd>
      </div>
    </dl>
  );
}
