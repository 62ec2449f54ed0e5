// Runs of a file of rows: the file being imported and its plan, the stored runs, and the open run with its live
// progress. A run is a long process rather than a query, so it lives here; the engine (src/core/rows/runner) does
// the work and every outcome reaches IndexedDB before the store hears of it. Results (up to 100,000 rows) are kept
// outside React state and read through `results()`; `resultsVersion` says when they changed.
import { create } from 'zustand';
import type { StoreApi, UseBoundStore } from 'zustand';
import type { Questions } from '../../contract';
import type { ClientTarget } from '../../client';
import type { ImportSummary, PlanSummary } from '../../core/rows/importSession';
import type { NamedLabel, RowMapping } from '../../core/rows/mapping';
import { suggestMapping } from '../../core/rows/mapping';
import { useFileRunTally } from './fileRunTally';
import type { Clock, Pacing } from '../../core/rows/pacer';
import { DEFAULT_PACING } from '../../core/rows/pacer';
import { ROWS_SCHEMA_VERSION } from '../../core/rows/records';
import type { LabelValue } from '../../core/alignment/types';
import type { RowItem, RowRun, StoredAnswer } from '../../core/rows/records';
import { csvChunks, exportInputColumns, jsonlChunks, leftOutLines } from '../../core/rows/results';
import type { LabelEdit } from '../../core/rows/labels';
import { mayReuseByQuestion } from '../../core/rows/questionReuse';
import type { ResultRow } from '../../core/rows/results';
import { plannedFromItems, sortIssues } from '../../core/rows/runPlan';
import type { TargetContext } from '../../core/rows/runPlan';
import { runFromResults, unreadableSentence } from '../../core/rows/importResults';
import { readResults } from '../../core/rows/resultsFile';
import type { EvaluateFn, RunProgress } from '../../core/rows/runner';
import { RowRunner } from '../../core/rows/runner';
import { evaluate } from '../../client';
import { newId } from '../../core/ids';
import { runLockName, runIdOfLock, RunMessageSchema } from '../../core/rows/runSync';
import type { RowUpdateMessage, RunMessage } from '../../core/rows/runSync';
import { appDb } from '../persistence/db';
import { RowsRepo } from '../persistence/rowsRepo';
import { browserLocks, heldNames, openChannel } from '../persistence/tabs';
import type { TabChannel, TabLocks } from '../persistence/tabs';
import { createBrowserClock } from '../features/rows/clock';
import { createRowsParser, fileText } from '../features/rows/rowsParser';
import type { ParseOptions, ParseProgress, RowsParser } from '../features/rows/rowsParser';
import { proxyTarget } from '../queries/targets';

/** What the store needs from the outside world; the app passes the real ones, tests their own. */
export interface RowsDeps {
  repo: RowsRepo;
  parser: () => RowsParser;
  evaluate: EvaluateFn;
  clock: Clock;
  targetFor: (targetId: string) => ClientTarget;
  newId: () => string;
  /** Web Locks: the tab holding a run's lock is the only one that sends its rows. Absent: this tab works alone. */
  locks?: TabLocks;
  /** Messages between tabs: the driver's live progress, and Pause/Cancel from the tabs watching it. */
  channel?: TabChannel<RunMessage>;
  /** How often progress reaches the screen while rows arrive (ms). */
  flushMs?: number;
  /** Hears every listing of the stored runs (the sessions list counts each session's file runs). */
  onRuns?: (runs: readonly RowRun[]) => void;
}

export interface ImportState {
  phase: 'idle' | 'reading' | 'ready' | 'failed';
  fileName?: string;
  progress?: ParseProgress;
  summary?: ImportSummary;
  error?: string;
}

/** What a new run is made of, beyond the file: the session's questions, model and target. */

export interface RunSpec {
  questions: Questions;
  model: string;
  targetId: string;
  sessionId?: string;
  /** The target's price per million input tokens (null: unknown); absent: the published price. */
  inputPrice?: number | null;
}

