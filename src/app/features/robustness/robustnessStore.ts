// The robustness check as UI state: what is checked (the main screen's request, or a sample of a file run's rows), the
// settings, the budget said before anything is sent, the run (paced through the rows runner, as file rows are) and
// its report, which is saved into the open session. Kept next to its feature, since nothing else reads it.
import { create } from 'zustand';
import type { EvaluateRequest, EvaluateResponse, Questions } from '../../../contract';
import { isVersionedId } from '../../../contract';
import { newId } from '../../../core/ids';
import type { Budget } from '../../../core/robustness/budget';
import { describeBudget } from '../../../core/robustness/budget';
import type { RobustnessReport } from '../../../core/robustness/card';
import type { CheckPlan, CheckedState, RowAnswer } from '../../../core/robustness/check';
import { buildReport, partialSquareNotes, planBudget, planCheck } from '../../../core/robustness/check';
import { defaultOrderCount } from '../../../core/robustness/orders';
import { DEFAULT_REPEATS, DEFAULT_THRESHOLD, MAX_REPEATS } from '../../../core/robustness/plan';
import type { RobustnessSettings } from '../../../core/robustness/plan';
import { sampleIndices, seededRandom } from '../../../core/robustness/random';
import type { VariantKind } from '../../../core/robustness/variants';
import { VARIANT_KINDS, VARIANT_LABELS } from '../../../core/robustness/variants';
import { dedupKey } from '../../../core/rows/dedup';
import type { Pacing } from '../../../core/rows/pacer';
import type { StoredAnswer } from '../../../core/rows/records';
import type { TokenCounter } from '../../../core/rows/runPlan';
import { plannedFromItems } from '../../../core/rows/runPlan';
import type { RunProgress } from '../../../core/rows/runTypes';
import { RowRunner } from '../../../core/rows/runner';
import { appDb } from '../../persistence/db';
import type { WorkbenchDb } from '../../persistence/db';
import { robustnessRunStore } from '../../persistence/robustnessAnswers';
import { findStoredAnswers } from '../../persistence/rowsRepo';
import { RowsRepo } from '../../persistence/rowsRepo';
import { appRunnerSeam } from '../../stores/runnerDeps';
import type { RunnerSeam } from '../../stores/runnerDeps';
import { useSessions } from '../../stores/sessions';
import { errorClause as errorText } from '../../../contract/text';

/** Rows sampled from a file run unless the user says otherwise; each costs a full check. */
export const DEFAULT_SAMPLE = 5;
export const MAX_SAMPLE = 200;

/** What the user sets; `orders` null means one order per label of the largest choice question. */
export interface CheckSettings {
  orders: number | null;
  repeats: number;
  variants: VariantKind[];
  threshold: number;
}

/** What a target charges and allows: a check is costed at its price and paced at its limits, as a file run is. */
export interface TargetTerms {
  /** Price per million input tokens; null when the target states none. */
  inputPrice: number | null;
  pacing: Pacing;
}

/** The main screen's request as it stands, and the last answer it got (reused when it is the same request). */
export interface StateSource {
  kind: 'state';
  targetId: string;
  terms: TargetTerms;
  request: EvaluateRequest;
  /** The last main-screen run: its body and response, when it answered. */
  lastRun?: { body: unknown; response?: EvaluateResponse; targetId: string };
}
export interface RowsSource {
  kind: 'rows';
  runId: string;
  sample: number;
}
export type CheckSource = StateSource | RowsSource;

/** A plan ready to run: what it checks, what it costs, and what the user should know first. */
export interface ReadyCheck {
  plan: CheckPlan;
  budget: Budget;
  budgetText: string;
  targetId: string;
  /** The model sent: the one typed, or the version an alias answered as on the last run. */
  model: string;
  notes: string[];
  source: RobustnessReport['source'];
  /** A digest of what is checked; a report whose digest differs was made for something else. */
  requestKey: string;
  /** Stored answers known in memory (the main screen's last answer), by key. */
  seeds: Map<string, StoredAnswer>;
  pacing: Pacing;
  /** The target's price per million input tokens (null unknown; absent, the published price). */
  inputPrice?: number | null;
  /** What this plan was made for (`planKeyOf`): a plan whose key differs from the screen's is stale and never runs. */
  planKey: string;
}

/** The runner's seam, as the rows store has it, and where the check keeps its answers and report. */
export interface RobustnessDeps extends RunnerSeam {
  db: () => WorkbenchDb;
  tokens: () => Promise<TokenCounter>;
  /** The open session's id when a check starts; its report is saved only into that session. */
  sessionId: () => string | null;
  /** Saves the report into the session `sessionId` if it is still open; says whether it did. */
  saveReport: (report: RobustnessReport, sessionId: string | null) => boolean;
}

