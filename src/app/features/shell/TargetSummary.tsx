// What the main area shows until a screen is mounted there: where the selected target's requests go.
import type { TargetInfo } from '../../queries/targets';
import { describeKind } from './TargetPicker';

/** The selected target's route through the proxy and its upstream, in two lines. */
export function TargetSummary({ target }: { target: TargetInfo }) {
  return (
    <section className="target-summary" data-testid="shell.targetSummary">
      <h2>{target.label}</h2>
      <p>{describeKind(target)}</p>
      <p className="muted">
        Requests go to <code>/api/targets/{target.id}/v1/evaluate</code>
        {target.kind === 'local' ? ' and are answered in-process.' : <> and on to <code>{target.host}{target.evaluatePath}</code>.</>}
      </p>
    </section>
  );
}
