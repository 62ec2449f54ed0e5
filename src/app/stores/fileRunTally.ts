// How many runs of a file each session made, and of how many rows, for the sessions list: read from the stored runs at
// start and kept current by the rows store whenever it lists them. Small on purpose, so the sidebar (in the first
// chunk) never loads the rows screen's store.
import { create } from 'zustand';
import type { RowRun } from '../../core/rows/records';
import { lazyRowsRepo } from '../persistence/lazyRowsRepo';

export interface FileRunTally {
  /** The row counts of each session's file runs, by session id. */
  bySession: Record<string, { rowCount: number }[]>;
  setRuns: (runs: readonly Pick<RowRun, 'sessionId' | 'rowCount'>[]) => void;
  /** Reads the stored runs (the sidebar, before the rows screen was ever opened). */
  refresh: () => Promise<void>;
}

const tallyOf = (runs: readonly Pick<RowRun, 'sessionId' | 'rowCount'>[]): FileRunTally['bySession'] => {
  const out: FileRunTally['bySession'] = {};
  for (const r of runs) if (r.sessionId) (out[r.sessionId] ??= []).push({ rowCount: r.rowCount });
  return out;
};

export const useFileRunTally = create<FileRunTally>()((set) => ({
  bySession: {},
  setRuns: (runs) => set({ bySession: tallyOf(runs) }),
  async refresh() {
    try {
      const { runs } = await (await lazyRowsRepo()).listRuns();
      set({ bySession: tallyOf(runs) });
    } catch {
      // Storage unreadable: the rows screen says so; the list keeps what it knew.
    }
  },
}));
