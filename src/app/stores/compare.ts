// The comparison of the open session (saved with it: the sessions binding loads it here and saves it from here) and
// how the user is looking at it: compare mode on or off, the list's order and filter. Runs the columns finish join the
// session's history through the workbench store, so a comparison and its runs are saved together.
import { create } from 'zustand';
import { newComparison, recordColumnRun } from '../../core/compare';
import type { CompareSort } from '../../core/compare';
import { newId } from '../../core/ids';
import type { Compare, RunRecord } from '../../core/session';
import { runViewOf, useWorkbench } from './workbench';

export interface CompareState {
  /** The open session's comparison; undefined until the user first opens compare mode in it. */
  compare: Compare | undefined;
  /** Which session `compare` belongs to, so a run finishing after a switch is not saved into another session. */
  sessionKey: number;
  /** Compare mode is showing instead of the single-model answers. */
  open: boolean;
  sort: CompareSort;
  /** Show only the questions above the threshold. */
  onlyFlagged: boolean;

  /** Shows a session's comparison (the sessions binding calls this as it loads a session). */
  hydrate: (compare: Compare | undefined) => void;
  /** Opens compare mode, starting a comparison of the session's target and model when there is none. */
  openCompare: (targetId: string, model: string) => void;
  closeCompare: () => void;
  /** Applies an edit to the comparison (functional, so parallel columns never overwrite each other). */
  edit: (edit: (compare: Compare) => Compare) => void;
  /** Saves a column's finished run: appended to the session's runs and made the column's latest. */
  recordRun: (sessionKey: number, columnId: string, run: RunRecord) => void;
  setSort: (sort: CompareSort) => void;
  setOnlyFlagged: (only: boolean) => void;
}

/** The comparison store. */
export const useCompare = create<CompareState>()((set, get) => ({
  compare: undefined,
  sessionKey: 0,
  open: false,
  sort: 'question',
  onlyFlagged: false,

  hydrate: (compare) => set((s) => ({ compare, sessionKey: s.sessionKey + 1 })),
  openCompare: (targetId, model) =>
    set((s) => ({ open: true, compare: s.compare ?? newComparison(targetId, model, newId) })),
  closeCompare: () => set({ open: false }),
  edit: (edit) => set((s) => (s.compare ? { compare: edit(s.compare) } : s)),
  recordRun: (sessionKey, columnId, run) => {
    // NOTE: a run that finishes after the user switched sessions belongs to no open session; it is dropped here.
    if (sessionKey !== get().sessionKey || !get().compare) return;
    // Through the workbench's own action: the run joins the history without replacing the single run on screen.
    const { id: _id, at: _at, targetId: _target, body: _body, ...outcome } = runViewOf(run);
    useWorkbench.getState().finishRun(run.id, outcome, run);
    set((s) => (s.compare ? { compare: recordColumnRun(s.compare, columnId, run.id) } : s));
  },
  setSort: (sort) => set({ sort }),
  setOnlyFlagged: (onlyFlagged) => set({ onlyFlagged }),
}));
