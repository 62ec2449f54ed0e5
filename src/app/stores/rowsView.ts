// The rows screen's results filter, kept outside the table so another screen can open a run's rows filtered (a
// confusion cell of the alignment screen, every disagreement of a question). One run's filter at a time: another run
// opens unfiltered.
import { create } from 'zustand';
import { NO_FILTER } from '../../core/rows/results';
import type { ResultFilter } from '../../core/rows/results';

export interface RowsViewState {
  runId: string | null;
  filter: ResultFilter;
  setFilter: (runId: string, filter: ResultFilter) => void;
}

export const useRowsView = create<RowsViewState>()((set) => ({
  runId: null,
  filter: NO_FILTER,
  setFilter: (runId, filter) => set({ runId, filter }),
}));

/** The filter of a run: the one set for it, or none. */
export const filterOf = (state: Pick<RowsViewState, 'runId' | 'filter'>, runId: string): ResultFilter =>
  state.runId === runId ? state.filter : NO_FILTER;
