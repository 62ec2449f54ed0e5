// Driving the open run in this tab: its lock taken first (nothing is written or sent unless this tab holds it), the
// run read again when another tab may have driven it, the runner run with its progress ticked to the page and the
// other tabs, and the run's record saved as it ends.
import type { RowRunner } from '../../../core/rows/runner';
import { runLockName } from '../../../core/rows/runLock';
import { errorText } from './kit';
import type { RowsEngine, RowsKit } from './kit';

const ELSEWHERE = 'This run is going on in another tab; it runs in one tab at a time. Pause it first.';

/** The run `id` driven while this tab holds its lock, from a fresh read to its saved end. */
function driveHeld(
  kit: RowsKit,
  engine: Omit<RowsEngine, 'drive'>,
  id: string,
  retryWhich?: 'failed' | 'unknown',
) {
  const { deps, set, get, live, post } = kit;
  return async (): Promise<void> => {
    live.drivingId = id;
    let current: RowRunner | null = null;
    try {
      const stored = await deps.repo.getRun(id);
      if (!stored) throw new Error('It is no longer stored.');
      // Another tab may have driven it (or died driving it) since this tab last wrote it.
      if (stored.updatedAt !== live.lastOwnWrite.get(id) || !live.runner) await engine.load(id, true);
      current = live.runner!;
      if (retryWhich) await current.retry(current.retryable()[retryWhich]);
      post({ type: 'started', runId: id });
      set({ progress: current.progress(), notice: null });
      await engine.saveRun(id, { status: 'running', halt: null });
      live.ticker = setInterval(() => {
        set({ progress: current!.progress() });
        engine.publish();
      }, 500);
      await current.run();
    } catch (error) {
      set({ error: `The run stopped: ${errorText(error)}` });
    } finally {
      if (live.ticker) clearInterval(live.ticker);
      live.ticker = null;
      if (live.flushTimer) clearTimeout(live.flushTimer);
      engine.flushNow();
      if (current && live.runner === current) {
        const end = current.progress();
        set({ progress: end });
        const ended = end.phase === 'finished' ? 'finished' : 'halted';
        await engine.saveRun(id, { status: ended, halt: ended === 'finished' ? null : end.halt });
      }
      live.drivingId = null;
      set({ running: false });
      post({ type: 'ended', runId: id });
      void get().refreshRuns();
    }
  };
}

/**
 * Drives the open run in this tab. The lock comes first: nothing is written or sent unless this tab holds it.
 * Then the run and every row's outcome are read again from storage, unless this tab was the last to write the
 * run, because another tab may have driven it (or died driving it) since it was opened here.
 */
export function driveAction(kit: RowsKit, engine: Omit<RowsEngine, 'drive'>) {
  const { deps, set, get } = kit;
  return async (retryWhich?: 'failed' | 'unknown'): Promise<void> => {
    const opened = get().openRun;
    if (!opened || get().running || get().loadingRun) return;
    const id = opened.id;
    if (get().watching) {
      set({ notice: ELSEWHERE });
      return;
    }
    set({ running: true, error: null });
    let held = false;
    const drive = driveHeld(kit, engine, id, retryWhich);
    const body = async (lock: unknown): Promise<void> => {
      if (!lock) return;
      held = true;
      await drive();
    };
    try {
      if (deps.locks) await deps.locks.request(runLockName(id), { ifAvailable: true }, body);
      else await body(true);
    } catch (error) {
      set({ error: `The run could not start: ${errorText(error)}` });
    }
    if (!held) {
      set({ running: false });
      engine.beginWatching(id);
      set({ notice: ELSEWHERE });
    }
  };
}
