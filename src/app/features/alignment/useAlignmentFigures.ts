// Keeps the alignment screen's figures following the open run: its report, the comparison with another run of the
// same rows, and the session's ledger of labelled runs.
import { useEffect } from 'react';
import type { RowsState } from '../../stores/rows';
import { useRows } from '../../stores/rows';
import { useSessions } from '../../stores/sessions';
import type { AlignmentState } from './alignmentStore';
import { familyOf } from './VariantsPanel';
import { useVariantFamily } from './variantFamilyStore';

/** Pause after the last change (a label, an answer, the threshold) before the figures are computed again. */
const RECOMPUTE_DEBOUNCE_MS = 300;

/**
 * Computes the report and the comparison again after each change (debounced), records a labelled run in the session's
 * ledger, and says whether the run chosen to compare with is of the same rows.
 */
export function useAlignmentFigures(rows: RowsState, align: AlignmentState): { related: boolean } {
  const sessionId = useSessions((s) => s.openId);
  const run = rows.openRun;
  const version = rows.resultsVersion;
  const optionsKey = JSON.stringify(align.options);
  const { compute } = align;

  useEffect(() => {
    if (!run) return;
    const timer = setTimeout(
      () => void compute(run, useRows.getState().results(), version),
      RECOMPUTE_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [run, version, optionsKey, compute]);

  // The comparison follows the open run's answers too (a variant compared while it ran), once the run has paused.
  const { compareWith, compare: compareRuns } = align;
  const running = rows.running;
  // Only a run of the same rows: a choice left from another run's family is not compared.
  const related = !!run && !!compareWith && familyOf(run, rows.runs).some((r) => r.id === compareWith);
  useEffect(() => {
    if (!run || !compareWith || !related || running) return;
    const timer = setTimeout(() => {
      const state = useRows.getState();
      void compareRuns(run, state.results(), compareWith, state.resultsVersion);
    }, RECOMPUTE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [run, version, optionsKey, running, compareWith, related, compareRuns]);

  // Every run of a labelled set that has been run is counted in the session's ledger (a deleted run stays counted).
  const answered = (rows.progress?.done ?? 0) + (rows.progress?.reused ?? 0) > 0;
  const labelled =
    !!run &&
    (!!run.mapping.labels?.length ||
      (align.reportOf?.runId === run.id && Object.keys(align.report?.questions ?? {}).length > 0));
  const record = useVariantFamily((s) => s.record);
  useEffect(() => {
    if (run && labelled) record(run, rows.runs, answered);
  }, [run, rows.runs, answered, labelled, sessionId, record]);

  return { related };
}
