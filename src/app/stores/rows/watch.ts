// Watching a run another tab drives: its progress shown live from the channel, its lock waited on, and the run read
// again from storage once that tab lets go (finished, paused, or gone with its in-flight rows unknown).
import { runLockName } from '../../../core/rows/runLock';
import type { RunMessage } from '../../../core/rows/runSync';
import { errorText } from './kit';
import type { RowsEngine, RowsKit } from './kit';

/** Starting and stopping the watch of the open run; `engine.load` reads it again when the driving tab lets go. */
export function watchActions({ deps, set, get, live }: RowsKit, engine: Pick<RowsEngine, 'load'>) {
  const stopWatching = (): void => {
    live.watchAbort?.abort();
    live.watchAbort = null;
    if (get().watching) set({ watching: false });
  };

  /**
   * The open run is driven by another tab: show it live, and wait for its lock. The lock comes free when that tab
   * stops or dies; then the run is read again from storage, so it shows as it really stands (finished, paused, or
   * interrupted with its in-flight rows unknown).
   */
  const beginWatching = (runId: string): void => {
    if (get().watching && live.watchAbort) return;
    set({
      watching: true,
      notice:
        'This run is going on in another tab: its progress shows here live. Pause or cancel it from here; resume or delete it once it stops.',
    });
    if (!deps.locks) return;
    const abort = new AbortController();
    live.watchAbort = abort;
    deps.locks
      .request(runLockName(runId), { signal: abort.signal }, () => undefined)
      .then(() => {
        if (live.watchAbort !== abort) return;
        live.watchAbort = null;
        set({ watching: false });
        void get().refreshRuns();
        if (get().openRun?.id !== runId || get().running) return;
        set({ loadingRun: true });
        engine
          .load(runId, false)
          .catch((error: unknown) =>
            set({ loadingRun: false, error: `The run could not be read again: ${errorText(error)}` }),
          );
      })
      .catch(() => undefined); // aborted: this tab closed the run or opened another
  };

  return { stopWatching, beginWatching };
}

/** A watched driver's message: its progress and changed rows. */
function applyProgress({ set, live }: RowsKit, message: Extract<RunMessage, { type: 'progress' }>): void {
  for (const update of message.updates) {
    const at = live.indexOf.get(update.number);
    if (at === undefined) continue;
    const row = live.results[at]!;
    live.results[at] = {
      ...row,
      outcome: update.outcome,
      ...(update.response ? { response: update.response } : {}),
    };
  }
  set((s) => ({ progress: message.progress, resultsVersion: s.resultsVersion + 1 }));
}

/** Listens to the other tabs: lists refreshed, a run they drive watched, a pause or cancel for the run this one drives. */
export function listenToTabs(kit: RowsKit, { beginWatching }: Pick<RowsEngine, 'beginWatching'>): void {
  const { deps, get, live } = kit;
  deps.channel?.subscribe((message) => {
    const open = get().openRun;
    switch (message.type) {
      case 'listChanged':
      case 'ended':
        void get().refreshRuns();
        return;
      case 'started':
        void get().refreshRuns();
        if (open?.id === message.runId && !get().running) beginWatching(message.runId);
        return;
      case 'progress':
        if (open?.id !== message.runId || get().running || get().loadingRun) return;
        beginWatching(message.runId);
        applyProgress(kit, message);
        return;
      case 'command':
        if (live.drivingId !== message.runId || !live.runner) return;
        if (message.command === 'pause') live.runner.pause();
        else live.runner.cancel();
        return;
    }
  });
}
