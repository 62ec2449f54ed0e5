// What the alignment screen derives from the open run's rows: rows by number, what a variant would send, and the
// labels kept in the session that could be taken into this run.
import { useMemo } from 'react';
import { planLabelTake } from '../../../core/alignment/sessionLabels';
import type { ResultRow } from '../../../core/rows/results';
import { variantPlan } from '../../../core/rows/variantPlan';
import type { RowsState } from '../../stores/rows';
import { useRows } from '../../stores/rows';
import type { SessionQuestions } from '../../stores/sessionQuestions';
import { useSessions } from '../../stores/sessions';

/** The open run's rows by number, a variant's plan (null without the session's questions), and the take of labels. */
export function useAlignmentPlans(
  rows: RowsState,
  session: SessionQuestions,
  targetId: string,
  price: number | null | undefined,
) {
  const stored = useSessions((s) => s.open?.alignment);
  const run = rows.openRun;
  const version = rows.resultsVersion;
  const byNumber = useMemo(() => {
    void version;
    return new Map<number, ResultRow>(
      useRows
        .getState()
        .results()
        .map((r) => [r.number, r]),
    );
  }, [version]);
  // What a variant would send, said before it runs: an alias reuses nothing.
  const sessionQuestions = session.questions;
  const sessionModel = session.model;
  const variantSends = useMemo(() => {
    void version;
    if (!run || !sessionQuestions) return null;
    const base = { questions: run.questions, targetId: run.targetId, rows: useRows.getState().results() };
    const plan = variantPlan(base, { questions: sessionQuestions, model: sessionModel, targetId }, price);
    return { plan, model: sessionModel, targetId };
  }, [run, version, sessionQuestions, sessionModel, targetId, price]);
  const keptLabels = stored?.labels;
  const takePlan = useMemo(() => {
    void version;
    return run && keptLabels?.length
      ? planLabelTake(keptLabels, useRows.getState().results(), run.questions)
      : null;
  }, [run, keptLabels, version]);
  return { stored, byNumber, variantSends, takePlan };
}
