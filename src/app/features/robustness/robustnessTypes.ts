// The robustness check's shapes: what the user sets, what is checked, the ready plan, the store's state and what it is
// handed; and the pure helpers the dialog and the planning share (the plan's key, the settings for a set of questions).
import type { EvaluateRequest, EvaluateResponse, Questions } from '../../../contract';
import type { Budget } from '../../../core/robustness/budget';
import type { RobustnessReport } from '../../../core/robustness/card';
import type { CheckPlan } from '../../../core/robustness/check';
import { defaultOrderCount } from '../../../core/robustness/orders';
import { MAX_REPEATS } from '../../../core/robustness/plan';
import type { RobustnessSettings } from '../../../core/robustness/plan';
import type { VariantKind } from '../../../core/robustness/variants';
import type { Pacing } from '../../../core/rows/pacer';
import type { StoredAnswer } from '../../../core/rows/records';
import type { TokenCounter } from '../../../core/rows/runPlan';
import type { RunProgress } from '../../../core/rows/runTypes';
import type { WorkbenchDb } from '../../persistence/db';
import type { RunnerSeam } from '../../stores/runnerDeps';

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

export const clampInt = (x: number, min: number, max: number): number =>
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
