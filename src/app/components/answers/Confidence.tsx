// Confidence of an answer as a number and a small meter: how concentrated the distribution is, not the top probability.
import { formatFixed2 } from '../../../core/answerSeries';

const EXPLAIN =
  'Confidence measures how concentrated the distribution is (0 = spread evenly, 1 = all on one answer); it is not the top probability.';

/** "confidence 0.72" with a meter. */
export function Confidence({ value }: { value: number }) {
  return (
    <span className="answer-confidence" title={EXPLAIN} data-testid="answers.confidence">
      <span className="answer-confidence__label">confidence</span>
      <meter min={0} max={1} value={value} aria-hidden="true" />
      <span className="num">{formatFixed2(value)}</span>
    </span>
  );
}
