// The run engine: sends one request per row, paced, and records every outcome as it arrives. Pure orchestration over
// an injected evaluate, clock and store, so tests drive it with a manual clock or the real client and a real server.
//
// Rules it keeps: a row with an answer is never sent again; a row whose answer is already stored (same identity,
// pinned model) is reused and costs nothing; otherwise its questions whose answers are stored (asked of the same state
// in another request) are taken from there and only the others are sent; a row is marked `sending` before it leaves,
// so after a crash it is known to be "unknown, may have been billed" rather than silently re-sent; 401 stops the run;
// a 422 marks its row and the run goes on; a timeout is never acted on; the run stops before the budget cap would be
// passed.
import { CONVERSATION_FIELD, estimateCost, formatLoc, PRICE_PER_MILLION_INPUT_TOKENS } from '../../contract';
import type { EvaluateRequest, FieldError, Questions } from '../../contract';
import type {
  AttemptReport,
  CallOptions,
  ClientTarget,
  EvaluateResult,
  EvaluationErrorKind,
} from '../../contract/evaluateCall';
import type { AnswerIdentity } from './dedup';
import { dedupKey, pinnedModel, questionIdentities } from './dedup';
import type { Clock, Pacing } from './pacer';
import { Gate, Pacer, RateMeter } from './pacer';
import type { Halt, RowError, RowOutcome, RowStatus, StoredAnswer } from './records';
import type { PlannedRow } from './runPlan';
import { mergedResponse, questionsFound, questionsLeft } from './questionReuse';
import { errorClause as errorText } from '../../contract/text';

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

/**
 * Rows whose stored answers are looked up together, ahead of sending: one store read (an IndexedDB `bulkGet`) and one
 * write of their outcomes per chunk, instead of a read and a write per row, which held a reuse at 2-8 ms a row.
 */
export const LOOKUP_CHUNK = 500;
/**
 * Chunks looked up at once, each its own read: a store read waits mostly on IndexedDB, so two in flight took half the
 * time of two in a row (Chromium, 50,000 stored answers); 100,000 reused rows took 14.0 s with one, 11.1 with two and
 * 10.7 with four.
 */
export const LOOKUP_READS = 4;

/** Rows put back in the queue after failures that billed nothing, before they are marked failed. */
export const MAX_REQUEUES = 2;
/** Rows in a row that fail for the service's sake (not the row's) before the run stops by itself. */
export const FAILING_STREAK = 5;

const ERROR_KINDS_THAT_STOP: ReadonlySet<string> = new Set(['auth']);

interface ErrorLike {
  kind: EvaluationErrorKind;
  message: string;
  /** The service's own sentence, when its body had one. */
  serviceMessage?: string;
  status?: number;
  fieldErrors: FieldError[];
  possiblyBilled: boolean;
  retryable: boolean;
  attempts: AttemptReport[];
}

const isErrorLike = (e: unknown): e is ErrorLike =>
  e instanceof Error &&
  typeof (e as Partial<ErrorLike>).kind === 'string' &&
  Array.isArray((e as Partial<ErrorLike>).attempts);

/**
 * What a refused row shows: the service's own sentence and the field it names. A row is data, not a form, so the
 * client's advice to fix a field and send again does not fit here.
 */
export function refusedRowMessage(
  error: Pick<ErrorLike, 'status' | 'fieldErrors' | 'serviceMessage' | 'message'>,
): string {
  const status = error.status === undefined ? '' : ` (${error.status})`;
  const fields = error.fieldErrors.map(
    (f) => `${f.loc.length === 0 ? 'the body' : formatLoc(f.loc)}: ${f.msg.replace(/\.$/, '')}`,
  );
  if (fields.length > 0)
    return `The service refused this row${status} at ${fields.slice(0, 3).join('; ')}${fields.length > 3 ? ` and ${fields.length - 3} more` : ''}.`;
  const said = error.serviceMessage?.trim();
  return said ? `The service refused this row${status}: ${said.replace(/\.$/, '')}.` : error.message;
}

const countBilled = (attempts: readonly AttemptReport[]): number =>
  attempts.filter((a) => a.possiblyBilled === true).length;

/** What a row's lookup found short of its whole answer; kept while the row waits in the queue. */
interface LookedUp {
  /** The row's dedup key under the pinned model. */
  key: string;
  /** Its questions' own keys, in order; absent for one question, whose key is `key`. */
  questionKeys?: readonly string[];
  /** Stored answers of some of its questions, by name, in the questions' order: these are not asked again. */
  found: ReadonlyMap<string, StoredAnswer>;
}

/** A row answered from storage: a stored answer, or one put together from its questions' stored answers (`found`). */
interface Reuse {
  row: PlannedRow;
  answer: StoredAnswer;
  found?: ReadonlyMap<string, StoredAnswer>;
}