export interface RowsState {
  import: ImportState;
  parseOptions: ParseOptions;
  mapping: RowMapping | null;
  plan: PlanSummary | null;
  planning: boolean;
  planError: string | null;
  pacing: Pacing;
  maxCost: number | null;

  runs: RowRun[];
  openRun: RowRun | null;
  /** Set while a run is open: its counts, rate, ETA, cost. */
  progress: RunProgress | null;
  /** True while this tab drives the open run. */
  running: boolean;
  /** True while another tab drives the open run: this one shows its progress live and may pause or cancel it. */
  watching: boolean;
  /** Runs another tab is driving now (their lock is held): not interrupted, not to be resumed or deleted here. */
  heldElsewhere: string[];
  loadingRun: boolean;
  resultsVersion: number;
  /** One sentence about the last thing that went wrong (storage, reading, starting). */
  error: string | null;
  notice: string | null;

  /** Columns read as human labels by default because they are named like a question (undone by keepLabelsInState). */
  defaultLabels: NamedLabel[];
  /** Reads a file; columns named like one of `questions` are mapped as their labels by default. */
  pickFile: (file: File, questions?: readonly string[]) => Promise<void>;
  /** Undoes the default labels: those columns go back into the state. */
  keepLabelsInState: () => void;
  setParseOptions: (options: Partial<ParseOptions>) => Promise<void>;
  setMapping: (mapping: RowMapping) => void;
  /** Plans the loaded file against the mapping and the session's questions (the worker counts the tokens). */
  planFor: (questions: Questions | null, context?: TargetContext) => Promise<void>;
  setPacing: (pacing: Pacing) => void;
  setMaxCost: (maxCost: number | null) => void;
  clearImport: () => void;

