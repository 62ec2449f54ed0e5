// Running the open run, and the tab locks around it: the tab holding a run's lock drives it (sends its rows through
// the runner); the others watch its progress over the channel and may pause or cancel it.
import type { RowItem, RowRun, StoredAnswer } from '../../../core/rows/records';
import { mayReuseByQuestion } from '../../../core/rows/questionReuse';
import { plannedFromItems } from '../../../core/rows/runPlan';
import { RowRunner } from '../../../core/rows/runner';
import { runLockName } from '../../../core/rows/runLock';
import type { RunMessage } from '../../../core/rows/runSync';
import { heldNames } from '../../persistence/tabs';
import { errorText } from './kit';
import type { RowsKit } from './kit';

/** The run engine of a rows store: the helpers its actions share. Subscribes to the other tabs' messages. */
export function rowsEngine({ deps, set, get, live, post }: RowsKit) {
  /** Tells the watching tabs where the run this tab drives stands, with the rows changed since last time. */
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
        load(runId, false).catch((error: unknown) =>
          set({ loadingRun: false, error: `The run could not be read again: ${errorText(error)}` }),
        );
      })
      .catch(() => undefined); // aborted: this tab closed the run or opened another
  };

  /** A watched driver's message: its progress and changed rows. */
  const applyProgress = (message: Extract<RunMessage, { type: 'progress' }>): void => {
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
  };

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
        applyProgress(message);
        return;
      case 'command':
        if (live.drivingId !== message.runId || !live.runner) return;
        if (message.command === 'pause') live.runner.pause();
        else live.runner.cancel();
        return;
    }
  });

  /** Reads a run, its rows and their answers from storage and makes it the open one. */
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

  /**
   * Drives the open run in this tab. The lock comes first: nothing is written or sent unless this tab holds it.
   * Then the run and every row's outcome are read again from storage, unless this tab was the last to write the
   * run, because another tab may have driven it (or died driving it) since it was opened here.
   */
  const drive = async (retryWhich?: 'failed' | 'unknown'): Promise<void> => {
    const opened = get().openRun;
    if (!opened || get().running || get().loadingRun) return;
    const id = opened.id;
    if (get().watching) {
      set({ notice: 'This run is going on in another tab; it runs in one tab at a time. Pause it first.' });
      return;
    }
    set({ running: true, error: null });
    let held = false;
    const body = async (lock: unknown): Promise<void> => {
      if (!lock) return;
      held = true;
      live.drivingId = id;
      let current: RowRunner | null = null;
      try {
        const stored = await deps.repo.getRun(id);
        if (!stored) throw new Error('It is no longer stored.');
        if (stored.updatedAt !== live.lastOwnWrite.get(id) || !live.runner) await load(id, true);
        current = live.runner!;
        if (retryWhich) await current.retry(current.retryable()[retryWhich]);
        post({ type: 'started', runId: id });
        set({ progress: current.progress(), notice: null });
        await saveRun(id, { status: 'running', halt: null });
        live.ticker = setInterval(() => {
          set({ progress: current!.progress() });
          publish();
        }, 500);
        await current.run();
      } catch (error) {
        set({ error: `The run stopped: ${errorText(error)}` });
      } finally {
        if (live.ticker) clearInterval(live.ticker);
        live.ticker = null;
        if (live.flushTimer) clearTimeout(live.flushTimer);
        flushNow();
        if (current && live.runner === current) {
          const end = current.progress();
          set({ progress: end });
          await saveRun(
            id,
            end.phase === 'finished'
              ? { status: 'finished', halt: null }
              : { status: 'halted', halt: end.halt },
          );
        }
        live.drivingId = null;
        set({ running: false });
        post({ type: 'ended', runId: id });
        void get().refreshRuns();
      }
    };
    try {
      if (deps.locks) await deps.locks.request(runLockName(id), { ifAvailable: true }, body);
      else await body(true);
    } catch (error) {
      set({ error: `The run could not start: ${errorText(error)}` });
    }
    if (!held) {
      set({ running: false });
      beginWatching(id);
      set({ notice: 'This run is going on in another tab; it runs in one tab at a time. Pause it first.' });
    }
  };

  /** Makes a stored run the open one: its results, and a runner over its rows and outcomes. */
  const attach = (
    run: RowRun,
    items: readonly RowItem[],
    answers: ReadonlyMap<string, StoredAnswer>,
    unreadable: number,
    { quiet = false, held = false }: { quiet?: boolean; held?: boolean } = {},
  ): void => {
    live.results = items.map((i) => ({
      number: i.number,
      line: i.line,
      id: i.id,
      data: i.data,
      ...(i.labels ? { labels: i.labels } : {}),
      ...(i.annotations ? { annotations: i.annotations } : {}),
      ...(i.outcome ? { outcome: i.outcome } : {}),
      ...(i.outcome?.answerKey && answers.has(i.outcome.answerKey)
        ? { response: answers.get(i.outcome.answerKey)!.response }
        : {}),
    }));
    live.indexOf = new Map(live.results.map((r, i) => [r.number, i]));
    const { rows, outcomes } = plannedFromItems(items, run.mapping);
    const next = new RowRunner(
      {
        targetId: run.targetId,
        target: deps.targetFor(run.targetId),
        model: run.model,
        questions: run.questions,
        rows,
        outcomes,
        pacing: run.pacing,
        maxCost: run.maxCost,
        ...(run.inputPrice !== undefined ? { inputPrice: run.inputPrice } : {}),
        ...(run.timeoutMs ? { timeoutMs: run.timeoutMs } : {}),
        questionReuse: mayReuseByQuestion(run, get().runs),
      },
      { evaluate: deps.evaluate, clock: deps.clock, store: deps.repo.runStore(run.id) },
    );
    next.subscribe((update) => {
      const at = live.indexOf.get(update.number);
      if (at === undefined) return;
      const row = live.results[at]!;
      live.results[at] = {
        ...row,
        outcome: update.outcome,
        ...(update.answer ? { response: update.answer.response } : {}),
      };
      if (live.drivingId === run.id)
        live.outbox.push({
          number: update.number,
          outcome: update.outcome,
          ...(update.answer ? { response: update.answer.response } : {}),
        });
      scheduleFlush();
    });
    live.runner = next;
    const progress = next.progress();
    const notes: string[] = [];
    // Stored as running but no tab holds its lock: the tab that drove it closed or died.
    if (run.status === 'running' && !held && !quiet) {
      notes.push(
        progress.unknown > 0
          ? `This run was interrupted (the page closed or reloaded). ${progress.unknown} row(s) in flight at that moment are marked unknown: they may have been billed, so they are only sent again if you ask.`
          : 'This run was interrupted (the page closed or reloaded). Resume to send the remaining rows; answered rows are never sent again.',
      );
    }
    if (unreadable > 0) notes.push(`${unreadable} stored row(s) could not be read and are left out.`);
    set((s) => ({
      openRun: run,
      progress,
      pacing: run.pacing,
      maxCost: run.maxCost,
      loadingRun: false,
      resultsVersion: s.resultsVersion + 1,
      ...(quiet ? {} : { notice: notes.length ? notes.join(' ') : null }),
    }));
  };

  return { publish, flushNow, scheduleFlush, saveRun, stopWatching, beginWatching, load, drive, attach };
}

export type RowsEngine = ReturnType<typeof rowsEngine>;
