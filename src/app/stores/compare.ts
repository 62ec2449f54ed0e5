// How the user is looking at the comparison: compare mode on or off (mirrored in the address, so a reload keeps it),
// the list's order and filter. UI state only: the comparison itself is part of the open session (sessions store
// `open.compare`, saved with it), and the columns' runs are React Query mutations that settle into the session's runs.
import { create } from 'zustand';
import type { CompareSort } from '../../core/compare';
import { compareInAddress, writeCompareToAddress } from './compareViewParam';

export interface CompareViewState {
  /** Compare mode is showing instead of the single-model answers. */
  open: boolean;
  sort: CompareSort;
  /** Show only the questions above the threshold. */
  onlyFlagged: boolean;
  /** Runs every column, while the comparison is on screen (the workbench's Run and Ctrl+Enter call it in compare mode). */
  runAll: (() => void) | null;
  setOpen: (open: boolean) => void;
  /** The comparison on screen registers how to run all its columns, and null when it leaves. */
  setRunAll: (runAll: (() => void) | null) => void;
  setSort: (sort: CompareSort) => void;
  setOnlyFlagged: (only: boolean) => void;
}

/** The comparison view's state. */
export const useCompare = create<CompareViewState>()((set) => ({
  open: compareInAddress(),
  sort: 'question',
  onlyFlagged: false,
  runAll: null,
  setRunAll: (runAll) => set({ runAll }),
  setOpen: (open) => {
    writeCompareToAddress(open);
    set({ open });
  },
  setSort: (sort) => set({ sort }),
  setOnlyFlagged: (onlyFlagged) => set({ onlyFlagged }),
}));

/** Runs the comparison's columns while compare mode is on screen, else the single run: what Run and Ctrl+Enter do. */
export function runOrCompare(runSingle: () => void): void {
  const { open, runAll } = useCompare.getState();
  // NOTE: while compare mode is still loading there is nothing to run yet; the single run must not start instead.
  if (open) runAll?.();
  else runSingle();
}