const NOTHING_FOUND: ReadonlyMap<string, StoredAnswer> = new Map();

/** A row's questions' keys (in order) and the stored answers found for some of them, by question name. */
interface QuestionLookup {
  keys: string[];
  found: Map<string, StoredAnswer>;
}

/**
 * Stored answers for these keys, read in at most LOOKUP_READS reads at once of LOOKUP_CHUNK keys or more each (a row's
 * questions are looked up as several keys), merged by key.
 */
async function readInChunks(
  keys: readonly string[],
  read: (part: readonly string[]) => Promise<Map<string, StoredAnswer>>,
): Promise<Map<string, StoredAnswer>> {
  const size = Math.max(LOOKUP_CHUNK, Math.ceil(keys.length / LOOKUP_READS));
  const reads = [];
  for (let i = 0; i < keys.length; i += size) reads.push(read(keys.slice(i, i + size)));
  const found = new Map<string, StoredAnswer>();
  for (const part of await Promise.all(reads)) for (const [key, answer] of part) found.set(key, answer);
  return found;
}

/** Statuses that end a row for good unless the user asks for a retry. */
const SETTLED: ReadonlySet<RowStatus> = new Set(['done', 'reused', 'invalid', 'failed', 'unknown']);

/** Drives one run of rows. Create it with the stored outcomes, call `run()`, and `run()` again after a halt. */
export class RowRunner {
  private readonly rows = new Map<number, PlannedRow>();
  private readonly outcomes = new Map<number, RowOutcome>();
  private queue: number[] = [];
  private readonly inFlight = new Map<number, AbortController>();
  /** Dedup keys being sent now, and the rows waiting for that answer. */
  private readonly leaders = new Map<string, number[]>();
  private readonly listeners = new Set<(update: RowUpdate) => void>();
  /** Queued rows whose key was looked up with no stored answer, by row; and those rows by key. */
  private readonly ahead = new Map<number, LookedUp>();
  private readonly aheadByKey = new Map<string, number[]>();
  /** When this call of run() began: a stored answer older than that comes from an earlier run. */
  private startedAt = 0;
  private reusedEarlier = 0;
  private partlyReused = 0;
  /** Keys answered while a look-ahead read: its misses for them are stale, so those rows are looked up again. */
  private storedDuringLookup: Set<string> | null = null;
  private readonly pacer: Pacer;
  private readonly gate: Gate;
  private readonly meter = new RateMeter();
  private readonly keyOf: (id: AnswerIdentity) => Promise<string>;
  private readonly pinned: string | null;
  private phase: RunPhase = 'idle';
  private haltState: Halt | null = null;
  private stop: AbortController | null = null;
  private reservedTokens = 0;
  /** Until when the service asked us to wait (epoch ms of the latest 429's Retry-After). */
  private serviceHoldUntil = 0;
  private streak = 0;
  private wake: (() => void) | null = null;
  private totals = { billedTokens: 0, possiblyBilledTokens: 0 };
  /** Rows per status, kept in step with outcomes so progress() never walks 100,000 rows. */
  private readonly counts: Record<RowStatus, number> = {
    pending: 0,
    sending: 0,
    done: 0,
    reused: 0,
    invalid: 0,
    failed: 0,
    unknown: 0,
  };
  private maxCost: number | null;
  private readonly price: number | null;
  private readonly interrupted: number[] = [];

  constructor(
    private readonly input: RunnerInput,
    private readonly deps: RunnerDeps,
  ) {
    this.pacer = deps.pacer ?? new Pacer(input.pacing, deps.clock);
    this.gate = new Gate(input.pacing.concurrency);
    this.keyOf = deps.keyOf ?? dedupKey;
    this.pinned = pinnedModel(input.model);
    this.maxCost = input.maxCost;
    this.price = input.inputPrice === undefined ? PRICE_PER_MILLION_INPUT_TOKENS : input.inputPrice;
    for (const row of input.rows) this.rows.set(row.number, row);
    for (const row of input.rows) {
      let outcome = input.outcomes?.get(row.number);
      if (outcome?.status === 'sending') {
        // The page went away while this row was in flight: it may have been evaluated. Never resend it silently.
        outcome = {
          ...outcome,
          status: 'unknown',
          possiblyBilledAttempts: outcome.possiblyBilledAttempts + 1,
          error: {
            kind: 'interrupted',
            message:
              'The page closed while this row was in flight; it may have been evaluated and billed. Retry it on request.',
            fieldErrors: [],
            possiblyBilled: true,
          },
        };
        this.interrupted.push(row.number);
      }
      if (outcome) {
        this.outcomes.set(row.number, outcome);
        this.account(row, outcome, 1);
      }
      if (!outcome || outcome.status === 'pending') this.queue.push(row.number);
    }
  }