export interface RobustnessState {
  settings: CheckSettings;
  phase: 'idle' | 'planning' | 'ready' | 'running' | 'done';
  ready: ReadyCheck | null;
  /** Requests settled so far while running, of `ready.plan.rows.length`. */
  progress: Pick<RunProgress, 'done' | 'reused' | 'failed' | 'invalid' | 'unknown' | 'cost'> | null;
  /** The report of the check just run here (the session keeps it too). */
  report: RobustnessReport | null;
  /** True when that report could not go into the session it was run from (another one was opened meanwhile). */
  unsaved: boolean;
  error: string | null;
  notice: string | null;

  setSettings: (patch: Partial<CheckSettings>) => void;
  /** Plans the check and states its budget; nothing is sent. */
  prepare: (source: CheckSource) => Promise<void>;
  /**
   * Sends the planned check (paced, stored answers reused) and saves its report into the session; only when the plan
   * is the one made for `planKey` (what is on screen), so a plan made for another target or request never runs.
   */
  run: (planKey: string) => Promise<void>;
  cancel: () => void;
}

const clampInt = (x: number, min: number, max: number): number =>
  Math.max(min, Math.min(max, Math.round(Number.isFinite(x) ? x : min)));

/**
 * What a plan is made for: the source as the screen has it (target, its terms, request, or file run and sample) and
 * the settings. The dialog compares it with the ready plan's, so Run stays off until the plan matches the screen.
 */
export function planKeyOf(source: CheckSource, settings: CheckSettings): string {
  const { lastRun: _lastRun, ...what } = source.kind === 'state' ? source : { ...source, lastRun: undefined };
  return JSON.stringify({ what, settings });
}

/** The check's settings for a set of questions. */
export function settingsFor(settings: CheckSettings, questions: Questions): RobustnessSettings {
  return {
    orders: settings.orders ?? defaultOrderCount(questions),
    repeats: clampInt(settings.repeats, 1, MAX_REPEATS),
    variants: settings.variants,
    threshold: settings.threshold,
    seed: 1,
  };
}

/** The model to send and why: a pinned id as is; an alias pinned to the version it answered as on the same request. */
function pinModel(source: StateSource): { model: string; note: string | null } {
  const model = source.request.model.trim();
  if (isVersionedId(model)) return { model, note: null };
  const last = source.lastRun;
  const body = last?.body as Partial<EvaluateRequest> | undefined;
  if (last?.response && last.targetId === source.targetId && body?.model === source.request.model)
    return {
      model: last.response.model,
      note: `${model} answered as ${last.response.model} on the last run; the check pins that version, so every answer comes from one model.`,
    };
  return {
    model,
    note: `${model} is an alias: it may move to another version during the check, and stored answers are reused only for a pinned version. Run once first, or pick a versioned id, to pin it.`,
  };
}

