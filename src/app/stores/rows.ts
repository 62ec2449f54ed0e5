// Runs of a file of rows: the file being imported and its plan, the stored runs, and the open run with its live
// progress. A run is a long process rather than a query, so it lives here; the engine (src/core/rows/runner) does
// the work and every outcome reaches IndexedDB before the store hears of it. Results (up to 100,000 rows) are kept
// outside React state and read through `results()`; `resultsVersion` says when they changed.
import { create } from 'zustand';
import type { StoreApi, UseBoundStore } from 'zustand';
import { newId } from '../../core/ids';
import { DEFAULT_PACING } from '../../core/rows/pacer';
import { RunMessageSchema } from '../../core/rows/runSync';
import { appDb } from '../persistence/db';
import { RowsRepo } from '../persistence/rowsRepo';
import { browserLocks, openChannel } from '../persistence/tabs';
import { createRowsParser } from '../workers/rowsParser';
import { appRunnerSeam } from './runnerDeps';
import { useFileRunTally } from './fileRunTally';
import { fileActions } from './rows/files';
import { importActions } from './rows/importPlan';
import { rowsKit } from './rows/kit';
import { labelActions } from './rows/labels';
import { rowsEngine } from './rows/run';
import { runsActions } from './rows/runs';
import type { RowsDeps, RowsState } from './rows/types';

export type { ImportState, RowsDeps, RowsState, RunSpec } from './rows/types';

/**
 * Creates a rows store over its dependencies. The app makes one (useRows); tests make their own. Its parts live in
 * stores/rows/: import and plan, the runs list, running and tab locks, labels and variants, files in and out.
 */
export function createRowsStore(deps: RowsDeps): UseBoundStore<StoreApi<RowsState>> {
  return create<RowsState>()((set, get) => {
    const kit = rowsKit(deps, set, get);
    const engine = rowsEngine(kit);
    return {
      import: { phase: 'idle' },
      parseOptions: { format: 'auto', header: true, literalQuotes: false },
      mapping: null,
      defaultLabels: [],
      plan: null,
      planning: false,
      planError: null,
      pacing: DEFAULT_PACING,
      maxCost: null,
      runs: [],
      openRun: null,
      progress: null,
      running: false,
      watching: false,
      heldElsewhere: [],
      loadingRun: false,
      resultsVersion: 0,
      error: null,
      notice: null,

      ...importActions(kit, engine),
      ...runsActions(kit, engine),
      ...labelActions(kit, engine),
      ...fileActions(kit, engine),

      dismiss: () => set({ error: null, notice: null }),
    };
  });
}

/** The app's rows store: IndexedDB, the worker parser, the client through the proxy, a worker-timed clock. */
export const useRows = createRowsStore({
  repo: new RowsRepo(appDb()),
  parser: createRowsParser,
  ...appRunnerSeam,
  newId,
  locks: browserLocks(),
  channel: openChannel('evaluate-workbench:rows', RunMessageSchema),
  onRuns: (runs) => useFileRunTally.getState().setRuns(runs),
});