  /** Listens to every row update; returns the unsubscribe function. */
  subscribe(listener: (update: RowUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  outcome(number: number): RowOutcome | undefined {
    return this.outcomes.get(number);
  }

  get pacing(): Pacing {
    return this.pacer.settings;
  }

  setPacing(pacing: Pacing): void {
    this.pacer.update(pacing);
    this.gate.setLimit(pacing.concurrency);
  }

  setBudget(maxCost: number | null): void {
    this.maxCost = maxCost;
  }

  /** Stops sending new rows; rows in flight finish and are recorded. `run()` resolves once they have. */
  pause(): void {
    this.requestStop('pausing', { reason: 'paused', message: 'Paused: resume to send the remaining rows.' });
  }

  /** Stops now: rows in flight are aborted and, since they may have been evaluated, marked unknown. */
  cancel(): void {
    this.requestStop('cancelling', {
      reason: 'cancelled',
      message: 'Cancelled: rows that were in flight may have been billed.',
    });
    for (const controller of this.inFlight.values())
      controller.abort(new DOMException('Run cancelled.', 'AbortError'));
  }

  /** Puts failed or unknown rows back in the queue, on the user's request (an unknown row may be billed again). */
  async retry(numbers: readonly number[]): Promise<number[]> {
    const requeued: number[] = [];
    for (const n of numbers) {
      const outcome = this.outcomes.get(n);
      const row = this.rows.get(n);
      if (!row || !outcome || (outcome.status !== 'failed' && outcome.status !== 'unknown')) continue;
      const next: RowOutcome = { ...outcome, status: 'pending', requeues: 0, at: this.deps.clock.now() };
      await this.deps.store.saveOutcome(n, next);
      this.setOutcome(row, next);
      this.queue.push(n);
      requeued.push(n);
    }
    this.poke();
    return requeued;
  }

  /** Rows that ended failed or unknown, by status. */
  retryable(): { failed: number[]; unknown: number[] } {
    const failed: number[] = [];
    const unknown: number[] = [];
    for (const [n, o] of this.outcomes) {
      if (o.status === 'failed') failed.push(n);
      else if (o.status === 'unknown') unknown.push(n);
    }
    return { failed, unknown };
  }

  progress(): RunProgress {
    const counts = this.counts;
    const total = this.rows.size;
    const pending =
      total -
      counts.done -
      counts.reused -
      counts.invalid -
      counts.failed -
      counts.unknown -
      this.inFlight.size;
    const now = this.deps.clock.now();
    const rate = this.meter.perMinute(now);
    const pace = rate > 0 ? rate : this.pacer.settings.requestsPerMinute;
    return {
      phase: this.phase,
      halt: this.haltState,
      total,
      done: counts.done,
      reused: counts.reused,
      reusedEarlier: this.reusedEarlier,
      partlyReused: this.partlyReused,
      invalid: counts.invalid,
      failed: counts.failed,
      unknown: counts.unknown,
      pending,
      inFlight: this.inFlight.size,
      billedTokens: this.totals.billedTokens,
      possiblyBilledTokens: this.totals.possiblyBilledTokens,
      cost: estimateCost(this.totals.billedTokens, this.price ?? 0),
      possiblyBilledCost: estimateCost(this.totals.possiblyBilledTokens, this.price ?? 0),
      ratePerMinute: rate,
      // A stopped run has no time left to show: nothing is being sent.
      etaMs:
        this.phase !== 'running' || pending + this.inFlight.size === 0
          ? null
          : ((pending + this.inFlight.size) * 60_000) / pace,
      serviceWaitMs:
        this.phase === 'running' && this.serviceHoldUntil > now ? this.serviceHoldUntil - now : null,
    };
  }

  /** Sends every pending row; resolves when none is left, or after a halt once the rows in flight have settled. */
  async run(): Promise<RunProgress> {
    if (this.phase === 'running' || this.phase === 'pausing' || this.phase === 'cancelling') {
      throw new Error('This run is already going.');
    }
    this.phase = 'running';
    this.startedAt = this.deps.clock.now();
    // Answers may have been stored since the last call (another tab, another run): look every row up afresh.
    this.ahead.clear();
    this.aheadByKey.clear();
    this.haltState = null;
    this.streak = 0;
    const stop = new AbortController();
    this.stop = stop;
    try {
      await this.flushInterrupted();
      await this.dispatch(stop.signal);
    } catch (error) {
      this.halt({
        reason: 'storage',
        message: `Progress could not be saved (${errorText(error)}); nothing more was sent.`,
      });
    }
    while (this.inFlight.size > 0) await this.nextChange();
    this.stop = null;
    if (this.haltState) this.phase = 'halted';
    else this.phase = this.queue.length === 0 ? 'finished' : 'halted';
    return this.progress();
  }

  // ---------------------------------------------------------------------------------------------------------------

  private async flushInterrupted(): Promise<void> {
    while (this.interrupted.length > 0) {
      const n = this.interrupted[0]!;
      const outcome = this.outcomes.get(n);
      if (outcome) {
        await this.deps.store.saveOutcome(n, outcome);
        this.emit({ number: n, outcome });
      }
      this.interrupted.shift();
    }
  }

  private async dispatch(signal: AbortSignal): Promise<void> {
    try {
      await this.dispatchRows(signal);
    } finally {
      // The last reused chunk may still be writing: the run is not over (nor its failure known) until it is stored.
      const writing = this.reusing;
      this.reusing = null;
      if (writing) await writing;
    }
  }

  private async dispatchRows(signal: AbortSignal): Promise<void> {
    for (;;) {
      if (signal.aborted) return;
      if (this.queue.length === 0) {
        if (this.inFlight.size === 0) return;
        // Rows in flight may come back to the queue (a failure that billed nothing): wait for the next change.
        await this.nextChange();
        continue;
      }
      // The next rows' stored answers are read in one go; those found are reused at once, the rest go on to be sent.
      if (this.pinned !== null && !this.ahead.has(this.queue[0]!)) {
        await this.lookAhead(this.pinned, signal);
        continue;
      }
      await this.gate.acquire();
      let released = false;
      const release = (): void => {
        if (!released) {
          released = true;
          this.gate.release();
        }
      };
      try {
        const number = this.queue.shift();
        if (signal.aborted || number === undefined) {
          if (number !== undefined) this.queue.unshift(number);
          release();
          return;
        }
        const row = this.rows.get(number)!;
        const lookedUp = this.takeAhead(number);
        if (this.pinned !== null && lookedUp === undefined) {
          // Queued in front while the gate was awaited (a requeue), so not looked up yet: the look-ahead does it.
          this.queue.unshift(number);
          release();
          continue;
        }
        const key = lookedUp?.key ?? null;
        if (key !== null) {
          const waiting = this.leaders.get(key);
          if (waiting) {
            // The same request is in flight for another row: wait for its answer instead of paying twice.
            waiting.push(number);
            release();
            continue;
          }
        }
        if (this.wouldPassBudget(row.tokens)) {
          this.queue.unshift(number);
          release();
          this.halt({
            reason: 'budget',
            message: `Stopped before the budget cap of ${this.maxCost} would be passed; raise the cap to send the remaining rows.`,
          });
          return;
        }
        this.reservedTokens += row.tokens;
        try {
          await this.pacer.acquire(row.tokens, signal);
        } catch {
          this.reservedTokens -= row.tokens;
          this.queue.unshift(number);
          release();
          return;
        }
        if (key !== null) this.leaders.set(key, []);
        void this.send(row, lookedUp).finally(release);
      } catch (error) {
        release();
        throw error;
      }
    }
  }

  /**
   * Looks up the stored answers of the next rows of the queue (up to LOOKUP_CHUNK not looked up yet) in one read.
   * Rows with an answer are reused together, their outcomes written in one batch; the others keep their key, so
   * sending them needs no second read.
   */
  private async lookAhead(model: string, signal: AbortSignal): Promise<void> {
    const numbers: number[] = [];
    for (const n of this.queue) {
      if (numbers.length >= LOOKUP_CHUNK * LOOKUP_READS || this.ahead.has(n)) break;
      numbers.push(n);
    }
    const stored = new Set<string>();
    this.storedDuringLookup = stored;
    const reused: Reuse[] = [];
    const missed: PlannedRow[] = [];
    const keyOfRow = new Map<number, string>();
    let byQuestion: Map<number, QuestionLookup>;
    try {
      const keys = await Promise.all(numbers.map((n) => this.keyOf(this.identity(this.rows.get(n)!, model))));
      const found = await readInChunks([...new Set(keys)], (part) => this.deps.store.findAnswers(part));
      numbers.forEach((n, i) => {
        const answer = found.get(keys[i]!);
        if (answer && !signal.aborted) reused.push({ row: this.rows.get(n)!, answer });
        else {
          missed.push(this.rows.get(n)!);
          keyOfRow.set(n, keys[i]!);
        }
      });
      // Rows with no stored answer as a whole: each question is looked up alone, and only the others are sent.
      byQuestion =
        signal.aborted || this.input.questionReuse === false || !this.deps.store.findQuestionAnswers
          ? new Map()
          : await this.lookUpQuestions(missed, model);
    } finally {
      this.storedDuringLookup = null;
    }
    for (const row of missed) {
      const key = keyOfRow.get(row.number)!;
      const parts = byQuestion.get(row.number);
      const questions = this.questionsOf(row);
      if (parts && parts.found.size === Object.keys(questions).length && !signal.aborted) {
        // Every question is answered in storage: the row is reused, with its answer put together as a new record.
        const answer: StoredAnswer = {
          key,
          targetId: this.input.targetId,
          model,
          response: mergedResponse(questions, parts.found, null, model),
          at: this.deps.clock.now(),
          questionKeys: [...parts.keys],
        };
        reused.push({ row, answer, found: parts.found });
      } else if (!stored.has(key))
        // A key answered meanwhile stays unlooked-up: the next look-ahead finds its answer instead of sending again.
        this.putAhead(row.number, {
          key,
          ...(parts ? { questionKeys: parts.keys } : {}),
          found: parts?.found ?? NOTHING_FOUND,
        });
    }
    if (reused.length === 0) return;
    const taken = new Set(reused.map(({ row }) => row.number));
    this.queue = this.queue.filter((n) => !taken.has(n));
    // This chunk's outcomes are written while the next chunk is looked up; at most two chunks are ever writing.
    const writing = this.reuseAll(reused);
    // Awaited below, or when dispatch ends; never left unhandled in between.
    writing.catch(() => undefined);
    const previous = this.reusing;
    this.reusing = writing;
    if (previous) await previous;
  }

  /**
   * Records a chunk of reused rows in one write; if it cannot be saved, the rows go back to the queue and the error
   * stops the run.
   */
  private async reuseAll(reused: readonly Reuse[]): Promise<void> {
    const outcomes: ReusedRow[] = reused.map(({ row, answer, found }) => ({
      number: row.number,
      outcome: this.reusedOutcome(row, answer, found),
      ...(found ? { answer } : {}),
    }));
    try {
      await this.deps.store.saveReused(outcomes);
    } catch (error) {
      this.queue.unshift(...reused.map(({ row }) => row.number));
      throw error;
    }
    reused.forEach(({ row, answer }, i) => this.setOutcome(row, outcomes[i]!.outcome, answer));
  }

  /**
   * The stored answers of these rows' questions, each looked up under its own key (LOOKUP_READS reads at most), by
   * row; rows of one question are left out, their key being the row's, which was just looked up.
   */
  private async lookUpQuestions(
    rows: readonly PlannedRow[],
    model: string,
  ): Promise<Map<number, QuestionLookup>> {
    const keysOf = await Promise.all(rows.map((row) => this.questionKeysOf(row, model)));
    const unique = [...new Set(keysOf.flatMap((keys) => keys ?? []))];
    const out = new Map<number, QuestionLookup>();
    if (unique.length === 0) return out;
    const stored = await readInChunks(unique, (part) => this.deps.store.findQuestionAnswers!(part));
    rows.forEach((row, i) => {
      const keys = keysOf[i];
      if (keys) out.set(row.number, { keys, found: questionsFound(this.questionsOf(row), keys, stored) });
    });
    return out;
  }

  /** The keys of a row's questions alone, in order; undefined for one question, whose key is the row's own. */
  private async questionKeysOf(row: PlannedRow, model: string): Promise<string[] | undefined> {
    const each = questionIdentities(this.identity(row, model));
    return each.length < 2 ? undefined : Promise.all(each.map(([, id]) => this.keyOf(id)));
  }

  private questionsOf(row: PlannedRow): Questions {
    return row.questions ?? this.input.questions;
  }

  /** The outcome writes of the last chunk of reused rows, while they commit. */
  private reusing: Promise<void> | null = null;

  private putAhead(number: number, looked: LookedUp): void {
    const key = looked.key;
    this.ahead.set(number, looked);
    const rows = this.aheadByKey.get(key);
    if (rows) rows.push(number);
    else this.aheadByKey.set(key, [number]);
  }

  /** What a row's lookup found (no whole answer), forgotten as the row leaves the queue. */
  private takeAhead(number: number): LookedUp | undefined {
    const looked = this.ahead.get(number);
    if (looked === undefined) return undefined;
    const key = looked.key;
    this.ahead.delete(number);
    const rows = this.aheadByKey.get(key);
    if (rows) {
      const rest = rows.filter((n) => n !== number);
      if (rest.length) this.aheadByKey.set(key, rest);
      else this.aheadByKey.delete(key);
    }
    return looked;
  }

  /** An answer was just stored under `key`: rows looked up before it are looked up again, and reuse it. */
  private answerStored(key: string): void {
    this.storedDuringLookup?.add(key);
    for (const n of this.aheadByKey.get(key) ?? []) this.ahead.delete(n);
    this.aheadByKey.delete(key);
  }

  private identity(row: PlannedRow, model: string): AnswerIdentity {
    return {
      targetId: this.input.targetId,
      model,
      state: row.state,
      questions: this.questionsOf(row),
      ...(row.tag ? { tag: row.tag } : {}),
    };
  }

  private wouldPassBudget(tokens: number): boolean {
    // A target whose price is unknown cannot be held to a cap in money: the run says so before it starts.
    if (this.maxCost === null || this.price === null) return false;
    const committed = this.totals.billedTokens + this.totals.possiblyBilledTokens + this.reservedTokens;
    return estimateCost(committed + tokens, this.price) > this.maxCost;
  }

  private reusedOutcome(
    row: PlannedRow,
    answer: StoredAnswer,
    found?: ReadonlyMap<string, StoredAnswer>,
  ): RowOutcome {
    const parts = found ? [...found.values()] : [answer];
    return {
      status: 'reused',
      reusedFrom: parts.every((part) => part.at < this.startedAt) ? 'earlier' : 'run',
      ...(found ? { reusedQuestions: [...found.keys()] } : {}),
      at: this.deps.clock.now(),
      attempts: this.outcomes.get(row.number)?.attempts ?? 0,
      possiblyBilledAttempts: this.outcomes.get(row.number)?.possiblyBilledAttempts ?? 0,
      requeues: 0,
      answerKey: answer.key,
      model: answer.model,
      inputTokens: 0,
    };
  }

  private async send(row: PlannedRow, looked: LookedUp | undefined): Promise<void> {
    const key = looked?.key ?? null;
    const questions = this.questionsOf(row);
    const found = looked?.found ?? NOTHING_FOUND;
    // What the outcome says of the stored answers taken, whether or not the answer could then be saved.
    const reusedQuestions = found.size > 0 ? { reusedQuestions: [...found.keys()] } : {};
    const controller = new AbortController();
    this.inFlight.set(row.number, controller);
    const previous = this.outcomes.get(row.number);
    const base = {
      attempts: previous?.attempts ?? 0,
      possiblyBilledAttempts: previous?.possiblyBilledAttempts ?? 0,
      requeues: previous?.requeues ?? 0,
    };
    let answer: StoredAnswer | undefined;
    let sent = false;
    try {
      const sending: RowOutcome = { ...base, status: 'sending', at: this.deps.clock.now() };
      await this.deps.store.saveOutcome(row.number, sending);
      this.setOutcome(row, sending);
      if (controller.signal.aborted) throw controller.signal.reason;
      this.meter.record(this.deps.clock.now());
      sent = true;
      const result = await this.deps.evaluate(
        this.input.target,
        {
          state: row.state,
          model: this.input.model,
          // Only the questions with no stored answer: the service bills what it is sent.
          questions: found.size > 0 ? questionsLeft(questions, found) : questions,
          // A Decisions target reads the conversation itself; the proxy removes it for every other target.
          ...(row.conversation ? { [CONVERSATION_FIELD]: row.conversation } : {}),
        },
        {
          signal: controller.signal,
          timeoutMs: this.input.timeoutMs,
          now: () => this.deps.clock.now(),
          random: this.deps.random,
          // A 429 means the key's budget is spent for every row, not just this one: hold all sends until it refills.
          onAttempt: (attempt) => {
            if (attempt.outcome === 429 && attempt.retryInMs !== undefined) {
              const until = this.deps.clock.now() + attempt.retryInMs;
              this.pacer.holdUntil(until);
              this.serviceHoldUntil = Math.max(this.serviceHoldUntil, until);
            }
          },
          // A retry is a request too: it waits for its backoff, then for a paced slot like any other send.
          sleep: async (ms, signal) => {
            await this.deps.clock.sleep(ms, signal);
            await this.pacer.acquire(row.tokens, signal);
          },
        },
      );
      const response = result.response;
      // Answered by the pinned model it was looked up under (the usual case): the same identity, so the same key.
      const asLookedUp = key !== null && response.model === this.pinned;
      const answerKey = asLookedUp ? key : await this.keyOf(this.identity(row, response.model));
      const questionKeys = !this.deps.store.findQuestionAnswers
        ? undefined
        : asLookedUp && looked?.questionKeys
          ? looked.questionKeys
          : await this.questionKeysOf(row, response.model);
      answer = {
        key: answerKey,
        targetId: this.input.targetId,
        model: response.model,
        // Found answers are the pinned model's, and a pinned (versioned) id answers as itself (contract: `model`).
        response: found.size > 0 ? mergedResponse(questions, found, response, response.model) : response,
        at: this.deps.clock.now(),
        ...(questionKeys ? { questionKeys: [...questionKeys] } : {}),
      };
      const outcome: RowOutcome = {
        status: 'done',
        at: answer.at,
        attempts: base.attempts + result.attempts.length,
        possiblyBilledAttempts: base.possiblyBilledAttempts + result.possiblyBilledAttempts,
        requeues: base.requeues,
        latencyMs: result.latencyMs,
        requestId: result.requestId,
        answerKey,
        model: response.model,
        inputTokens: response.usage.input_tokens,
        ...reusedQuestions,
      };
      this.streak = 0;
      await this.deps.store.saveAnswered(row.number, outcome, answer);
      this.answerStored(answerKey);
      this.setOutcome(row, outcome, answer);
    } catch (error) {
      if (answer) {
        // Answered, but the answer could not be stored: keep it in memory (results and export still have it) and stop.
        const outcome = this.outcomes.get(row.number);
        if (outcome?.status === 'sending') {
          this.setOutcome(
            row,
            {
              ...outcome,
              status: 'done',
              answerKey: answer.key,
              model: answer.model,
              inputTokens: answer.response.usage.input_tokens,
              ...reusedQuestions,
            },
            answer,
          );
        }
        this.halt({
          reason: 'storage',
          message: `An answer could not be saved (${errorText(error)}); the run stopped.`,
        });
      } else {
        await this.failed(row, base, error, sent).catch((storeError: unknown) => {
          this.halt({
            reason: 'storage',
            message: `Progress could not be saved (${errorText(storeError)}); the run stopped.`,
          });
        });
      }
    } finally {
      this.reservedTokens -= row.tokens;
      if (key !== null) await this.settleFollowers(key, answer);
      // Deleted last: run() ends when nothing is in flight, and the followers above must be settled by then.
      this.inFlight.delete(row.number);
      this.poke();
    }
  }

  /** Rows that waited on the same request: they reuse its answer, or go back to the front of the queue. */
  private async settleFollowers(key: string, answer: StoredAnswer | undefined): Promise<void> {
    const followers = this.leaders.get(key) ?? [];
    this.leaders.delete(key);
    if (answer) {
      const rows = followers.flatMap((n) => {
        const row = this.rows.get(n);
        return row ? [{ row, answer }] : [];
      });
      // Unsaved followers go back to the queue (reuseAll puts them there); the leader's row is settled either way.
      if (rows.length > 0) await this.reuseAll(rows).catch(() => undefined);
    } else this.queue.unshift(...followers);
  }

  private async failed(
    row: PlannedRow,
    base: { attempts: number; possiblyBilledAttempts: number; requeues: number },
    error: unknown,
    sent: boolean,
  ): Promise<void> {
    const now = this.deps.clock.now();
    if (!isErrorLike(error) && sent) {
      // Not the client's typed error, after the request may have left: treat the outcome as unknown.
      const outcome: RowOutcome = {
        ...base,
        status: 'unknown',
        at: now,
        possiblyBilledAttempts: base.possiblyBilledAttempts + 1,
        error: { kind: 'unexpected', message: errorText(error), fieldErrors: [], possiblyBilled: true },
      };
      this.setOutcome(row, outcome);
      await this.deps.store.saveOutcome(row.number, outcome);
      return;
    }
    if (!isErrorLike(error)) {
      // The store failed before sending, or the run stopped before the request left: the row was not sent.
      const back: RowOutcome = { ...base, status: 'pending', at: now };
      this.queue.unshift(row.number);
      this.setOutcome(row, back);
      await this.deps.store.saveOutcome(row.number, back);
      if (!this.stop?.signal.aborted) throw error;
      return;
    }
    const attempts = base.attempts + error.attempts.length;
    const billed = base.possiblyBilledAttempts + countBilled(error.attempts);
    const rowError: RowError = {
      kind: error.kind,
      message: error.message,
      status: error.status,
      fieldErrors: error.fieldErrors,
      possiblyBilled: error.possiblyBilled,
    };
    const outcomeWith = (status: RowStatus, requeues = base.requeues): RowOutcome => ({
      status,
      at: now,
      attempts,
      possiblyBilledAttempts: billed,
      requeues,
      requestId: error.attempts.at(-1)?.requestId,
      error: rowError,
    });
    let outcome: RowOutcome;
    const status = error.status ?? 0;

    if (ERROR_KINDS_THAT_STOP.has(error.kind) || status === 403) {
      // Not evaluated, not billed: the row waits for the key to be fixed, and nothing more is sent.
      outcome = outcomeWith('pending');
      this.queue.unshift(row.number);
      this.halt({ reason: 'auth', message: error.message });
    } else if (error.kind === 'quota') {
      // Every further row would be refused the same way until the quota resets: stop, and keep this row to resend.
      outcome = outcomeWith('pending');
      this.queue.unshift(row.number);
      this.halt({ reason: 'quota', message: error.message });
    } else if (status === 404 || status === 405 || error.kind === 'not_decision_model') {
      outcome = outcomeWith('pending');
      this.queue.unshift(row.number);
      this.halt({ reason: 'target', message: error.message });
    } else if (error.kind === 'cancelled') {
      if (error.possiblyBilled) outcome = outcomeWith('unknown');
      else {
        outcome = outcomeWith('pending');
        this.queue.unshift(row.number);
      }
    } else if (
      error.kind === 'validation' ||
      (error.kind === 'http' && status >= 400 && status < 500 && status !== 408)
    ) {
      // The row itself is wrong (422, 413, 400): mark it with the service's reason and go on.
      outcome = { ...outcomeWith('invalid'), error: { ...rowError, message: refusedRowMessage(error) } };
      this.streak = 0;
    } else if (error.kind === 'timeout') {
      outcome = outcomeWith('unknown');
      this.bumpStreak(error.message);
    } else if (error.kind === 'bad_response') {
      outcome = outcomeWith('failed');
      this.bumpStreak(error.message);
    } else if (error.possiblyBilled) {
      // A 5xx or a dropped connection after sending: the service may have evaluated it. Never resent on our own.
      outcome = outcomeWith('unknown');
      this.bumpStreak(error.message);
    } else if (error.retryable && base.requeues < MAX_REQUEUES) {
      // Rate limited or unreachable after the client's retries, and nothing billed: try again at the back of the queue.
      outcome = outcomeWith('pending', base.requeues + 1);
      this.queue.push(row.number);
      this.bumpStreak(error.message);
    } else {
      outcome = outcomeWith('failed');
      this.bumpStreak(error.message);
    }
    this.setOutcome(row, outcome);
    await this.deps.store.saveOutcome(row.number, outcome);
  }

  private bumpStreak(message: string): void {
    this.streak++;
    if (this.streak >= FAILING_STREAK && !this.haltState) {
      this.halt({
        reason: 'failing',
        message: `${FAILING_STREAK} rows in a row failed on the service's side (last: ${message}); the run stopped. Resume when the service is back.`,
      });
    }
  }

  private requestStop(phase: RunPhase, halt: Halt): void {
    if (this.phase !== 'running' && this.phase !== 'pausing') return;
    this.phase = phase;
    if (!this.haltState || halt.reason === 'cancelled') this.haltState = halt;
    this.stop?.abort(new DOMException(halt.message, 'AbortError'));
    this.poke();
  }

  private halt(halt: Halt): void {
    if (this.haltState && this.haltState.reason !== 'paused') return;
    this.haltState = halt;
    if (this.phase === 'running') this.phase = 'pausing';
    this.stop?.abort(new DOMException(halt.message, 'AbortError'));
    this.poke();
  }

  private setOutcome(row: PlannedRow, outcome: RowOutcome, answer?: StoredAnswer): void {
    const previous = this.outcomes.get(row.number);
    if (previous) this.account(row, previous, -1);
    this.outcomes.set(row.number, outcome);
    this.account(row, outcome, 1);
    this.emit({ number: row.number, outcome, answer });
  }

  /** Keeps the billed and possibly-billed totals in step with outcomes (sign -1 removes an old outcome). */
  private account(row: PlannedRow, outcome: RowOutcome, sign: 1 | -1): void {
    this.counts[outcome.status] += sign;
    if (outcome.status === 'reused' && outcome.reusedFrom === 'earlier') this.reusedEarlier += sign;
    if (outcome.status === 'done' && outcome.reusedQuestions?.length) this.partlyReused += sign;
    const tokens = outcomeTokens(outcome, row.tokens);
    this.totals.billedTokens += sign * tokens.billed;
    this.totals.possiblyBilledTokens += sign * tokens.possiblyBilled;
  }

  private emit(update: RowUpdate): void {
    for (const listener of this.listeners) listener(update);
  }

  private nextChange(): Promise<void> {
    return new Promise((resolve) => {
      const previous = this.wake;
      this.wake = () => {
        previous?.();
        resolve();
      };
    });
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/** The input tokens an outcome counts as billed, and as possibly billed, for a row of `rowTokens` estimated tokens. */
export function outcomeTokens(
  outcome: Pick<RowOutcome, 'status' | 'inputTokens' | 'possiblyBilledAttempts'>,
  rowTokens: number,
): { billed: number; possiblyBilled: number } {
  return {
    billed: outcome.status === 'done' ? (outcome.inputTokens ?? rowTokens) : 0,
    possiblyBilled: outcome.possiblyBilledAttempts * rowTokens,
  };
}

/** True when a row's status needs nothing more from the run. */
export const isSettled = (status: RowStatus | undefined): boolean =>
  status !== undefined && SETTLED.has(status);
