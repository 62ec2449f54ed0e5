// A run's outcome: the path of choices (each with its probability and confidence), the label reached, the chosen
// group's distribution drawn by the answers' choice card, and what the run cost.
import { estimateCost } from '../../../contract';
import { formatCost } from '../../../contract';
import { formatFixed2, formatTokens } from '../../../core/answerSeries';
import type { TaxonomyResult, TaxonomyStep } from '../../../core/taxonomy';
import { ChoiceCard } from '../../components/answers';
import '../../components/answers/answers.css';
import type { TaxonomyRunStatus } from './taxonomyStore';

export interface TaxonomyResultViewProps {
  status: TaxonomyRunStatus;
  steps: readonly TaxonomyStep[];
  result: TaxonomyResult | null;
  error: string | null;
}

const where = (step: TaxonomyStep): string =>
  step.index === 0
    ? 'First request'
    : step.trail.length
      ? `Within ${step.trail.join(' › ')}`
      : 'Next request';

/** The path so far, and the result once there is one. */
export function TaxonomyResultView({ status, steps, result, error }: TaxonomyResultViewProps) {
  if (status === 'idle') return null;
  const tokens = steps.reduce((sum, s) => sum + s.inputTokens, 0);
  return (
    <section
      className="taxonomy-result panel"
      aria-labelledby="taxonomy-result-heading"
      aria-busy={status === 'running'}
    >
      <h3 id="taxonomy-result-heading">
        {result ? 'Result' : status === 'running' ? 'Running…' : 'Stopped'}
      </h3>
      {error && (
        <p className="error-text" role="alert" data-testid="taxonomy.error">
          {error}
        </p>
      )}
      {result && (
        <p className="taxonomy-result__label">
          <strong data-testid="taxonomy.label">{result.label}</strong>
          {result.path.length > 1 && (
            <span className="muted" data-testid="taxonomy.labelPath">
              {' '}
              ({result.path.join(' › ')})
            </span>
          )}
          <span className="muted num" title="The product of the chosen options' probabilities along the path">
            {' '}
            · path probability {formatFixed2(result.pathProbability)}
          </span>
        </p>
      )}
      {steps.length > 0 && (
        <ol className="taxonomy-path" data-testid="taxonomy.path">
          {steps.map((step) => (
            <li key={step.index} data-testid="taxonomy.step" data-choice={step.chosen.key}>
              <span className="muted">
                {where(step)}, {step.question.criteria ? Object.keys(step.question.criteria).length : 0}{' '}
                options:
              </span>{' '}
              <strong>{step.chosen.key}</strong>{' '}
              <span className="num muted">
                p = {formatFixed2(step.probability)} · confidence {formatFixed2(step.confidence)} ·{' '}
                {formatTokens(step.inputTokens)} tokens
              </span>
            </li>
          ))}
        </ol>
      )}
      {steps.length > 0 && (
        <p className="num" data-testid="taxonomy.cost">
          {steps.length} request{steps.length === 1 ? '' : 's'} · {formatTokens(tokens)} input tokens · ≈{' '}
          {formatCost(estimateCost(tokens))}
          {steps[0] && <span className="muted"> · model {steps[0].resolvedModel}</span>}
        </p>
      )}
      {result && (
        <section className="answer-card" aria-label="Final distribution" data-testid="taxonomy.final">
          <header className="answer-card__header">
            <h4 className="answer-card__name">
              {result.steps.length > 1 ? `Within ${lastGroupName(result)}` : 'Distribution'}
            </h4>
            <span className="kind-tag kind-tag--choice">choice</span>
          </header>
          <ChoiceCard
            name="taxonomy"
            answer={result.final.answer}
            criteria={result.final.question.criteria}
          />
        </section>
      )}
    </section>
  );
}

/** The name of the group whose labels the last request offered. */
function lastGroupName(result: TaxonomyResult): string {
  const last = result.steps[result.steps.length - 1]!;
  return last.trail.join(' › ') || 'the first request';
}
