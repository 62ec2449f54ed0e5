// Each HTTP attempt of a run: its outcome, how long it took, the delay before the next, and the service's request id.
import { formatLatency } from '../../../core/answerSeries';
import type { AttemptRecord } from '../../../core/session';

const outcomeText = (o: AttemptRecord['outcome']): string =>
  typeof o === 'number' ? String(o) : o === 'network' ? 'no connection' : o;

const outcomeClass = (o: AttemptRecord['outcome']): string =>
  typeof o === 'number' && o >= 200 && o < 300 ? 'ok' : o === 'cancelled' ? 'muted' : 'bad';

/** The attempts as a compact table (live while the run goes on). */
export function AttemptList({ attempts, running }: { attempts: readonly AttemptRecord[]; running: boolean }) {
  if (attempts.length === 0 && !running) return null;
  return (
    <table className="attempts" data-testid="answers.attempts">
      <caption className="visually-hidden">Attempts of this run</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Outcome</th>
          <th scope="col">Took</th>
          <th scope="col">Then</th>
          <th scope="col">Request id</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((a) => (
          <tr key={a.attempt} data-testid="answers.attempt" title={a.message}>
            <td className="num">{a.attempt + 1}</td>
            <td className={`attempts__outcome attempts__outcome--${outcomeClass(a.outcome)}`}>
              {outcomeText(a.outcome)}
            </td>
            <td className="num">{formatLatency(a.durationMs)}</td>
            <td className="num">
              {a.retryInMs !== undefined ? `retry in ${formatLatency(a.retryInMs)}` : ''}
            </td>
            <td className="attempts__id">{a.requestId ?? '—'}</td>
          </tr>
        ))}
        {running && (
          <tr className="attempts__pending">
            <td className="num">{attempts.length + 1}</td>
            <td colSpan={4}>
              <span className="spinner" aria-hidden="true" /> waiting for the service…
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
