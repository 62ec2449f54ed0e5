// One line about a finished run: the requested and echoed model, latency, usage as the server reported it, and the
// cost with where its figure came from (the server's own, the target's price, or "price unknown").
import {
  PRICE_PER_MILLION_INPUT_TOKENS,
  ReportedCostSchema,
  costLine,
  priceNote,
  readUsage,
} from '../../../contract';
import type { EvaluateResponse } from '../../../contract';
import { formatCost } from '../../../contract';
import { formatLatency, formatTokens } from '../../../core/answerSeries';

export interface RunSummaryProps {
  response: EvaluateResponse;
  /** The model id that was sent (an alias resolves to the response's versioned id). */
  sentModel: string;
  latencyMs?: number;
  attempts: number;
  /** The target's price per million input tokens; null when unknown. Default: the published price. */
  inputPrice?: number | null;
  /** Answered by the local reference: its cost is the hosted list price, and nothing is billed. */
  local?: boolean;
}

/** The run's facts as a definition list, numbers in tabular figures. */
export function RunSummary({
  response,
  sentModel,
  latencyMs,
  attempts,
  inputPrice = PRICE_PER_MILLION_INPUT_TOKENS,
  local = false,
}: RunSummaryProps) {
  const tokens = response.usage.input_tokens;
  const usage = readUsage(response);
  const reported = ReportedCostSchema.safeParse(response.cost);
  const cost = costLine(
    { usage: response.usage, ...(reported.success ? { cost: reported.data } : {}) },
    inputPrice ?? PRICE_PER_MILLION_INPUT_TOKENS,
  );
  return (
    <dl className="run-summary" data-testid="answers.summary">
      <div>
        <dt>Model</dt>
        <dd data-testid="answers.resolvedModel">
          {sentModel && sentModel !== response.model ? (
            <>
              <span className="muted">{sentModel} →</span> {response.model}
            </>
          ) : (
            response.model
          )}
        </dd>
      </div>
      {latencyMs !== undefined && (
        <div>
          <dt>Latency</dt>
          <dd className="num" data-testid="answers.latency">
            {formatLatency(latencyMs)}
            {attempts > 1 && <span className="muted"> · {attempts} attempts</span>}
          </dd>
        </div>
      )}
      <div>
        <dt>Input tokens</dt>
        <dd className="num" data-testid="answers.tokens">
          {formatTokens(tokens)}
          {usage.cachedTokens !== null && usage.cachedTokens > 0 && (
            <span className="muted"> · {formatTokens(usage.cachedTokens)} cached</span>
          )}
          {usage.outputTokens === null ? (
            <span className="muted"> · output not reported</span>
          ) : (
            usage.outputTokens > 0 && (
              <span className="muted"> · {formatTokens(usage.outputTokens)} output</span>
            )
          )}
        </dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd
          className="num"
          data-testid="answers.cost"
          data-source={cost.reported ? 'server' : 'estimate'}
          title={cost.reported ? cost.source : priceNote(inputPrice)}
        >
          {!cost.reported && inputPrice === null ? (
            'price unknown'
          ) : (
            <>
              {cost.reported ? '' : '≈ '}
              {formatCost(cost.amount)}{' '}
              <span className="muted">
                ({cost.source}
                {local && !cost.reported ? '; the local reference bills nothing' : ''})
              </span>
            </>
          )}
        </dd>
      </div>
    </dl>
  );
}
