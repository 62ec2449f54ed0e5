// What the rows screen does by itself: lists the runs, opens an interrupted run, re-plans after edits, and paces new
// runs at their target's limits.
import { useEffect, useMemo } from 'react';
import type { Questions } from '../../../contract';
import { pacingFor } from '../../../core/rows/pacer';
import type { TargetInfo } from '../../queries/targets';
import { useResumeOffer } from '../../stores/resumeOffer';
import { useRows } from '../../stores/rows';

/** Delay before re-planning after an edit of the mapping or the questions (token counting runs in the worker). */
const PLAN_DEBOUNCE_MS = 250;

/** Lists the stored runs once, and opens a run that stopped when the page closed. */
export function useRunsOnArrival() {
  useEffect(() => {
    void useRows.getState().refreshRuns();
  }, []);

  // A run that stopped when the page closed opens here, its Resume in view; it never resumes by itself.
  const interrupted = useResumeOffer((s) => s.offer?.runId ?? null);
  useEffect(() => {
    if (!interrupted) return;
    const state = useRows.getState();
    if (!state.running && !state.openRun) void state.openRunById(interrupted);
    useResumeOffer.getState().done();
  }, [interrupted]);
}

/** Re-plans the file a moment after its mapping, the questions or the target's context change. */
export function usePlanOnEdit(
  questions: Questions | null,
  target: TargetInfo | undefined,
  targetLabel: string,
) {
  const ready = useRows((s) => s.import.phase === 'ready');
  const mapping = useRows((s) => s.mapping);
  const planFor = useRows((s) => s.planFor);
  const planPending = useRows((s) => s.planPending);
  const questionsKey = useMemo(() => JSON.stringify(questions), [questions]);
  // A target that states its context leaves out, before the run, the rows longer than it reads.
  const contextTokens = target?.limits?.contextTokens;
  useEffect(() => {
    if (!ready || !mapping) return;
    const context = contextTokens === undefined ? undefined : { tokens: contextTokens, target: targetLabel };
    planPending();
    const timer = setTimeout(
      () => void planFor(questionsKey === 'null' ? null : (JSON.parse(questionsKey) as Questions), context),
      PLAN_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [ready, mapping, questionsKey, planFor, planPending, contextTokens, targetLabel]);
}

/** Each target's own rate limits pace its runs. */
export function useTargetPacing(target: TargetInfo | undefined) {
  const { requestsPerMinute, tokensPerSecond } = pacingFor(target);
  useEffect(() => {
    const state = useRows.getState();
    // A run already open keeps the pacing it was made with; a new one starts at its target's limits.
    if (state.running || state.openRun) return;
    state.setPacing({ ...state.pacing, requestsPerMinute, tokensPerSecond });
  }, [requestsPerMinute, tokensPerSecond]);
}
