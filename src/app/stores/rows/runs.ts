// The stored runs: listing them (with the ones another tab drives), opening, closing and deleting one, and starting,
// pausing, cancelling or retrying the open one.
import { runIdOfLock, runLockName } from '../../../core/rows/runLock';
import { heldNames } from '../../persistence/tabs';
import { errorText } from './kit';
import type { RowsKit } from './kit';
import type { RowsEngine } from './run';
import type { RowsState } from './types';

type RunsActions = Pick<
  RowsState,
  | 'refreshRuns'
  | 'openRunById'
  | 'closeRun'
  | 'deleteRun'
  | 'start'
  | 'pause'
  | 'cancel'
  | 'retry'
  | 'results'
>;

/** The stored runs: listing them with those another tab drives, opening, closing and deleting one. */
function storedRunActions({ deps, set, get, live, post }: RowsKit, { stopWatching, load }: RowsEngine) {
  return {
    async refreshRuns() {
      try {
        const { runs } = await deps.repo.listRuns();
        const held = deps.locks ? await heldNames(deps.locks) : [];
        const heldElsewhere = held.flatMap((name) => {
          const id = runIdOfLock(name);
          return id !== null && id !== live.drivingId ? [id] : [];
        });
        set({ runs, heldElsewhere });
        deps.onRuns?.(runs);
      } catch (error) {
        set({ error: `Stored runs could not be read: ${errorText(error)}` });
      }
    },

    async openRunById(id) {
      if (get().running) return;
      stopWatching();
      set({ loadingRun: true, error: null, notice: null });
      try {
        await load(id, false);
      } catch (error) {
        set({ loadingRun: false, error: `The run could not be opened: ${errorText(error)}` });
      }
    },

    closeRun() {
      if (get().running) return;
      stopWatching();
      live.runner = null;
      live.results = [];
      live.indexOf = new Map();
      set((s) => ({ openRun: null, progress: null, notice: null, resultsVersion: s.resultsVersion + 1 }));
    },

    async deleteRun(id) {
      if (get().running && get().openRun?.id === id) return;
      // Deleted under its lock, so a run another tab drives is never deleted from under it.
      const remove = async (lock: unknown): Promise<void> => {
        if (!lock) {
          set({
            error:
              'This run is going on in another tab, so it cannot be deleted now: pause or cancel it first.',
          });
          return;
        }
        await deps.repo.deleteRun(id);
        if (get().openRun?.id === id) get().closeRun();
        post({ type: 'listChanged' });
      };
      try {
        if (deps.locks) await deps.locks.request(runLockName(id), { ifAvailable: true }, remove);
        else await remove(true);
      } catch (error) {
        set({ error: `The run could not be deleted: ${errorText(error)}` });
      }
      await get().refreshRuns();
    },
  } satisfies Pick<RowsState, 'refreshRuns' | 'openRunById' | 'closeRun' | 'deleteRun'>;
}

/** The open run's controls: start, pause, cancel (reaching the tab that drives it) and retry, and its results. */
function openRunControls({ set, get, live, post }: RowsKit, { flushNow, drive }: RowsEngine) {
  return {
    async start() {
      if (get().running || !live.runner) return;
      await drive();
    },

    pause() {
      const open = get().openRun;
      if (get().watching && open) post({ type: 'command', runId: open.id, command: 'pause' });
      else live.runner?.pause();
    },
    cancel() {
      const open = get().openRun;
      if (get().watching && open) post({ type: 'command', runId: open.id, command: 'cancel' });
      else live.runner?.cancel();
    },

    async retry(which) {
      if (!live.runner) return;
      if (!get().running) {
        // Queued again under the run's lock, after the rows are read afresh: never over another tab's run.
        await drive(which);
        return;
      }
      try {
        await live.runner.retry(live.runner.retryable()[which]);
      } catch (error) {
        set({ error: `The rows could not be queued again: ${errorText(error)}` });
        return;
      }
      flushNow();
    },

    results: () => live.results,
  } satisfies Pick<RowsState, 'start' | 'pause' | 'cancel' | 'retry' | 'results'>;
}

export function runsActions(kit: RowsKit, engine: RowsEngine): RunsActions {
  return { ...storedRunActions(kit, engine), ...openRunControls(kit, engine) };
}
