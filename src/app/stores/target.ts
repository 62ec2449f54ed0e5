// The target the user chose: the open session's targetId, so the choice is saved and restored with the session and
// the shell's picker and the workbench read one value.
import { useWorkbench } from './workbench';

/** The chosen target id (it may name a target the server no longer offers; the shell then falls back). */
export const useChosenTargetId = (): string => useWorkbench((s) => s.doc.targetId);

/** Chooses a target for the open session. */
export const chooseTarget = (targetId: string): void => useWorkbench.getState().setTargetId(targetId);
