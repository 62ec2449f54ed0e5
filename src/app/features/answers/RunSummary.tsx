// One line about a finished run: the resolved model, latency, input tokens and the cost estimate.
import { PRICE_PER_MILLION_INPUT_TOKENS, estimateCost, priceNote } from '../../../contract';
import type { EvaluateResponse } from '../../../contract';
import { formatCost, formatLatency, formatTokens } from '../../../core/answerSeries';

export interface RunSummaryProps {
  response: EvaluateResponse;
  /** The model id that was sent (an alias resolves to the response's versioned id). */
  sentModel: string;
  latencyMs?: number;
  attempts: number;
  /** The target's price per million input tokens; null when unknown. Default: the published price. */
  inputPrice?: number | null;
}

/** The run's facts as a definition list, numbers in tabular figures. */
export function RunSummary({
  response,
  sentModel,
  latencyMs,
  attempts,
  inputPrice = PRICE_PER_MILLION_INPUT_TOKENS,
}: RunSummaryProps) {
  const tokens = response.usage.input_tokens;
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
        </dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd className="num" data-testid="answers.cost" title={priceNote(inputPrice)}>
          {inputPrice === null ? 'price unknown' : `≈ ${formatCost(estimateCost(tokens, inputPrice))}`}
        </dd>
      </div>
    </dl>
  );
}
