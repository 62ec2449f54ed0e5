// One question's robustness card: the verdict, a sentence, and the figures behind it.
import type { RobustnessCard } from '../../../core/robustness/card';
import { VERDICT_LABELS } from '../../../core/robustness/card';
import { VARIANT_LABELS } from '../../../core/robustness/variants';
import { KIND_NAME } from '../../components/answers/kindName';

const pts = (x: number): string => `${(x * 100).toFixed(0)} pts`;
const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(0)} pts`;

/** Options shown by name in a spread before the rest are counted. */
const SHOWN_OPTIONS = 6;

/** Each option's spread, widest first: "billing 23, technical 18, other 5 pts". */
function spreads(spread: Record<string, number>): string {
  const entries = Object.entries(spread).sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return '—';
  const shown = entries.slice(0, SHOWN_OPTIONS).map(([label, v]) => `${label} ${(v * 100).toFixed(0)}`);
  const more = entries.length > SHOWN_OPTIONS ? `, ${entries.length - SHOWN_OPTIONS} more` : '';
  return `${shown.join(', ')} pts${more}`;
}

export function RobustnessCardView({ card }: { card: RobustnessCard }) {
  const { order, repetition } = card;
  return (
    <article
      className={`robustness-card robustness-card--${card.verdict}`}
      data-testid="robustness.card"
      data-question={card.question}
      data-verdict={card.verdict}
      aria-labelledby={`robustness-${card.question}`}
    >
      <header className="robustness-card__head">
        <h3 id={`robustness-${card.question}`}>
          {card.question} <span className="muted">({KIND_NAME[card.type]})</span>
        </h3>
        <span className="robustness-verdict" data-testid="robustness.verdict">
          {VERDICT_LABELS[card.verdict]}
        </span>
      </header>
      <p data-testid="robustness.summary">{card.summary}</p>
      <dl className="robustness-card__figures num">
        {order && (
          <>
            <dt>Option order</dt>
            <dd data-testid="robustness.order">
              top choice changed in {order.topChanges} of {order.comparisons} orders
              {order.ties
                ? ` (and ${order.ties} more where tied options swapped: a tie broken by position)`
                : ''}
              ; largest distance from the original order {pts(order.maxTvd)}; spread per option{' '}
              {spreads(order.spread)}; first position {signed(order.firstGain)}, last position{' '}
              {signed(order.lastGain)} on average
              {order.noiseTest &&
                `; orders against identical requests: ${
                  order.noiseTest.pValue < 0.001 ? 'p < 0.001' : `p = ${order.noiseTest.pValue.toFixed(3)}`
                } (variance-ratio test; below 0.05 the spread is the order's, not noise)`}
              {order.positionBias && (
                <strong data-testid="robustness.positionBias">
                  {' '}
                  · position bias: {order.positionBias} option
                </strong>
              )}
            </dd>
          </>
        )}
        {card.orderSkipped && (
          <>
            <dt>Option order</dt>
            <dd>not checked: {card.orderSkipped}</dd>
          </>
        )}
        {repetition && (
          <>
            <dt>Repetition</dt>
            <dd data-testid="robustness.repetition">
              {repetition.identical
                ? `${repetition.requests} identical requests, identical answers`
                : `${repetition.requests} identical requests; largest distance ${pts(repetition.maxTvd)}, spread per option ${spreads(repetition.spread)}`}
            </dd>
          </>
        )}
        {card.variants.length > 0 && (
          <>
            <dt>Near-duplicate states</dt>
            <dd>
              <ul className="robustness-card__variants">
                {card.variants.map((v) => (
                  <li key={v.kind} data-testid="robustness.variant" data-flagged={v.flagged}>
                    {VARIANT_LABELS[v.kind]}: moved {pts(v.maxTvd)}
                    {v.topChanges > 0 ? ', top choice changed' : ''}
                    {v.flagged ? ' · flagged' : ''}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
      </dl>
    </article>
  );
}
