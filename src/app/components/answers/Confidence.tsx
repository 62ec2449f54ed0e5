// Confidence of an answer as a number and a small meter: how concentrated the distribution is, not the top probability.
import { formatFixed2 } from '../../../core/answerSeries';

const EXPLAIN =
  'Confidence measures how concentrated the distribution is (0 = spread evenly, 1 = all on one answer); it is not the top probability.';

/** The server's own confidence, when the workbench recomputed it (`reported.confidence` of a normalised answer). */
export function reportedConfidence(answer: Record<string, unknown>): number | undefined {
  const reported = answer.reported as { confidence?: unknown } | undefined;
  return typeof reported?.confidence === 'number' ? reported.confidence : undefined;
}

/** "confidence 0.72" with a meter, and the server's own figure beside it when it used another formula. */
export function Confidence({ value, server }: { value: number; server?: number }) {
  return (
    <span className="answer-confidence" title={EXPLAIN} data-testid="answers.confidence">
      <span className="answer-confidence__label">confidence</span>
      <meter min={0} max={1} value={value} aria-hidden="true" />
      <span className="num">{formatFixed2(value)}</span>
      {server !== undefined && formatFixed2(server) !== formatFixed2(value) && (
        <span
          className="muted"
          data-testid="answers.serverConfidence"
          title="The server's own confidence, by its own formula; the workbench recomputes every server's the same way so they compare."
        >
          {' '}
          (server said <span className="num">{formatFixed2(server)}</span>)
        </span>
      )}
    </span>
  );
}
