// What went wrong with a run, said for a person: what it means, what to do, whether it may have been billed.
import { formatLoc } from '../../../contract';
import type { Loc } from '../../../contract';
import type { RunError } from '../../../core/session';

export interface RunErrorViewProps {
  error: RunError;
  targetLabel: string;
  onReveal: (loc: Loc) => void;
}

/** The meaning of each kind of failure, beside the client's own sentence. */
function meaning(error: RunError, target: string): string | null {
  switch (error.kind) {
    case 'auth':
      return `The API key for ${target} is missing or wrong. Keys live on the workbench server (.env.local), never in the browser; set it there and restart.`;
    case 'validation':
      return error.fieldErrors.length
        ? 'The service refused the request; each problem is marked on its line in the editors.'
        : 'The service refused the request without saying where.';
    case 'rate_limited':
      return 'The rate limit held through every retry. The attempts below show each wait.';
    case 'quota':
      return `The quota of ${target} is used up and will not come back within this run, so the workbench stopped instead of retrying.`;
    case 'not_decision_model':
      return `${target} has this model, but it does not answer decisions. Pick a decision model from the list.`;
    case 'overloaded':
      return 'The service stayed overloaded through every retry. The attempts below show each wait.';
    case 'timeout':
      return 'No answer came in time. A timeout means the outcome is unknown, not that it failed: the service may have evaluated, and billed, the request.';
    case 'network':
      return `The workbench could not reach ${target}: the server or the network is down, or the address is wrong.`;
    case 'cancelled':
      return 'You cancelled the run. If a request was already on its way, the service may still have evaluated it.';
    case 'bad_response':
      return 'The service answered, but not with what the contract says; the answers cannot be trusted, so none are shown.';
    default:
      return null;
  }
}

const refusedTitle = (fields: number): string =>
  `The service refused ${fields === 1 ? 'one field' : `${fields} fields`} of the request.`;

/** The error panel of a failed or cancelled run. */
export function RunErrorView({ error, targetLabel, onReveal }: RunErrorViewProps) {
  const cancelled = error.kind === 'cancelled';
  const explained = meaning(error, targetLabel);
  // A refusal with located fields is said once: in the list below, each on its line; the title would repeat it.
  const listed = error.kind === 'validation' && error.fieldErrors.length > 0;
  return (
    <div
      className={`run-error${cancelled ? ' run-error--quiet' : ''}`}
      role="alert"
      data-testid="answers.error"
      data-kind={error.kind}
    >
      <p className="run-error__title">
        {error.status !== undefined && <span className="run-error__status num">{error.status}</span>}
        {listed ? refusedTitle(error.fieldErrors.length) : error.message}
      </p>
      {explained && <p className="run-error__meaning">{explained}</p>}
      {error.fieldErrors.length > 0 && (
        <ul className="run-error__fields" data-testid="answers.fieldErrors">
          {error.fieldErrors.map((f, i) => (
            <li key={i}>
              <button type="button" className="link-button" onClick={() => onReveal(f.loc)}>
                {f.loc.length ? formatLoc(f.loc) : 'request'}
              </button>
              : {f.msg}
            </li>
          ))}
        </ul>
      )}
      {error.possiblyBilled && !cancelled && (
        <p className="run-error__billed">Some attempts may have been evaluated and billed.</p>
      )}
      {error.possiblyBilled && cancelled && (
        <p className="run-error__billed">The cancelled attempt may have been billed.</p>
      )}
    </div>
  );
}
