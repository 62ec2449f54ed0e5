// A run of rows that was going when the page closed: found at start, offered on the main screen in one line, and
// opened on the rows screen with Resume in view. Never resumed by itself: rows in flight at the close may have been
// billed, so going on stays the user's call. Light on purpose: the main screen loads it, not the rows screen's code.
import { create } from 'zustand';
import { runLockName } from '../../core/rows/runLock';
import { lazyRowsRepo } from '../persistence/lazyRowsRepo';
import type { RowsRepo } from '../persistence/rowsRepo';
import { browserLocks, heldNames } from '../persistence/tabs';
import type { TabLocks } from '../persistence/tabs';

/** The interrupted run on offer. */
export interface InterruptedRun {
  runId: string;
  fileName: string;
  settled: number;
  total: number;
}

export interface ResumeOfferState {
  offer: InterruptedRun | null;
  /** Set when the user asked to see the run (or opened the rows screen): the rows screen opens it once. */
  pendingOpen: string | null;
  /** Looks for the newest run stored as running that no tab drives (its lock is free). */
  check(): Promise<void>;
  /** The user goes to the run: the rows screen will open it. */
  take(): void;
  /** The rows screen opened it (or the user closed the line): nothing more to offer. */
  done(): void;
}

/** Makes the store over a repo and the tabs' locks; the app uses the one below. */
export function createResumeOfferStore(
  repo: () => Promise<Pick<RowsRepo, 'listRuns' | 'countSettled'>>,
  locks: TabLocks | undefined,
) {
  return create<ResumeOfferState>()((set, get) => ({
    offer: null,
    pendingOpen: null,
    async check() {
      try {
        const rows = await repo();
        const { runs } = await rows.listRuns();
        const held = locks ? new Set(await heldNames(locks)) : new Set<string>();
        const run = runs.find((r) => r.status === 'running' && !held.has(runLockName(r.id)));
        if (!run) return;
        const settled = await rows.countSettled(run.id);
        set({ offer: { runId: run.id, fileName: run.fileName, settled, total: run.rowCount } });
      } catch {
        // Storage trouble is reported by the sessions' save line; the offer is a convenience.
      }
    },
    take() {
      const offer = get().offer;
      if (offer) set({ pendingOpen: offer.runId });
    },
    done() {
      set({ offer: null, pendingOpen: null });
    },
  }));
}

/** The app's offer. */
export const useResumeOffer = createResumeOfferStore(lazyRowsRepo, browserLocks());
