// What appears under the editors: the gateway offer, the cost, the problems. It scrolls in its own bounded region, so
// the editors keep their lines.
import type { CompareColumn } from '../../../core/session';
import type { TargetInfo } from '../../queries/targets';
import { CostMeter } from '../../features/cost/CostMeter';
import { GatewayOffer } from '../../features/lint/GatewayOffer';
import { ProblemsPanel } from '../../features/workbench/ProblemsPanel';
import type { RunControls } from '../../features/workbench/useRun';
import type { DraftChecks } from './useDraftChecks';
import type { RevealHandlers } from './useRevealHandlers';

export interface BelowEditorsProps {
  checks: DraftChecks;
  reveals: RevealHandlers;
  runControls: RunControls;
  targetInfo: TargetInfo | undefined;
  comparing: boolean;
  columns: readonly CompareColumn[] | undefined;
}

/** The offer, the cost meter and the problems panel under the editors. */
export function BelowEditors({
  checks,
  reveals,
  runControls,
  targetInfo,
  comparing,
  columns,
}: BelowEditorsProps) {
  const { checked } = checks;
  return (
    <div className="workbench__below" data-testid="workbench.below">
      <GatewayOffer questions={checked.draft.body?.questions} onApply={reveals.onEditDoc} />
      <CostMeter
        request={checked.draft.body}
        runs={comparing && columns ? columns.length : 1}
        runsLabel={comparing && columns ? `${columns.length} columns` : undefined}
        {...(targetInfo ? { inputPrice: targetInfo.inputPrice } : {})}
        local={targetInfo?.kind === 'local'}
      />
      <ProblemsPanel
        problems={checks.listedFindings}
        // The refusal stands while its reason does; fixing the errors clears it.
        refused={runControls.refused && checked.blocked}
        canSendAnyway={checked.draft.body !== null}
        onSendAnyway={() => runControls.run(true)}
        onReveal={reveals.onRevealProblem}
        onFix={reveals.onFix}
      />
    </div>
  );
}
