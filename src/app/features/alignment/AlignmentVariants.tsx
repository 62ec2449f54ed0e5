// The open run's variants on the alignment screen: the comparison shown only while it is of the pair chosen and of
// the answers on screen, and what running a variant would send.
import type { RowRun } from '../../../core/rows/records';
import type { RowsState } from '../../stores/rows';
import { useRows } from '../../stores/rows';
import { useWorkbench } from '../../stores/workbench';
import type { AlignmentState } from './alignmentStore';
import { VariantsPanel } from './VariantsPanel';
import type { VariantsPanelProps } from './VariantsPanel';

export interface AlignmentVariantsProps {
  run: RowRun;
  rows: RowsState;
  align: AlignmentState;
  /** Whether the run chosen to compare with is of the same rows. */
  related: boolean;
  /** Why the session's questions cannot be sent, or null. */
  problem: string | null;
  plan: VariantsPanelProps['plan'];
  onRunVariant: () => void;
}

export function AlignmentVariants({
  run,
  rows,
  align,
  related,
  problem,
  plan,
  onRunVariant,
}: AlignmentVariantsProps) {
  // A comparison of an earlier moment (a variant just finished, its rows not yet compared) would read "0 rows
  // answered by both runs".
  const comparedNow =
    align.comparisonOf !== null &&
    align.comparisonOf.runId === run.id &&
    align.comparisonOf.otherId === align.compareWith &&
    align.comparisonOf.version === rows.resultsVersion;
  const comparingText =
    align.compareWith === null || !related || (comparedNow && !align.comparing)
      ? null
      : rows.running
        ? 'The comparison is computed once the run stops.'
        : 'Comparing…';
  return (
    <VariantsPanel
      run={run}
      runs={rows.runs}
      compareWith={align.compareWith}
      comparison={comparedNow ? align.comparison : null}
      comparing={comparingText}
      onCompare={(id) => {
        const state = useRows.getState();
        void align.compare(run, state.results(), id, state.resultsVersion);
      }}
      onRunVariant={onRunVariant}
      blocked={problem ?? (rows.running ? 'A run is going on.' : null)}
      plan={plan}
      onPin={(model) => useWorkbench.getState().setModel(model)}
    />
  );
}
