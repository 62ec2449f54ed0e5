// The robustness check's one mount point on the main screen: a run-bar button that says how the last check came out
// and opens the check; the dialog and the check's code load on first use.
import { lazy, useState } from 'react';
import { Suspense } from 'react';
import type { EvaluateRequest } from '../../../contract';
import { useSessions } from '../../stores/sessions';

const RobustnessDialog = lazy(() =>
  import('./RobustnessDialog').then((m) => ({ default: m.RobustnessDialog })),
);

export interface RobustnessButtonProps {
  /** The request on screen when it meets the contract; null otherwise. */
  request: EvaluateRequest | null;
  targetId: string;
}

/** "Robustness", with "· all stable" or "· 2 to look at" once the open session holds a report. */
export function RobustnessButton({ request, targetId }: RobustnessButtonProps) {
  const [open, setOpen] = useState(false);
  const report = useSessions((s) => s.open?.robustness);
  const moving = report?.cards.filter((c) => c.verdict !== 'stable').length ?? 0;
  const badge = report ? (moving === 0 ? 'all stable' : `${moving} to look at`) : null;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        title="Is the answer stable? Option order, repeated requests and near-duplicate states"
        data-testid="robustness.open"
      >
        Robustness{badge && <span className="robustness-badge"> · {badge}</span>}
      </button>
      {open && (
        <Suspense fallback={null}>
          <RobustnessDialog request={request} targetId={targetId} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
