// What the comparison view derives from the session: each column's last run, the comparison of their answers, each
// column's draft request, and whether the editors moved on since the columns ran.
import { useMemo } from 'react';
import type { EvaluateRequest } from '../../../contract';
import { compareColumns, sameQuestionsAndState } from '../../../core/compare';
import type { Compare, CompareColumn, RunRecord } from '../../../core/session';

type Draft = { request: EvaluateRequest | null; problem: string | null };

/** The columns' last runs and comparison, their drafts, the first problem that blocks a run, and `edited`. */
export function useComparison(
  compare: Compare,
  runs: readonly RunRecord[],
  draftFor: (column: CompareColumn) => Draft,
) {
  const lastRuns = useMemo(() => {
    const byId = new Map(runs.map((r) => [r.id, r]));
    return compare.columns.map((c) => {
      const id = compare.runIds[c.id];
      return id === undefined ? undefined : byId.get(id);
    });
  }, [runs, compare.columns, compare.runIds]);

  const comparison = useMemo(
    () =>
      compareColumns(
        compare.columns.map((c, i) => ({
          id: c.id,
          request: lastRuns[i]?.request,
          response: lastRuns[i]?.response,
        })),
        compare.threshold,
      ),
    [compare.columns, compare.threshold, lastRuns],
  );

  const drafts = useMemo(
    () => new Map(compare.columns.map((c) => [c.id, draftFor(c)])),
    [compare.columns, draftFor],
  );
  const blocked = [...drafts.values()].find((d) => d.problem !== null)?.problem ?? null;
  // The editors moved on since the columns ran: the answers shown are for the state and questions as they were.
  const edited = compare.columns.some((c, i) => {
    const sent = lastRuns[i]?.request;
    const now = drafts.get(c.id)?.request;
    return sent !== undefined && now !== null && now !== undefined && !sameQuestionsAndState(sent, now);
  });
  return { lastRuns, comparison, drafts, blocked, edited };
}
