// Where a problem or an answer's location leads: the model field, or the place in an editor; and the fixes applied.
import { useCallback, useMemo } from 'react';
import type { Loc } from '../../../contract';
import { applyFix, locateInDoc } from '../../../core/runDraft';
import type { DraftProblem } from '../../../core/runDraft';
import type { SessionDoc } from '../../../core/session';
import { useLayout } from '../../stores/layout';
import { useWorkbench } from '../../stores/workbench';

/** The model field's id, so a model problem can focus it. */
export const MODEL_INPUT_ID = 'workbench-model';

/** The pending reveal of one editor, or null when it is the other's. */
function useEditorReveal(area: 'state' | 'questions') {
  const reveal = useWorkbench((s) => s.reveal);
  return useMemo(
    () => (reveal?.area === area ? { offset: reveal.offset, nonce: reveal.nonce } : null),
    [reveal, area],
  );
}

/** The handlers that reveal a problem or a location, edit the draft and apply a fix, and each editor's reveal. */
export function useRevealHandlers() {
  const { revealAt, editDoc } = useWorkbench.getState();
  const revealLoc = useCallback(
    (area: DraftProblem['area'], offset: number | undefined) => {
      if (area === 'model') document.getElementById(MODEL_INPUT_ID)?.focus();
      if ((area === 'state' || area === 'questions') && offset !== undefined) {
        if (area === 'questions') useLayout.getState().setQuestionsView('json');
        revealAt(area, offset);
      }
    },
    [revealAt],
  );
  const onRevealProblem = useCallback((p: DraftProblem) => revealLoc(p.area, p.span?.offset), [revealLoc]);
  const onRevealLoc = useCallback(
    (loc: Loc) => {
      const found = locateInDoc(useWorkbench.getState().doc, loc);
      revealLoc(found.area, found.span?.offset);
    },
    [revealLoc],
  );
  const onEditDoc = useCallback((edit: (doc: SessionDoc) => SessionDoc) => editDoc(edit), [editDoc]);
  const onFix = useCallback(
    (p: DraftProblem) => {
      const fix = p.fix;
      if (fix) editDoc((doc) => applyFix(doc, fix));
    },
    [editDoc],
  );
  const stateReveal = useEditorReveal('state');
  const questionsReveal = useEditorReveal('questions');
  return { onRevealProblem, onRevealLoc, onEditDoc, onFix, stateReveal, questionsReveal };
}

/** What the reveal handlers give the panes. */
export type RevealHandlers = ReturnType<typeof useRevealHandlers>;
