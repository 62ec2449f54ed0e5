// The differences of one column's answer from the baseline's, as numbers (and as words for the top choice).
import type { PairMetrics } from '../../../core/metrics';
import { formatDistance, formatSigned } from './format';

export interface CellMetricsProps {
  metrics: PairMetrics;
  /** The baseline's and this column's chosen labels, for a choice question. */
  baselineChoice?: string;
  choice?: string;
}

/** A definition list of the metrics against the baseline; each value carries a test id named after its metric. */
export function CellMetrics({ metrics, baselineChoice, choice }: CellMetricsProps) {
  return (
    <dl className="cmp-metrics" data-testid="compare.metrics" aria-label="Difference from the baseline">
      {metrics.kind === 'choice' && (
        <>
          <div>
            <dt>Top choice</dt>
            <dd data-testid="compare.metric.topChoice" data-agrees={metrics.topChoiceAgrees}>
              {metrics.topChoiceAgrees
                ? `same (${choice ?? ''})`
                : `differs: ${choice ?? '?'} vs ${baselineChoice ?? '?'}`}
            </dd>
          </div>
          <div>
            <dt>
              <abbr title="Total variation distance: the largest difference in probability the two answers give any set of options (0 same, 1 disjoint)">
                TVD
              </abbr>
            </dt>
            <dd data-testid="compare.metric.tvd">{formatDistance(metrics.totalVariation)}</dd>
          </div>
          <div>
            <dt>
              <abbr title="Jensen-Shannon divergence in bits (base 2): 0 same, 1 disjoint">JSD</abbr>
            </dt>
            <dd data-testid="compare.metric.jsd">{formatDistance(metrics.jensenShannon)}</dd>
          </div>
        </>
      )}
      {metrics.kind === 'score' && (
        <>
          <div>
            <dt>Δ expected score</dt>
            <dd data-testid="compare.metric.scoreDelta">{formatSigned(metrics.scoreDifference)}</dd>
          </div>
          <div>
            <dt>
              <abbr title="Total variation distance between the level probabilities (0 same, 1 disjoint)">
                TVD
              </abbr>
            </dt>
            <dd data-testid="compare.metric.tvd">{formatDistance(metrics.totalVariation)}</dd>
          </div>
        </>
      )}
      {metrics.kind === 'noul' && (
        <div>
          <dt>Δ p(yes)</dt>
          <dd data-testid="compare.metric.yesDelta">{formatSigned(metrics.yesDifference)}</dd>
        </div>
      )}
    </dl>
  );
}
