// Runs of a file of rows: the file being imported and its plan, the stored runs, and the open run with its live
// progress. A run is a long process rather than a query, so it lives here; the engine (src/core/rows/runner) does
// the work and every outcome reaches IndexedDB before the store hears of it. Results (up to 100,000 rows) are kept
// outside React state and read through `results()`; `resultsVersion` says when they changed.
import { create } from 'zustand';
import type { StoreApi, UseBoundStore } from 'zustand';
import type { Questions } from '../../contract';
import type { ClientTarget } from '../../client';
import type { ImportSummary, PlanSummary } from '../../core/rows/importSession';
import type { RowMapping } from '../../core/rows/mapping';
import type { Clock, Pacing } from '../../core/rows/pacer';
import { DEFAULT_PACING } from '../../core/rows/pacer';
import { ROWS_SCHEMA_VERSION } from '../../core/rows/records';
import type { LabelValue } from '../../core/alignment/types';
import type { RowItem, RowRun, StoredAnswer } from '../../core/rows/records';
import { csvChunks, exportInputColumns, jsonlChunks } from '../../core/rows/results';
import type { ResultRow } from '../../core/rows/results';
import { plannedFromItems, sortIssues } from '../../core/rows/runPlan';
import type { EvaluateFn, RunProgress } from '../../core/rows/runner';
import { RowRunner } from '../../core/rows/runner';
import { evaluate } from '../../client';
import { newId } from '../../core/ids';
import { appDb } from '../persistence/db';
import { RowsRepo } from '../persistence/rowsRepo';
import { createBrowserClock } from '../features/rows/clock';
import { createRowsParser } from '../features/rows/rowsParser';
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
  /** Web Locks, so two tabs never drive the same run; absent in tests. */
  locks?: {
    request(
      name: string,
      options: { ifAvailable: boolean },
      cb: (lock: unknown) => Promise<void>,
    ): Promise<void>;
  };
  /** How often progress reaches the screen while rows arrive (ms). */
  flushMs?: number;
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
  loadingRun: boolean;
  resultsVersion: number;
  /** One sentence about the last thing that went wrong (storage, reading, starting). */
  error: string | null;
  notice: string | null;

  pickFile: (file: File) => Promise<void>;
  setParseOptions: (options: Partial<ParseOptions>) => Promise<void>;
  setMapping: (mapping: RowMapping) => void;
  /** Plans the loaded file against the mapping and the session's questions (the worker counts the tokens). */
  planFor: (questions: Questions | null) => Promise<void>;
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
  /**
   * Stores the open run's rows and labels again as a new run with other questions, model or target (a variant) and
   * opens it; answers already stored for an unchanged request are reused when it runs. Returns its id.
   */
  createVariant: (spec: RunSpec) => Promise<string | null>;
  /** The open run's results as a file: CSV (with a BOM, for spreadsheets) or JSONL. */
  exportRun: (kind: 'csv' | 'jsonl') => Promise<{ fileName: string; type: string; parts: string[] } | null>;
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
  // The file last picked, so changing the parse options reads it again.
  let lastFile: File | null = null;

  return create<RowsState>()((set, get) => {
    const flushNow = (): void => {
      flushTimer = null;
      if (runner) set((s) => ({ progress: runner!.progress(), resultsVersion: s.resultsVersion + 1 }));
    };
    const scheduleFlush = (): void => {
      flushTimer ??= setTimeout(flushNow, deps.flushMs ?? 500);
    };

    const saveRun = async (id: string, patch: Partial<RowRun>): Promise<void> => {
      try {
        await deps.repo.updateRun(id, patch, deps.clock.now());
        const run = get().openRun;
        if (run?.id === id) set({ openRun: { ...run, ...patch, updatedAt: deps.clock.now() } });
      } catch (error) {
        set({ error: `The run's settings could not be saved: ${errorText(error)}` });
      }
    };

    const drive = async (): Promise<void> => {
      const current = runner;
      const run = get().openRun;
      if (!current || !run) return;
      set({ running: true, error: null, progress: current.progress() });
      await saveRun(run.id, { status: 'running', halt: null });
      ticker = setInterval(() => set({ progress: current.progress() }), 500);
      try {
        const go = async (): Promise<void> => {
          await current.run();
        };
        if (deps.locks) {
          await deps.locks.request(
            `evaluate-workbench:rows:${run.id}`,
            { ifAvailable: true },
            async (lock) => {
              if (!lock) {
                set({ notice: 'This run is going on in another tab; it runs in one tab at a time.' });
                return;
              }
              await go();
            },
          );
        } else await go();
      } catch (error) {
        set({ error: `The run stopped: ${errorText(error)}` });
      } finally {
        if (ticker) clearInterval(ticker);
        ticker = null;
        if (flushTimer) clearTimeout(flushTimer);
        flushNow();
        const end = current.progress();
        if (runner === current) {
          set({ running: false, progress: end });
          await saveRun(
            run.id,
            end.phase === 'finished'
              ? { status: 'finished', halt: null }
              : { status: 'halted', halt: end.halt },
          );
        }
        void get().refreshRuns();
      }
    };

    /** Makes a stored run the open one: its results, and a runner over its rows and outcomes. */
    const attach = (
      run: RowRun,
      items: readonly RowItem[],
      answers: ReadonlyMap<string, StoredAnswer>,
      unreadable: number,
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
        scheduleFlush();
      });
      runner = next;
      const progress = next.progress();
      const notes: string[] = [];
      if (run.status === 'running') {
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
        notice: notes.length ? notes.join(' ') : null,
      }));
    };

    return {
      import: { phase: 'idle' },
      parseOptions: { format: 'auto', header: true, literalQuotes: false },
      mapping: null,
      plan: null,
      planning: false,
      planError: null,
      pacing: DEFAULT_PACING,
      maxCost: null,
      runs: [],
      openRun: null,
      progress: null,
      running: false,
      loadingRun: false,
      resultsVersion: 0,
      error: null,
      notice: null,

      async pickFile(file) {
        set({
          import: { phase: 'reading', fileName: file.name },
          mapping: null,
          plan: null,
          planError: null,
          error: null,
        });
        try {
          const summary = await parserOf().parse(file, get().parseOptions, (progress) =>
            set((s) => (s.import.fileName === file.name ? { import: { ...s.import, progress } } : s)),
          );
          set({ import: { phase: 'ready', fileName: file.name, summary }, mapping: summary.suggested });
          lastFile = file;
        } catch (error) {
          set({ import: { phase: 'failed', fileName: file.name, error: errorText(error) } });
        }
      },

      async setParseOptions(options) {
        set((s) => ({ parseOptions: { ...s.parseOptions, ...options } }));
        if (lastFile) await get().pickFile(lastFile);
      },

      setMapping: (mapping) => set({ mapping }),

      async planFor(questions) {
        const { mapping, import: imp } = get();
        if (!mapping || imp.phase !== 'ready') return;
        if (!questions) {
          set({ plan: null, planError: null });
          return;
        }
        const seq = ++planSeq;
        set({ planning: true });
        try {
          const plan = await parserOf().plan(mapping, questions);
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
        set({ import: { phase: 'idle' }, mapping: null, plan: null, planError: null });
      },

      async refreshRuns() {
        try {
          const { runs } = await deps.repo.listRuns();
          set({ runs });
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
          // The rows are in memory already: open the run from them rather than reading 100,000 rows back.
          attach(run, items, new Map(), 0);
        } catch (error) {
          set({ error: `The run could not be stored: ${errorText(error)}` });
          return null;
        }
        await get().refreshRuns();
        return id;
      },

      async openRunById(id) {
        if (get().running) return;
        set({ loadingRun: true, error: null, notice: null });
        try {
          const run = await deps.repo.getRun(id);
          if (!run) throw new Error('It is no longer stored.');
          const { items, unreadable } = await deps.repo.loadItems(id);
          const keys = items.flatMap((i) => (i.outcome?.answerKey ? [i.outcome.answerKey] : []));
          attach(run, items, await deps.repo.answers(keys), unreadable.length);
        } catch (error) {
          set({ loadingRun: false, error: `The run could not be opened: ${errorText(error)}` });
        }
      },

      closeRun() {
        if (get().running) return;
        runner = null;
        results = [];
        indexOf = new Map();
        set((s) => ({ openRun: null, progress: null, notice: null, resultsVersion: s.resultsVersion + 1 }));
      },

      async deleteRun(id) {
        if (get().running && get().openRun?.id === id) return;
        try {
          await deps.repo.deleteRun(id);
          if (get().openRun?.id === id) get().closeRun();
          await get().refreshRuns();
        } catch (error) {
          set({ error: `The run could not be deleted: ${errorText(error)}` });
        }
      },

      async start() {
        if (get().running || !runner) return;
        await drive();
      },

      pause: () => runner?.pause(),
      cancel: () => runner?.cancel(),

      async retry(which) {
        if (!runner) return;
        const list = runner.retryable()[which];
        try {
          await runner.retry(list);
        } catch (error) {
          set({ error: `The rows could not be queued again: ${errorText(error)}` });
          return;
        }
        flushNow();
        if (!get().running) await drive();
      },

      results: () => results,

      async setLabel(number, question, value) {
        const run = get().openRun;
        const at = indexOf.get(number);
        if (!run || at === undefined) return;
        try {
          const labels = await deps.repo.setLabel(run.id, number, question, value);
          const row = results[at]!;
          const { labels: _old, ...rest } = row;
          results[at] = labels ? { ...rest, labels } : rest;
          set((s) => ({ resultsVersion: s.resultsVersion + 1 }));
        } catch (error) {
          set({ error: `The label could not be saved: ${errorText(error)}` });
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

      async exportRun(kind) {
        const run = get().openRun;
        if (!run) return null;
        const name = `${baseName(run.fileName)}-results`;
        const chunks =
          kind === 'csv'
            ? csvChunks(results, run.questions, exportInputColumns(results, run.columns))
            : jsonlChunks(results);
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
  ...(typeof navigator !== 'undefined' && navigator.locks ? { locks: navigator.locks } : {}),
});