  refreshRuns: () => Promise<void>;
  /** Stores the planned file as a new run and opens it; returns its id. */
  createRun: (spec: RunSpec) => Promise<string | null>;
  openRunById: (id: string) => Promise<void>;
  closeRun: () => void;
  deleteRun: (id: string) => Promise<void>;
  start: () => Promise<void>;
  pause: () => void;
  cancel: () => void;
  retry: (which: 'failed' | 'unknown') => Promise<void>;
  results: () => readonly ResultRow[];
  /** Sets (or clears, with null) the human label of one row of the open run; saved before the screen hears of it. */
  setLabel: (number: number, question: string, value: LabelValue | null) => Promise<void>;
  /** Sets (or clears) many labels of the open run's rows in one save, as setLabel does one. */
  setLabels: (changes: readonly LabelEdit[]) => Promise<void>;
  /**
   * Stores the open run's rows and labels again as a new run with other questions, model or target (a variant) and
   * opens it; answers already stored for an unchanged request are reused when it runs. Returns its id.
   */
  createVariant: (spec: RunSpec) => Promise<string | null>;
  /**
   * Opens a results file written by the command line (`evaluate-workbench run --out`) as a stored run, as if it had
   * been made here; its answers join the shared store. Returns the run's id, or null with a sentence in `error`.
   */
  openResultsFile: (file: File) => Promise<string | null>;
  /**
   * The open run's results as a file: CSV (with a BOM, for spreadsheets) or JSONL. With `leftOut`, the lines of the
   * file that were never sent come too, each with its line number and reason: one export line per input line.
   */
  exportRun: (
    kind: 'csv' | 'jsonl',
    options?: { leftOut?: boolean },
  ) => Promise<{ fileName: string; type: string; parts: string[] } | null>;
  dismiss: () => void;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const baseName = (fileName: string): string => fileName.replace(/\.[^.]+$/, '') || 'rows';

/** Creates a rows store over its dependencies. The app makes one (useRows); tests make their own. */
export function createRowsStore(deps: RowsDeps): UseBoundStore<StoreApi<RowsState>> {
  let parser: RowsParser | null = null;
  const parserOf = (): RowsParser => (parser ??= deps.parser());
  let runner: RowRunner | null = null;
  let results: ResultRow[] = [];
  let indexOf = new Map<number, number>();
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  let ticker: ReturnType<typeof setInterval> | null = null;
  let planSeq = 0;
  // The file last picked (and the questions it was picked against), so changing the parse options reads it again.
  let lastFile: File | null = null;
  let lastQuestions: readonly string[] = [];

  // Cross-tab state: the run this tab drives (holds the lock of), the rows changed since the last message to the
  // watching tabs, the wait for another tab's lock while watching, and the run record as this tab last wrote it.
  let drivingId: string | null = null;
  let outbox: RowUpdateMessage[] = [];
  let watchAbort: AbortController | null = null;
  const lastOwnWrite = new Map<string, number>();
  const post = (message: RunMessage): void => deps.channel?.post(message);

  return create<RowsState>()((set, get) => {
    /** Tells the watching tabs where the run this tab drives stands, with the rows changed since last time. */
    const publish = (): void => {
      if (!runner || drivingId === null) return;
      post({ type: 'progress', runId: drivingId, progress: runner.progress(), updates: outbox });
      outbox = [];
    };
    const flushNow = (): void => {
      flushTimer = null;
      if (runner && !get().watching)
        set((s) => ({ progress: runner!.progress(), resultsVersion: s.resultsVersion + 1 }));
      publish();
    };
    const scheduleFlush = (): void => {
      flushTimer ??= setTimeout(flushNow, deps.flushMs ?? 500);
    };

    const saveRun = async (id: string, patch: Partial<RowRun>): Promise<void> => {
      const now = deps.clock.now();
      try {
        await deps.repo.updateRun(id, patch, now);
        if (drivingId === id) lastOwnWrite.set(id, now);
        const run = get().openRun;
        if (run?.id === id) set({ openRun: { ...run, ...patch, updatedAt: now } });
      } catch (error) {
        set({ error: `The run's settings could not be saved: ${errorText(error)}` });
      }
    };

    const stopWatching = (): void => {
      watchAbort?.abort();
      watchAbort = null;
      if (get().watching) set({ watching: false });
    };

    /**
     * The open run is driven by another tab: show it live, and wait for its lock. The lock comes free when that tab
     * stops or dies; then the run is read again from storage, so it shows as it really stands (finished, paused, or
     * interrupted with its in-flight rows unknown).
     */
    const beginWatching = (runId: string): void => {
      if (get().watching && watchAbort) return;
      set({
        watching: true,
        notice:
          'This run is going on in another tab: its progress shows here live. Pause or cancel it from here; resume or delete it once it stops.',
      });
      if (!deps.locks) return;
      const abort = new AbortController();
      watchAbort = abort;
      deps.locks
        .request(runLockName(runId), { signal: abort.signal }, () => undefined)
        .then(() => {
          if (watchAbort !== abort) return;
          watchAbort = null;
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
        const at = indexOf.get(update.number);
        if (at === undefined) continue;
        const row = results[at]!;
        results[at] = {
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
          if (drivingId !== message.runId || !runner) return;
          if (message.command === 'pause') runner.pause();
          else runner.cancel();
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
        drivingId = id;
        let current: RowRunner | null = null;
        try {
          const stored = await deps.repo.getRun(id);
          if (!stored) throw new Error('It is no longer stored.');
          if (stored.updatedAt !== lastOwnWrite.get(id) || !runner) await load(id, true);
          current = runner!;
          if (retryWhich) await current.retry(current.retryable()[retryWhich]);
          post({ type: 'started', runId: id });
          set({ progress: current.progress(), notice: null });
          await saveRun(id, { status: 'running', halt: null });
          ticker = setInterval(() => {
            set({ progress: current!.progress() });
            publish();
          }, 500);
          await current.run();
        } catch (error) {
          set({ error: `The run stopped: ${errorText(error)}` });
        } finally {
          if (ticker) clearInterval(ticker);
          ticker = null;
          if (flushTimer) clearTimeout(flushTimer);
          flushNow();
          if (current && runner === current) {
            const end = current.progress();
            set({ progress: end });
            await saveRun(
              id,
              end.phase === 'finished'
                ? { status: 'finished', halt: null }
                : { status: 'halted', halt: end.halt },
            );
          }
          drivingId = null;
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
      results = items.map((i) => ({
        number: i.number,
        line: i.line,
        id: i.id,
        data: i.data,
        ...(i.labels ? { labels: i.labels } : {}),
        ...(i.outcome ? { outcome: i.outcome } : {}),
        ...(i.outcome?.answerKey && answers.has(i.outcome.answerKey)
          ? { response: answers.get(i.outcome.answerKey)!.response }
          : {}),
      }));
      indexOf = new Map(results.map((r, i) => [r.number, i]));
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
        const at = indexOf.get(update.number);
        if (at === undefined) return;
        const row = results[at]!;
        results[at] = {
          ...row,
          outcome: update.outcome,
          ...(update.answer ? { response: update.answer.response } : {}),
        };
        if (drivingId === run.id)
          outbox.push({
            number: update.number,
            outcome: update.outcome,
            ...(update.answer ? { response: update.answer.response } : {}),
          });
        scheduleFlush();
      });
      runner = next;
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

      async pickFile(file, questions = []) {
        set({
          import: { phase: 'reading', fileName: file.name },
          mapping: null,
          defaultLabels: [],
          plan: null,
          planError: null,
          error: null,
        });
        try {
          const summary = await parserOf().parse(file, get().parseOptions, (progress) =>
            set((s) => (s.import.fileName === file.name ? { import: { ...s.import, progress } } : s)),
          );
          // The worker suggests without the questions; a column named like one is its label, never in the state.
          const mapping = suggestMapping(summary.columns, summary.objectRows, questions);
          set({
            import: { phase: 'ready', fileName: file.name, summary },
            mapping,
            defaultLabels: (mapping.labels ?? []).map(({ column, question }) => ({ column, question })),
          });
          lastFile = file;
          lastQuestions = questions;
        } catch (error) {
          set({ import: { phase: 'failed', fileName: file.name, error: errorText(error) } });
        }
      },

      async setParseOptions(options) {
        set((s) => ({ parseOptions: { ...s.parseOptions, ...options } }));
        if (lastFile) await get().pickFile(lastFile, lastQuestions);
      },

      keepLabelsInState() {
        const { mapping, defaultLabels } = get();
        if (!mapping) return;
        const labels = (mapping.labels ?? []).filter(
          (l) => !defaultLabels.some((d) => d.column === l.column && d.question === l.question),
        );
        set({ mapping: { ...mapping, labels }, defaultLabels: [] });
      },

      setMapping: (mapping) => set({ mapping }),

      async planFor(questions, context) {
        const { mapping, import: imp } = get();
        if (!mapping || imp.phase !== 'ready') return;
        if (!questions) {
          set({ plan: null, planError: null });
          return;
        }
        const seq = ++planSeq;
        set({ planning: true });
        try {
          const plan = await parserOf().plan(mapping, questions, context);
          if (seq === planSeq) set({ plan, planning: false, planError: null });
        } catch (error) {
          if (seq === planSeq) set({ planning: false, planError: errorText(error) });
        }
      },

      setPacing(pacing) {
        set({ pacing });
        const run = get().openRun;
        if (runner && run) {
          runner.setPacing(pacing);
          void saveRun(run.id, { pacing });
        }
      },

      setMaxCost(maxCost) {
        set({ maxCost });
        const run = get().openRun;
        if (runner && run) {
          runner.setBudget(maxCost);
          void saveRun(run.id, { maxCost });
        }
      },

      clearImport() {
        lastFile = null;
        set({ import: { phase: 'idle' }, mapping: null, defaultLabels: [], plan: null, planError: null });
      },

      async refreshRuns() {
        try {
          const { runs } = await deps.repo.listRuns();
          const held = deps.locks ? await heldNames(deps.locks) : [];
          const heldElsewhere = held.flatMap((name) => {
            const id = runIdOfLock(name);
            return id !== null && id !== drivingId ? [id] : [];
          });
          set({ runs, heldElsewhere });
          deps.onRuns?.(runs);
        } catch (error) {
          set({ error: `Stored runs could not be read: ${errorText(error)}` });
        }
      },

      async createRun(spec) {
        const { plan, mapping, import: imp, pacing, maxCost } = get();
        if (!plan || !mapping || imp.phase !== 'ready' || !imp.summary) return null;
        const id = deps.newId();
        const now = deps.clock.now();
        try {
          const items = await parserOf().items(id);
          const run: RowRun = {
            schemaVersion: ROWS_SCHEMA_VERSION,
            id,
            ...(spec.sessionId ? { sessionId: spec.sessionId } : {}),
            fileName: imp.summary.fileName,
            format: imp.summary.format,
            columns: imp.summary.columns,
            createdAt: now,
            updatedAt: now,
            targetId: spec.targetId,
            model: spec.model,
            questions: spec.questions,
            mapping,
            pacing,
            maxCost,
            ...(spec.inputPrice !== undefined ? { inputPrice: spec.inputPrice } : {}),
            rowCount: items.length,
            issues: sortIssues([...imp.summary.parseIssues, ...plan.issues]),
            totalTokens: plan.totalTokens,
            status: 'ready',
            halt: null,
          };
          await deps.repo.createRun(run, items);
          lastOwnWrite.set(id, now);
          stopWatching();
          // The rows are in memory already: open the run from them rather than reading 100,000 rows back.
          attach(run, items, new Map(), 0);
          post({ type: 'listChanged' });
        } catch (error) {
          set({ error: `The run could not be stored: ${errorText(error)}` });
          return null;
        }
        await get().refreshRuns();
        return id;
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
        runner = null;
        results = [];
        indexOf = new Map();
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

      async start() {
        if (get().running || !runner) return;
        await drive();
      },

      pause() {
        const open = get().openRun;
        if (get().watching && open) post({ type: 'command', runId: open.id, command: 'pause' });
        else runner?.pause();
      },
      cancel() {
        const open = get().openRun;
        if (get().watching && open) post({ type: 'command', runId: open.id, command: 'cancel' });
        else runner?.cancel();
      },

      async retry(which) {
        if (!runner) return;
        if (!get().running) {
          // Queued again under the run's lock, after the rows are read afresh: never over another tab's run.
          await drive(which);
          return;
        }
        try {
          await runner.retry(runner.retryable()[which]);
        } catch (error) {
          set({ error: `The rows could not be queued again: ${errorText(error)}` });
          return;
        }
        flushNow();
      },

      results: () => results,

      setLabel: (number, question, value) => get().setLabels([{ number, question, value }]),

      async setLabels(changes) {
        const run = get().openRun;
        const known = changes.filter((c) => indexOf.has(c.number));
        if (!run || known.length === 0) return;
        try {
          const after = await deps.repo.setLabels(run.id, known);
          for (const [number, labels] of after) {
            const at = indexOf.get(number);
            if (at === undefined) continue;
            const { labels: _old, ...rest } = results[at]!;
            results[at] = labels ? { ...rest, labels } : rest;
          }
          set((s) => ({ resultsVersion: s.resultsVersion + 1 }));
        } catch (error) {
          set({
            error: `The label${known.length === 1 ? '' : 's'} could not be saved: ${errorText(error)}`,
          });
        }
      },

      async createVariant(spec) {
        const base = get().openRun;
        if (!base || get().running) return null;
        const id = deps.newId();
        const now = deps.clock.now();
        try {
          const { items: stored } = await deps.repo.loadItems(base.id);
          const items: RowItem[] = stored.map(({ outcome: _outcome, ...item }) => ({ ...item, runId: id }));
          const run: RowRun = {
            ...base,
            id,
            ...(spec.sessionId ? { sessionId: spec.sessionId } : {}),
            createdAt: now,
            updatedAt: now,
            targetId: spec.targetId,
            model: spec.model,
            questions: spec.questions,
            rowCount: items.length,
            status: 'ready',
            halt: null,
            variantOf: base.variantOf ?? base.id,
          };
          await deps.repo.createRun(run, items);
          attach(run, items, new Map(), 0);
        } catch (error) {
          set({ error: `The variant could not be stored: ${errorText(error)}` });
          return null;
        }
        await get().refreshRuns();
        return id;
      },

      async openResultsFile(file) {
        if (get().running) return null;
        set({ error: null, notice: null });
        let text: string;
        try {
          text = await fileText(file);
        } catch (error) {
          set({ error: `${file.name} could not be read: ${errorText(error)}` });
          return null;
        }
        const now = deps.clock.now();
        const read = readResults(text, now);
        if (!read.ok) {
          set({ error: `${file.name}: ${read.message}` });
          return null;
        }
        if (read.results.rows.length === 0) {
          set({
            error: `${file.name} has no row results yet (the command line writes one line per row as it settles): nothing to open.`,
          });
          return null;
        }
        const id = deps.newId();
        try {
          // Loaded on demand, as the file reader does: the tokenizer is large and most sessions never import results.
          const { requestTokens } = await import('../../contract/tokens');
          const imported = runFromResults(read.results, {
            runId: id,
            now,
            tokensOf: (state, questions) => requestTokens({ state, questions }).total,
          });
          await deps.repo.createRun(imported.run, imported.items, undefined, imported.answers);
          lastOwnWrite.set(id, now);
          stopWatching();
          attach(imported.run, imported.items, new Map(imported.answers.map((a) => [a.key, a])), 0);
          const skipped = unreadableSentence(file.name, read.results.unreadable);
          set({
            notice: `Opened ${file.name}, the command line's results for ${imported.run.fileName}: ${imported.items.length} row(s).${skipped ? ` ${skipped}` : ''}`,
          });
          post({ type: 'listChanged' });
        } catch (error) {
          set({ error: `The results of ${file.name} could not be stored: ${errorText(error)}` });
          return null;
        }
        await get().refreshRuns();
        return id;
      },

      async exportRun(kind, options = {}) {
        const run = get().openRun;
        if (!run) return null;
        const name = `${baseName(run.fileName)}-results`;
        const leftOut = options.leftOut ? leftOutLines(run.issues) : [];
        const chunks =
          kind === 'csv'
            ? csvChunks(results, run.questions, exportInputColumns(results, run.columns), undefined, leftOut)
            : jsonlChunks(results, undefined, leftOut);
        // Built a piece at a time with a pause between pieces, so a 100,000-row export never freezes the page.
        const parts: string[] = kind === 'csv' ? ['\ufeff'] : [];
        for (const part of chunks) {
          parts.push(part);
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        return kind === 'csv'
          ? { fileName: `${name}.csv`, type: 'text/csv;charset=utf-8', parts }
          : { fileName: `${name}.jsonl`, type: 'application/x-ndjson', parts };
      },

      dismiss: () => set({ error: null, notice: null }),
    };
  });
}

/** The app's rows store: IndexedDB, the worker parser, the client through the proxy, a worker-timed clock. */
export const useRows = createRowsStore({
  repo: new RowsRepo(appDb()),
  parser: createRowsParser,
  evaluate,
  clock: createBrowserClock(),
  targetFor: proxyTarget,
  newId,
  locks: browserLocks(),
  channel: openChannel('evaluate-workbench:rows', RunMessageSchema),
  onRuns: (runs) => useFileRunTally.getState().setRuns(runs),
});
