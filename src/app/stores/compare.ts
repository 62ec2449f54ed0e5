// How the user is looking at the comparison: compare mode on or off (mirrored in the address, so a reload keeps it),
// the list's order and filter. UI state only: the comparison itself is part of the open session (sessions store
// `open.compare`, saved with it), and the columns' runs are React Query mutations that settle into the session's runs.
import { create } from 'zustand';
import type { CompareSort } from '../../core/compare';
import { compareInAddress, writeCompareToAddress } from '../features/compare/viewParam';

export interface CompareViewState {
  /** Compare mode is showing instead of the single-model answers. */
  open: boolean;
  sort: CompareSort;
  /** Show only the questions above the threshold. */
  onlyFlagged: boolean;
  setOpen: (open: boolean) => void;
  setSort: (sort: CompareSort) => void;
  setOnlyFlagged: (only: boolean) => void;
}

/** The comparison view's state. */
export const useCompare = create<CompareViewState>()((set) => ({
  open: compareInAddress(),
  sort: 'question',
  onlyFlagged: false,
  setOpen: (open) => {
    writeCompareToAddress(open);
    set({ open });
  },
  setSort: (sort) => set({ sort }),
  setOnlyFlagged: (onlyFlagged) => set({ onlyFlagged }),
}));