/** Makes a store over its dependencies; the app uses the one below. */
export function createRobustnessStore(deps: RobustnessDeps) {
  let runner: RowRunner | null = null;
  let prepareSeq = 0;

  return create<RobustnessState>()((set, get) => {
    /** Which rows already have an answer: stored, or in memory from the main screen. */
    const reusedRows = async (
      plan: CheckPlan,
      targetId: string,
      model: string,
      seeds: Map<string, StoredAnswer>,
    ): Promise<{ reused: Set<number>; keys: Map<number, string> }> => {
      const keys = new Map<number, string>();
      const reused = new Set<number>();
      if (!isVersionedId(model)) return { reused, keys };
      for (const row of plan.rows) {
        keys.set(
          row.number,
          await dedupKey({
            targetId,
            model,
            state: row.state,
            questions: row.questions ?? plan.questions,
            ...(row.tag ? { tag: row.tag } : {}),
          }),
        );
      }
      let stored = new Map<string, StoredAnswer>();
      try {
        stored = await findStoredAnswers(deps.db(), [...keys.values()]);
      } catch {
        // Storage unreadable: nothing counts as stored, so the budget errs on the side of paying.
      }
      for (const [n, key] of keys) if (stored.has(key) || seeds.has(key)) reused.add(n);
      return { reused, keys };
    };

    const planState = async (source: StateSource, counter: TokenCounter): Promise<ReadyCheck> => {
      const { model, note } = pinModel(source);
      const { request, targetId } = source;
      const settings = settingsFor(get().settings, request.questions);
      const states: CheckedState[] = [{ state: request.state, label: 'this state' }];
      const plan = planCheck(states, request.questions, settings, counter);
      const seeds = new Map<string, StoredAnswer>();
      const last = source.lastRun;
      const response = last?.response;
      if (response && isVersionedId(model) && response.model === model && last.targetId === targetId) {
        // The main screen's last answer is the check's original request when state and questions are the same.
        const body = last.body as Partial<EvaluateRequest>;
        const baseKey = await dedupKey({
          targetId,
          model,
          state: request.state,
          questions: request.questions,
        });
        const lastKey =
          body.state !== undefined && body.questions
            ? await dedupKey({ targetId, model, state: body.state, questions: body.questions })
            : null;
        if (lastKey === baseKey)
          seeds.set(baseKey, { key: baseKey, targetId, model, response, at: Date.now() });
      }
      const { reused } = await reusedRows(plan, targetId, model, seeds);
      const budget = planBudget(plan, reused, source.terms.inputPrice);
      const notes = [note, ...variantNotes(plan), ...orderNotes(plan)].filter((n): n is string => !!n);
      const requestKey = await dedupKey({
        targetId,
        model: request.model,
        state: request.state,
        questions: request.questions,
        tag: 'robustness',
      });
      return {
        plan,
        budget,
        budgetText: describeBudget(budget),
        targetId,
        model,
        notes,
        source: { kind: 'state' },
        requestKey,
        seeds,
        pacing: source.terms.pacing,
        inputPrice: source.terms.inputPrice,
        planKey: planKeyOf(source, get().settings),
      };
    };

    const planRows = async (source: RowsSource, counter: TokenCounter): Promise<ReadyCheck> => {
      const repo = new RowsRepo(deps.db());
      const run = await repo.getRun(source.runId);
      if (!run) throw new Error('that file run is no longer stored');
      const { items } = await repo.loadItems(run.id);
      const { rows } = plannedFromItems(items, run.mapping);
      if (rows.length === 0) throw new Error(`the file run “${run.fileName}” has no rows that can be sent`);
      const sample = clampInt(source.sample, 1, Math.min(MAX_SAMPLE, rows.length));
      const picked = sampleIndices(rows.length, sample, seededRandom(1)).map((i) => rows[i]!);
      const settings = settingsFor(get().settings, run.questions);
      const plan = planCheck(
        picked.map((r) => ({ state: r.state, label: `row ${r.id || r.number} (line ${r.line})` })),
        run.questions,
        settings,
        counter,
      );
      const seeds = new Map<string, StoredAnswer>();
      const { reused } = await reusedRows(plan, run.targetId, run.model, seeds);
      const budget = planBudget(plan, reused, run.inputPrice);
      const notes = [
        `${sample} of ${rows.length} rows of “${run.fileName}”, picked at random (the same rows each time), on ${run.targetId} with ${run.model}.`,
        isVersionedId(run.model)
          ? null
          : `${run.model} is an alias: stored answers are reused only for a pinned version.`,
        ...variantNotes(plan),
        ...orderNotes(plan),
      ].filter((n): n is string => !!n);
      return {
        plan,
        budget,
        budgetText: describeBudget(budget),
        targetId: run.targetId,
        model: run.model,
        notes,
        source: {
          kind: 'rows',
          runId: run.id,
          fileName: run.fileName,
          sampled: sample,
          rowCount: rows.length,
        },
        requestKey: `rows:${run.id}:${sample}`,
        seeds,
        // The file run's own pacing and price: what its target allowed and charged when it ran.
        pacing: run.pacing,
        ...(run.inputPrice !== undefined ? { inputPrice: run.inputPrice } : {}),
        planKey: planKeyOf(source, get().settings),
      };
    };

    return {
      settings: {
        orders: null,
        repeats: DEFAULT_REPEATS,
        variants: [...VARIANT_KINDS],
        threshold: DEFAULT_THRESHOLD,
      },
      phase: 'idle',
      ready: null,
      progress: null,
      report: null,
      unsaved: false,
      error: null,
      notice: null,

      setSettings(patch) {
        if (get().phase === 'running') return;
        set((s) => ({ settings: { ...s.settings, ...patch } }));
      },

      async prepare(source) {
        if (get().phase === 'running') return;
        const seq = ++prepareSeq;
        set({ phase: 'planning', error: null, notice: null });
        try {
          const counter = await deps.tokens();
          const ready =
            source.kind === 'state' ? await planState(source, counter) : await planRows(source, counter);
          if (seq !== prepareSeq) return;
          set({ phase: 'ready', ready, progress: null });
        } catch (error) {
          if (seq !== prepareSeq) return;
          set({ phase: 'idle', ready: null, error: `The check could not be planned: ${errorText(error)}.` });
        }
      },

      async run(planKey) {
        const ready = get().ready;
        // A plan made for what was on screen before (another target, model, request or setting) is never sent.
        if (!ready || get().phase !== 'ready' || ready.planKey !== planKey) return;
        const answers = new Map<number, RowAnswer>();
        const sessionId = deps.sessionId();
        let saveFailed = false;
        const store = robustnessRunStore(deps.db(), {
          seeds: ready.seeds,
          onSaveError: () => (saveFailed = true),
        });
        const current = new RowRunner(
          {
            targetId: ready.targetId,
            target: deps.targetFor(ready.targetId),
            model: ready.model,
            questions: ready.plan.questions,
            rows: ready.plan.rows,
            pacing: ready.pacing,
            maxCost: null,
            ...(ready.inputPrice !== undefined ? { inputPrice: ready.inputPrice } : {}),
          },
          { evaluate: deps.evaluate, clock: deps.clock, store },
        );
        runner = current;
        const snapshot = (): RobustnessState['progress'] => {
          const p = current.progress();
          return {
            done: p.done,
            reused: p.reused,
            failed: p.failed,
            invalid: p.invalid,
            unknown: p.unknown,
            cost: p.cost,
          };
        };
        current.subscribe((update) => {
          if (update.answer)
            answers.set(update.number, {
              response: update.answer.response,
              reused: update.outcome.status === 'reused',
            });
          set({ progress: snapshot() });
        });
        set({ phase: 'running', error: null, notice: null, progress: snapshot() });
        let end: RunProgress;
        try {
          end = await current.run();
        } catch (error) {
          end = current.progress();
          set({ error: `The check stopped: ${errorText(error)}.` });
        }
        if (runner !== current) return;
        runner = null;
        const report = buildReport(ready.plan, answers, {
          id: newId(),
          at: new Date(deps.clock.now()).toISOString(),
          targetId: ready.targetId,
          model: ready.model,
          source: ready.source,
          estimatedCost: ready.budget.cost,
          requestKey: ready.requestKey,
          ...(ready.inputPrice !== undefined ? { inputPrice: ready.inputPrice } : {}),
        });
        const missing = report.requests - report.reused - report.sent;
        const notes: string[] = [];
        if (end.halt) notes.push(end.halt.message);
        if (missing > 0)
          notes.push(
            `${missing} of ${report.requests} requests got no answer; the cards use the answers that came back. Run the check again to fill them in (answered requests are reused).`,
          );
        if (saveFailed) notes.push('Some answers could not be stored for reuse; the report has them all.');
        const unsaved = !deps.saveReport(report, sessionId);
        if (unsaved)
          notes.push(
            'Another session was opened while the check ran: this report is shown here but not saved.',
          );
        set({
          phase: 'done',
          report,
          unsaved,
          progress: snapshot(),
          notice: notes.length ? notes.join(' ') : null,
        });
      },

      cancel() {
        runner?.cancel();
      },
    };
  });
}

function variantNotes(plan: CheckPlan): string[] {
  const missing = new Set(plan.states.flatMap((s) => s.plan.missingVariants));
  if (missing.size === 0) return [];
  const kinds = [...missing].map((k) => VARIANT_LABELS[k].replace(/ changed$/, ''));
  return [`This state has no ${kinds.join(' or ')} to change, so that variant is not sent.`];
}

function orderNotes(plan: CheckPlan): string[] {
  const fixed = plan.states[0]?.plan.orders.fixed ?? {};
  return [
    ...Object.entries(fixed).map(([name, reason]) => `“${name}” keeps its order: ${reason}`),
    ...partialSquareNotes(plan),
  ];
}

/** The app's robustness store: the real client through the proxy, IndexedDB, the lazily loaded tokenizer. */
export const useRobustness = createRobustnessStore({
  db: appDb,
  ...appRunnerSeam,
  tokens: async () => {
    const { questionTokens, stateTokens } = await import('../../../contract/tokens');
    return { questionTokens, stateTokens };
  },
  sessionId: () => useSessions.getState().openId,
  saveReport: (report, sessionId) => {
    const sessions = useSessions.getState();
    if (sessions.openId !== sessionId) return false;
    sessions.setRobustness(report);
    return true;
  },
});
