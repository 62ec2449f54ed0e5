// The target the user chose: the open session's targetId, so the choice is saved and restored with the session and
// the shell's picker and the workbench read one value.
import { useSessions } from './sessions';
import type { SessionsStore } from './sessions';
import { useWorkbench } from './workbench';

/** The chosen target id (it may name a target the server no longer offers; the shell then falls back). */
export const useChosenTargetId = (): string => useWorkbench((s) => s.doc.targetId);

/**
 * A chooser of the open session's target. A choice made while the sessions are still being restored would be taken
 * back by the session that then opens (a first visit's example starts on the first target with a key), so it is
 * applied again once they are: the user's explicit choice wins.
 */
export function createTargetChooser(
  sessions: SessionsStore,
  setTargetId: (targetId: string) => void,
): (targetId: string) => void {
  let pending: string | null = null;
  let unsubscribe: (() => void) | null = null;
  return (targetId) => {
    setTargetId(targetId);
    if (sessions.getState().restored) return;
    pending = targetId;
    unsubscribe ??= sessions.subscribe((state) => {
      if (!state.restored || pending === null) return;
      const chosen = pending;
      pending = null;
      unsubscribe?.();
      unsubscribe = null;
      setTargetId(chosen);
    });
  };
}

/** Chooses a target for the open session. */
export const chooseTarget = createTargetChooser(useSessions, (targetId) =>
  useWorkbench.getState().setTargetId(targetId),
);
