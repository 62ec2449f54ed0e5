// Running the open run, and the tab locks around it: the tab holding a run's lock drives it (drive.ts: sends its rows
// through the runner); the others watch its progress over the channel (watch.ts) and may pause or cancel it. Opening a
// stored run is attach.ts's; this module reads runs, saves their settings, and flushes progress to the page and tabs.
import type { RowRun } from '../../../core/rows/records';
import { runLockName } from '../../../core/rows/runLock';
import { heldNames } from '../../persistence/tabs';
import { attachAction } from './attach';
import { driveAction } from './drive';
import { errorText } from './kit';
import type { RowsEngine, RowsKit } from './kit';
import { listenToTabs, watchActions } from './watch';

export type { RowsEngine } from './kit';

/** The progress flushes of the run this tab drives: to the page, and to the watching tabs. */
function flushActions({ deps, set, get, live, post }: RowsKit) {
  const publish = (): void => {
    if (!live.runner || live.drivingId === null) return;
    post({ type: 'progress', runId: live.drivingId, progress: live.runner.progress(), updates: live.outbox });
    live.outbox = [];
  };
  const flushNow = (): void => {
    live.flushTimer = null;
    if (live.runner && !get().watching)
      set((s) => ({ progress: live.runner!.progress(), resultsVersion: s.resultsVersion + 1 }));
    publish();
  };
  const scheduleFlush = (): void => {
    live.flushTimer ??= setTimeout(flushNow, deps.flushMs ?? 500);
  };
  return { publish, flushNow, scheduleFlush };
}

/** The run engine of a rows store: the helpers its actions share. Subscribes to the other tabs' messages. */
export function rowsEngine(kit: RowsKit): RowsEngine {
  const { deps, set, get, live } = kit;
  const saveRun = async (id: string, patch: Partial<RowRun>): Promise<void> => {
    const now = deps.clock.now();
    try {
      await deps.repo.updateRun(id, patch, now);
      if (live.drivingId === id) live.lastOwnWrite.set(id, now);
      const run = get().openRun;
      if (run?.id === id) set({ openRun: { ...run, ...patch, updatedAt: now } });
    } catch (error) {
      set({ error: `The run's settings could not be saved: ${errorText(error)}` });
    }
  };
  const load = async (id: string, quiet: boolean): Promise<boolean> => {
    const run = await deps.repo.getRun(id);
    if (!run) throw new Error('It is no longer stored.');
    const { items, unreadable } = await deps.repo.loadItems(id);
    const keys = items.flatMap((i) => (i.outcome?.answerKey ? [i.outcome.answerKey] : []));
    const answers = await deps.repo.answers(keys);
    const held = !quiet && deps.locks ? (await heldNames(deps.locks)).includes(runLockName(id)) : false;
    attach(run, items, answers, quiet ? 0 : unreadable.length, { quiet, held });
    if (held) beginWatching(id);
    return held;
  };
  // load calls attach and beginWatching, defined below: the parts call each other only once the store is built.
  const flush = flushActions(kit);
  const watch = watchActions(kit, { load });
  const attach = attachAction(kit, flush);
  const { beginWatching } = watch;
  const parts = { ...flush, saveRun, load, ...watch, attach };
  const engine: RowsEngine = { ...parts, drive: driveAction(kit, parts) };
  listenToTabs(kit, engine);
  return engine;
}
