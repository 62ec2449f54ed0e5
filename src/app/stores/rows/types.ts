// The rows store's shape: what it needs from the outside world, and the state and actions the screens use.
import type { Questions } from '../../../contract';
import type { RunnerSeam } from '../runnerDeps';
import type { ImportSummary, PlanSummary } from '../../../core/rows/importSession';
import type { NamedLabel, RowMapping } from '../../../core/rows/mapping';
import type { Pacing } from '../../../core/rows/pacer';
import type { LabelValue } from '../../../core/alignment/types';
import type { RowRun } from '../../../core/rows/records';
import type { LabelEdit } from '../../../core/rows/labels';
import type { ResultRow } from '../../../core/rows/results';
import type { TargetContext } from '../../../core/rows/runPlan';
import type { LabelOrder } from '../../../core/labels/order';
import type { RunProgress } from '../../../core/rows/runTypes';
import type { RunMessage } from '../../../core/rows/runSync';
import type { RowsRepo } from '../../persistence/rowsRepo';
import type { TabChannel, TabLocks } from '../../persistence/tabs';
import type { ParseOptions, ParseProgress, RowsParser } from '../../workers/rowsParser';

/** What the store needs from the outside world; the app passes the real ones, tests their own. */
export interface RowsDeps extends RunnerSeam {
  repo: RowsRepo;
  parser: () => RowsParser;
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
  /** Only these rows (by number): a cascade's next judge asked about the rows the one before abstains on. */
  onlyRows?: readonly number[];
  escalatedFrom?: RowRun['escalatedFrom'];
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
  /** An edit the plan must follow is waiting to be planned: Start waits (planning) until planFor answers. */
  planPending: () => void;
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
  /**
   * Sets (or clears, with null) the human label of one row of the open run, a labeller's own when `annotator` is
   * given (the row's label is then the majority); saved before the screen hears of it.
   */
  setLabel: (number: number, question: string, value: LabelValue | null, annotator?: string) => Promise<void>;
  /** Saves the order a question of the open run is labelled in (core/alignment/labelOrder.ts). */
  setLabelOrder: (question: string, order: LabelOrder) => Promise<void>;
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
