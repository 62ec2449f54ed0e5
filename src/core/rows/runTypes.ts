// What a run is given and what it reports: the runner's inputs, the store and evaluate it is handed, its progress.
// Apart from the runner so the page, the command line and the stores name these without importing the engine.
import type { EvaluateRequest, Questions } from '../../contract';
import type { CallOptions, ClientTarget, EvaluateResult } from '../../contract/evaluateCall';
import type { AnswerIdentity } from './dedup';
import type { Clock, Pacer, Pacing } from './pacer';
import type { Halt, RowOutcome, StoredAnswer } from './records';
import type { PlannedRow } from './runPlan';

/** The client's evaluate, injected. */
export type EvaluateFn = (
  target: ClientTarget,
  request: EvaluateRequest,
  options: CallOptions,
) => Promise<EvaluateResult>;

/** Where the run keeps its progress; IndexedDB in the app, memory or fake-indexeddb in tests. */
export interface RunStore {
  saveOutcome(number: number, outcome: RowOutcome): Promise<void>;
  /** Saves an answered row and its answer together (one transaction where the store has them). */
  saveAnswered(number: number, outcome: RowOutcome, answer: StoredAnswer): Promise<void>;
  /** Stored answers for these keys in one read; a key missing (or whose answer no longer parses) is left out. */
  findAnswers(keys: readonly string[]): Promise<Map<string, StoredAnswer>>;
  /**
   * Stored answers holding these questions' keys (dedup.ts questionIdentities) in one read, by question key: an
   * answer asked with other questions is found under each of its `questionKeys`, a one-question answer under its key.
   * Absent from a store that keeps one set of questions (the command line's results file): then no question key is
   * read or computed.
   */
  findQuestionAnswers?(keys: readonly string[]): Promise<Map<string, StoredAnswer>>;
  /**
   * Saves the outcomes of rows answered from stored answers, together (one write where the store can). `answer` comes
   * with a row put together from per-question answers: a new record, stored with its outcome.
   */
  saveReused(rows: readonly ReusedRow[]): Promise<void>;
}

export interface RunnerInput {
  targetId: string;
  target: ClientTarget;
  model: string;
  questions: Questions;
  rows: readonly PlannedRow[];
  /** Outcomes already stored, by row number (resume). */
  outcomes?: ReadonlyMap<number, RowOutcome>;
  pacing: Pacing;
  /** Budget cap in the price list's currency; null for none. */
  maxCost: number | null;
  /** The target's price per million input tokens: null when unknown (no cost, no cap), absent for the published one. */
  inputPrice?: number | null;
  /** Per-attempt timeout; the client's default (30 s) otherwise. */
  timeoutMs?: number;
  /**
   * Whether rows whose whole answer is not stored look up each question's own (true unless said otherwise). Off for a
   * run no stored run could have answered in part (mayReuseByQuestion), so a new file reads what it always did.
   */
  questionReuse?: boolean;
}

export interface RunnerDeps {
  evaluate: EvaluateFn;
  clock: Clock;
  store: RunStore;
  random?: () => number;
  /** The dedup key of an identity; SHA-256 of its canonical JSON by default. */
  keyOf?: (id: AnswerIdentity) => Promise<string>;
  /**
   * The pacer to send on; one of its own by default. The command line runs a long file as successive runners over
   * windows of rows and passes them one pacer, so the schedule runs on across windows as it would in one runner.
   */
  pacer?: Pacer;
}

/** A reused row's outcome, with its answer when that is a new record (put together from per-question answers). */
export interface ReusedRow {
  number: number;
  outcome: RowOutcome;
  answer?: StoredAnswer;
}

/** A row's new outcome, with the answer when it has one. */
export interface RowUpdate {
  number: number;
  outcome: RowOutcome;
  answer?: StoredAnswer;
}

export type RunPhase = 'idle' | 'running' | 'pausing' | 'cancelling' | 'halted' | 'finished';

/** Everything the progress bar shows. */
export interface RunProgress {
  phase: RunPhase;
  halt: Halt | null;
  total: number;
  /** Answered by the service in this or an earlier session. */
  done: number;
  /** Answered from a stored answer, not billed. */
  reused: number;
  /** Of those, answered by an earlier run (the rest repeat a request of this one, answered once). */
  reusedEarlier: number;
  /** Answered by the service with only the questions whose answers were not stored (counted in `done` too). */
  partlyReused: number;
  invalid: number;
  failed: number;
  unknown: number;
  pending: number;
  inFlight: number;
  /** usage.input_tokens of every answer received. */
  billedTokens: number;
  /** Estimated tokens of attempts that may have been billed without an answer. */
  possiblyBilledTokens: number;
  cost: number;
  possiblyBilledCost: number;
  /** Rows sent per minute over the last 10 s. */
  ratePerMinute: number;
  /** Time to send the rows still pending at the current (or configured) rate; null when nothing is pending or the run is not going. */
  etaMs: number | null;
  /** How long sends still wait because the service asked (a 429's Retry-After); null when they do not. */
  serviceWaitMs: number | null;
}
