// What the user is doing in the comparison view, apart from the comparison itself (which is saved in the session):
// how the questions are listed. UI state only; the columns' runs live in React Query, the comparison in the session.
import { create } from 'zustand';
import type { CompareSort } from '../../core/compare';

export interface CompareViewState {
  sort: CompareSort;
  /** Show only the questions above the threshold. */
  onlyFlagged: boolean;
  setSort: (sort: CompareSort) => void;
  setOnlyFlagged: (only: boolean) => void;
}

/** The comparison view's listing options. */
export const useCompareView = create<CompareViewState>()((set) => ({
  sort: 'question',
  onlyFlagged: false,
  setSort: (sort) => set({ sort }),
  setOnlyFlagged: (onlyFlagged) => set({ onlyFlagged }),
}));
