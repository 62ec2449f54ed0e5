// Live cost under the editors: input tokens of the state and each question as the user types, against the 32k and 64k
// limits, and the estimated price of one Run. Counts come from the same tokenizer the reference bills with.
import { useState } from 'react';
import { PRICE_PER_MILLION_INPUT_TOKENS, estimateCost, priceNote } from '../../../contract';
import { formatCost } from '../../../contract';
import { formatTokens } from '../../../core/answerSeries';
import type { CostBreakdown, LimitUse } from '../../../core/cost';
import { useLiveCost } from './useLiveCost';
import './cost.css';
import { LOCAL_COST_WORDS } from '../../../core/words';

export interface CostMeterProps {
  /** State and questions as parsed from the editors; null while they do not parse (the last count stays). */
  request: { state?: unknown; questions?: unknown } | null;
  /** Requests one Run sends (compare mode: one per column). */
  runs?: number;
  /** What the runs are, for the sentence: "2 columns". */
  runsLabel?: string;
  /** The target's price per million input tokens; null when unknown. Default: the published price. */
  inputPrice?: number | null;
  /** The local reference: its costs are the hosted list price, and nothing is billed. */
  local?: boolean;
}

const percent = (ratio: number): string =>
  ratio === 0 ? '0%' : ratio < 0.01 ? '<1%' : `${Math.round(ratio * 100)}%`;
const kilo = (n: number): string => `${Math.round(n / 1000)}k`;

/** One limit as a small bar: how much of it the request uses; the full sentence is its accessible name and title. */
function LimitBar({ name, use, testId }: { name: string; use: LimitUse; testId: string }) {
  const level = use.over ? 'over' : use.ratio > 0.8 ? 'near' : 'ok';
  const sentence = `${name}: ${formatTokens(use.used)} of ${formatTokens(use.limit)} tokens`;
  return (
    <span className={`cost-limit cost-limit--${level}`} title={sentence} data-testid={testId}>
      <span className="cost-limit__name">{kilo(use.limit)}</span>
      <span
        className="cost-limit__track"
        role="meter"
        aria-label={sentence}
        aria-valuemin={0}
        aria-valuemax={use.limit}
        aria-valuenow={Math.min(use.used, use.limit)}
      >
        <span className="cost-limit__fill" style={{ width: `${Math.min(100, use.ratio * 100)}%` }} />
      </span>
      <span className="num">{percent(use.ratio)}</span>
    </span>
  );
}

/** The cost line, with a per-question breakdown on demand. */
export function CostMeter({
  request,
  runs = 1,
  runsLabel,
  inputPrice = PRICE_PER_MILLION_INPUT_TOKENS,
  local = false,
}: CostMeterProps) {
  const { breakdown, counting, stale, error } = useLiveCost(request, runs);
  const [open, setOpen] = useState(false);
  if (!breakdown) {
    return (
      <section className="cost-meter" aria-label="Input tokens and cost" data-testid="cost.meter">
        <span className="muted" role="status">
          {error ? `Tokens could not be counted: ${error}` : request ? 'Counting tokens…' : ''}
        </span>
      </section>
    );
  }
  const b = breakdown;
  const estimated = b.questions.some((q) => !q.exact);
  return (
    <section
      className={`cost-meter${stale ? ' cost-meter--stale' : ''}`}
      aria-label="Input tokens and cost"
      aria-busy={counting}
      data-testid="cost.meter"
    >
      <div className="cost-meter__line">
        <CostTokens breakdown={b} />
        <LimitBar
          name="State plus the longest question"
          use={b.limits.statePlusLongest}
          testId="cost.limitStatePlusQuestion"
        />
        <LimitBar name="The whole request" use={b.limits.request} testId="cost.limitRequest" />
        <CostPrice breakdown={b} inputPrice={inputPrice} runsLabel={runsLabel} local={local} />
        <button
          type="button"
          className="link-button"
          aria-expanded={open}
          aria-controls="cost-questions"
          onClick={() => setOpen(!open)}
          data-testid="cost.toggle"
        >
          {open ? 'Hide per question' : 'Per question'}
        </button>
      </div>
      {stale && (
        <p className="cost-meter__note muted" role="status">
          Counts of the last text that parsed; fix the JSON to update them.
        </p>
      )}
      {b.problems.map((p) => (
        <p key={p} className="cost-meter__problem" role="alert" data-testid="cost.problem">
          {p}
        </p>
      ))}
      {open && <CostQuestionsTable breakdown={b} />}
      {open && estimated && (
        <p className="cost-meter__note muted">
          ≈ marks a question that does not validate yet: its count is an estimate.
        </p>
      )}
    </section>
  );
}

/** The request's input tokens, the state's among them. */
function CostTokens({ breakdown: b }: { breakdown: CostBreakdown }) {
  const questionsTotal = b.total - b.state;
  return (
    <span className="cost-meter__tokens" title="Counted with the tokenizer the service bills with">
      <strong className="num" data-testid="cost.total">
        {formatTokens(b.total)}
      </strong>{' '}
      input tokens
      <span className="muted" title={`Questions: ${formatTokens(questionsTotal)} tokens`}>
        {' '}
        (state{' '}
        <span className="num" data-testid="cost.state">
          {formatTokens(b.state)}
        </span>
        )
      </span>
    </span>
  );
}

interface CostPriceProps {
  breakdown: CostBreakdown;
  inputPrice: number | null;
  runsLabel: string | undefined;
  local: boolean;
}

/** The price of one Run, per request when a Run sends several; the local reference bills nothing. */
function CostPrice({ breakdown: b, inputPrice, runsLabel, local }: CostPriceProps) {
  // The worker counts tokens; the target's own price turns them into money here.
  const perRequest = inputPrice === null ? null : estimateCost(b.total, inputPrice);
  return (
    <span className="cost-meter__price num" data-testid="cost.perRun" title={priceNote(inputPrice)}>
      {perRequest === null ? 'price unknown' : `≈ ${formatCost(perRequest * b.runs)}/run`}
      {local && perRequest !== null && <span className="muted cost-meter__local"> ({LOCAL_COST_WORDS})</span>}
      {b.runs !== 1 && perRequest !== null && (
        <span className="muted">
          {' '}
          ({runsLabel ?? `${b.runs} requests`} × {formatCost(perRequest)})
        </span>
      )}
    </span>
  );
}

/** Tokens per question, and each with the state against the limit of the state plus the longest question. */
function CostQuestionsTable({ breakdown: b }: { breakdown: CostBreakdown }) {
  return (
    <table id="cost-questions" className="cost-table" data-testid="cost.questions">
      <caption className="visually-hidden">Input tokens per question</caption>
      <thead>
        <tr>
          <th scope="col">Question</th>
          <th scope="col">Tokens</th>
          <th scope="col">With the state (of {kilo(b.limits.statePlusLongest.limit)})</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">
            <em>state</em>
          </th>
          <td className="num">{formatTokens(b.state)}</td>
          <td />
        </tr>
        {b.questions.map((q) => (
          <tr key={q.name} data-testid="cost.question" data-name={q.name}>
            <th scope="row">
              {q.name}
              {q.name === b.longestQuestion && b.questions.length > 1 && (
                <span className="muted"> (longest)</span>
              )}
            </th>
            <td className="num">
              {q.exact ? '' : '≈ '}
              {formatTokens(q.tokens)}
            </td>
            <td className="num">{percent((b.state + q.tokens) / b.limits.statePlusLongest.limit)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
