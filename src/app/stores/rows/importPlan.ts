// Reading a file of rows, mapping and planning it, its pacing and budget, and storing the planned file as a new run.
import type { ImportSummary } from '../../../core/rows/importSession';
import { sendInState, suggestMapping } from '../../../core/rows/mapping';
import { ROWS_SCHEMA_VERSION } from '../../../core/rows/records';
import type { RowRun } from '../../../core/rows/records';
import { sortIssues } from '../../../core/rows/runPlan';
import { errorText } from './kit';
import type { RowsKit } from './kit';
import type { RowsEngine } from './run';
import type { RowsState, RunSpec } from './types';

type ImportActions = Pick<
  RowsState,
  | 'pickFile'
  | 'setParseOptions'
  | 'keepLabelsInState'
  | 'setMapping'
  | 'planFor'
  | 'planPending'
  | 'setPacing'
  | 'setMaxCost'
  | 'clearImport'
  | 'createRun'
>;

/** Reading the file, its parse options, and the mapping suggested for it and edited. */
function fileActions({ set, get, live, parserOf }: RowsKit) {
  return {
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
        live.lastFile = file;
        live.lastQuestions = questions;
      } catch (error) {
        set({ import: { phase: 'failed', fileName: file.name, error: errorText(error) } });
      }
    },

    async setParseOptions(options) {
      set((s) => ({ parseOptions: { ...s.parseOptions, ...options } }));
      if (live.lastFile) await get().pickFile(live.lastFile, live.lastQuestions);
    },

    keepLabelsInState() {
      const { mapping, defaultLabels } = get();
      if (!mapping) return;
      // The button says the columns go in the state: a one-column state makes room for them (named fields).
      set({ mapping: sendInState(mapping, defaultLabels), defaultLabels: [] });
    },

    setMapping: (mapping) => set({ mapping }),

    clearImport() {
      live.lastFile = null;
      set({ import: { phase: 'idle' }, mapping: null, defaultLabels: [], plan: null, planError: null });
    },
  } satisfies Pick<
    RowsState,
    'pickFile' | 'setParseOptions' | 'keepLabelsInState' | 'setMapping' | 'clearImport'
  >;
}

/** The plan of the mapped file, and the pacing and budget (an open run's own, saved with it). */
function planActions({ set, get, live, parserOf }: RowsKit, { saveRun }: RowsEngine) {
  return {
    async planFor(questions, context) {
      const { mapping, import: imp } = get();
      if (!mapping || imp.phase !== 'ready') return;
      const seq = ++live.planSeq;
      if (!questions) {
        live.planned = null;
        set({ plan: null, planning: false, planError: null });
        return;
      }
      set({ planning: true });
      try {
        const plan = await parserOf().plan(mapping, questions, context);
        if (seq !== live.planSeq) return;
        live.planned = { mapping, questionsKey: JSON.stringify(questions), ...(context ? { context } : {}) };
        set({ plan, planning: false, planError: null });
      } catch (error) {
        if (seq === live.planSeq) set({ planning: false, planError: errorText(error) });
      }
    },

    // Start waits while an edit is still to be planned: the plan on screen no longer says what would be sent.
    planPending: () => {
      if (!get().planning) set({ planning: true });
    },

    setPacing(pacing) {
      set({ pacing });
      const run = get().openRun;
      if (live.runner && run) {
        live.runner.setPacing(pacing);
        void saveRun(run.id, { pacing });
      }
    },

    setMaxCost(maxCost) {
      set({ maxCost });
      const run = get().openRun;
      if (live.runner && run) {
        live.runner.setBudget(maxCost);
        void saveRun(run.id, { maxCost });
      }
    },
  } satisfies Pick<RowsState, 'planFor' | 'planPending' | 'setPacing' | 'setMaxCost'>;
}

/** The file as planned: the plan and mapping (both present once planned), the pacing and the budget. */
type Planned = { plan: NonNullable<RowsState['plan']>; mapping: NonNullable<RowsState['mapping']> } & Pick<
  RowsState,
  'pacing' | 'maxCost'
>;

/** The record of a new run: the planned file, its mapping, pacing and budget, and what it sends to which target. */
function newRunRecord(
  id: string,
  now: number,
  spec: RunSpec,
  summary: ImportSummary,
  { plan, mapping, pacing, maxCost }: Planned,
  rowCount: number,
): RowRun {
  return {
    schemaVersion: ROWS_SCHEMA_VERSION,
    id,
    ...(spec.sessionId ? { sessionId: spec.sessionId } : {}),
    fileName: summary.fileName,
    format: summary.format,
    columns: summary.columns,
    createdAt: now,
    updatedAt: now,
    targetId: spec.targetId,
    model: spec.model,
    questions: spec.questions,
    mapping,
    pacing,
    maxCost,
    ...(spec.inputPrice !== undefined ? { inputPrice: spec.inputPrice } : {}),
    rowCount,
    issues: sortIssues([...summary.parseIssues, ...plan.issues]),
    totalTokens: plan.totalTokens,
    status: 'ready',
    halt: null,
  };
}

/** Stores the planned file as a new run and opens it from the rows in memory. */
function createRunAction(
  { deps, set, get, live, post, parserOf }: RowsKit,
  { stopWatching, attach }: RowsEngine,
): RowsState['createRun'] {
  return async (spec) => {
    // The worker's rows are those of its last plan: a run is stored only from a plan of its own mapping and questions.
    const current = get().mapping;
    if (live.planned?.mapping !== current || live.planned?.questionsKey !== JSON.stringify(spec.questions))
      await get().planFor(spec.questions, live.planned?.context);
    const { plan, mapping, import: imp, pacing, maxCost } = get();
    if (!plan || !mapping || mapping !== live.planned?.mapping || imp.phase !== 'ready' || !imp.summary)
      return null;
    const id = deps.newId();
    const now = deps.clock.now();
    try {
      const items = await parserOf().items(id);
      const run = newRunRecord(id, now, spec, imp.summary, { plan, mapping, pacing, maxCost }, items.length);
      await deps.repo.createRun(run, items);
      live.lastOwnWrite.set(id, now);
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
  };
}

export function importActions(kit: RowsKit, engine: RowsEngine): ImportActions {
  return { ...fileActions(kit), ...planActions(kit, engine), createRun: createRunAction(kit, engine) };
}
