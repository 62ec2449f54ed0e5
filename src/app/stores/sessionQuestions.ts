// The questions and model a run of rows sends: the open session's, read from the main screen's editors.
import { useMemo } from 'react';
import { classifyModelId } from '../../contract';
import type { Questions } from '../../contract';
import { draftRequest, targetProblems } from '../../core/runDraft';
import type { TargetFacts } from '../../core/runDraft';
import { useWorkbench } from './workbench';

export interface SessionQuestions {
  questions: Questions | null;
  model: string;
  targetId: string;
  /** Why the session's questions or model cannot be sent, in one sentence. */
  problem: string | null;
  /** True when the model is an alias: it may move to another version in the middle of a long run. */
  alias: boolean;
}

/**
 * Reads the session's questions and model through the same checks as a run of the main screen, including the
 * chosen target's own limits and dialect: 65 questions are refused here for a 64-question target, before any row.
 */
export function useSessionQuestions(target?: TargetFacts): SessionQuestions {
  const doc = useWorkbench((s) => s.doc);
  return useMemo(() => {
    // The state editor does not matter here: every row brings its own state.
    const checked = { ...doc, stateMode: 'text' as const, stateText: 'row' };
    const draft = draftRequest(checked);
    const onTarget = target && draft.request ? targetProblems(checked, draft.request, target) : [];
    const first = [...draft.problems, ...onTarget].find((p) => p.severity === 'error' && p.area !== 'state');
    return {
      questions: draft.request?.questions ?? null,
      model: doc.model.trim(),
      targetId: doc.targetId,
      problem:
        draft.request && onTarget.length === 0
          ? null
          : (first?.message ?? 'The questions on the main screen cannot be sent yet.'),
      alias: classifyModelId(doc.model.trim()) === 'alias',
    };
  }, [doc, target]);
}
