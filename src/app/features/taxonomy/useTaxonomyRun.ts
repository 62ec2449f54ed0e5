// What a taxonomy run needs from the page: the session's state as a request sends it, the model, the plan of the
// pasted labels (read once typing pauses), what stops a run, and the run itself.
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo } from 'react';
import { evaluate } from '../../../client';
import type { ClientTarget } from '../../../client';
import { modelIdProblem } from '../../../contract';
import type { EvaluateRequest, State } from '../../../contract';
import { parseJson } from '../../../core/questionsDocument';
import { checkConversation } from '../../../core/conversation/check';
import { renderConversation } from '../../../core/conversation/render';
import { planTaxonomy } from '../../../core/taxonomy';
import type { TaxonomyDoc } from '../../../core/session';
import { modelsQueryOptions } from '../../queries/models';
import { useWorkbench } from '../../stores/workbench';
import { useTaxonomy } from './taxonomyStore';

/** The session's state as a request sends it, or why it cannot be sent. */
function useSessionState(): { state: State | null; problem: string | null } {
  const stateText = useWorkbench((s) => s.doc.stateText);
  const stateMode = useWorkbench((s) => s.doc.stateMode);
  return useMemo(() => {
    if (stateMode === 'text')
      return stateText.trim() === ''
        ? { state: null, problem: 'The state on the main screen is empty.' }
        : { state: stateText, problem: null };
    // A conversation is judged as the transcript a target of the interface's form receives.
    if (stateMode === 'conversation') {
      const checked = checkConversation(stateText);
      return checked.ok
        ? { state: renderConversation(checked.conversation), problem: null }
        : { state: null, problem: 'The conversation on the main screen has problems: fix them there first.' };
    }
    const parsed = parseJson(stateText);
    if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object')
      return {
        state: null,
        problem: 'The state on the main screen is not valid JSON fields: fix it there first.',
      };
    return { state: parsed.value as State, problem: null };
  }, [stateText, stateMode]);
}

/** The session's state and model, the labels' plan, the sentence that blocks a run (or null), and how to start it. */
export function useTaxonomyRun(
  targetId: string,
  resolveTarget: (targetId: string) => ClientTarget,
  { text, format, instructions }: TaxonomyDoc,
) {
  const model = useWorkbench((s) => s.doc.model);
  const session = useSessionState();
  const models = useQuery(modelsQueryOptions(targetId));
  const listed = useMemo(() => models.data?.models.map((m) => m.name) ?? [], [models.data]);

  // Parsing a long paste waits for typing to pause (a deferred value), so the text area stays responsive.
  const deferredText = useDeferredValue(text);
  const deferredFormat = useDeferredValue(format);
  const planned = useMemo(() => planTaxonomy(deferredText, deferredFormat), [deferredText, deferredFormat]);
  const modelProblem = models.isSuccess || model.trim() === '' ? modelIdProblem(model, listed) : null;
  const blocker =
    planned.plan.leafCount < 2 ? 'Paste at least two labels.' : (session.problem ?? modelProblem ?? null);

  const start = (): void => {
    if (blocker || !session.state) return;
    const target = resolveTarget(targetId);
    void useTaxonomy.getState().run({
      plan: planned.plan,
      state: session.state,
      instructions,
      model: model.trim(),
      evaluate: async (request: EvaluateRequest, signal?: AbortSignal) =>
        (await evaluate(target, request, signal ? { signal } : {})).response,
    });
  };
  return { model, session, planned, blocker, start };
}
