// The run engine: sends one request per row, paced, and records every outcome as it arrives. Pure orchestration over
// an injected evaluate, clock and store, so tests drive it with a manual clock or the real client and a real server.
// A row with an answer is never sent again; a stored answer is reused (lookAhead.ts); a row is marked `sending` before
// it leaves, so after a crash it is "unknown, may have been billed", never re-sent silently; what a failure means for
// its row and the run is failure.ts's; the run stops before the budget cap would be passed.
import { CONVERSATION_FIELD, estimateCost, PRICE_PER_MILLION_INPUT_TOKENS } from '../../contract';
import { errorClause as errorText } from '../../contract/text';
import type { AnswerIdentity } from './dedup';
import { dedupKey, pinnedModel } from './dedup';
import { classifyFailure } from './failure';
import type { SendBase } from './failure';
import type { LookedUp, Reuse } from './lookAhead';
import { LookAhead, LOOKUP_CHUNK, LOOKUP_READS, NOTHING_FOUND, reusedOutcome } from './lookAhead';
import { Gate, Pacer, RateMeter } from './pacer';
import type { Pacing } from './pacer';
import { mergedResponse, questionsLeft } from './questionReuse';
import type { Halt, RowOutcome, StoredAnswer } from './records';
import type { PlannedRow } from './runPlan';
import { RunTally } from './tally';
import type { ReusedRow, RowUpdate, RunnerDeps, RunnerInput, RunPhase, RunProgress } from './runTypes';

/** Rows in a row that fail for the service's sake (not the row's) before the run stops by itself. */
export const FAILING_STREAK = 5;

/** Drives one run of rows. Create it with the stored outcomes, call `run()`, and `run()` again after a halt. */
export class RowRunner {
  private readonly rows = new Map<number, PlannedRow>();
  private readonly outcomes = new Map<number, RowOutcome>();
  private queue: number[] = [];
  private readonly inFlight = new Map<number, AbortController>();
  /** Dedup keys being sent now, and the rows waiting for that answer. */
  private readonly leaders = new Map<string, number[]>();
  private readonly listeners = new Set<(update: RowUpdate) => void>();
  /** What the queued rows' lookups found short of a whole answer, until each is sent. */
  private readonly stored: LookAhead;
  /** When this call of run() began: a stored answer older than that comes from an earlier run. */
  private startedAt = 0;
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
  /** Rows per status and tokens, kept in step with outcomes. */
  private readonly tally = new RunTally();
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
    this.stored = new LookAhead({
      targetId: input.targetId,
      questions: input.questions,
      questionReuse: input.questionReuse !== false,
      store: deps.store,
      keyOf: this.keyOf,
      now: () => deps.clock.now(),
    });
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
        this.tally.account(outcome, row.tokens, 1);
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
    const { counts, billedTokens, possiblyBilledTokens } = this.tally;
    const total = this.rows.size;
    const pending = total - this.tally.settled - this.inFlight.size;
    const now = this.deps.clock.now();
    const rate = this.meter.perMinute(now);
    const pace = rate > 0 ? rate : this.pacer.settings.requestsPerMinute;
    return {
      phase: this.phase,
      halt: this.haltState,
      total,
      done: counts.done,
      reused: counts.reused,
      reusedEarlier: this.tally.reusedEarlier,
      partlyReused: this.tally.partlyReused,
      invalid: counts.invalid,
      failed: counts.failed,
      unknown: counts.unknown,
      pending,
      inFlight: this.inFlight.size,
      billedTokens,
      possiblyBilledTokens,
      cost: estimateCost(billedTokens, this.price ?? 0),
      possiblyBilledCost: estimateCost(possiblyBilledTokens, this.price ?? 0),
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
    this.stored.clear();
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
      if (this.pinned !== null && !this.stored.has(this.queue[0]!)) {
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
        const lookedUp = this.stored.take(number);
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
   * Looks up the stored answers of the next rows of the queue (up to LOOKUP_CHUNK x LOOKUP_READS not looked up yet).
   * Rows with an answer are reused together, their outcomes written in one batch; the others keep their key, so
   * sending them needs no second read.
   */
  private async lookAhead(model: string, signal: AbortSignal): Promise<void> {
    const rows: PlannedRow[] = [];
    for (const n of this.queue) {
      if (rows.length >= LOOKUP_CHUNK * LOOKUP_READS || this.stored.has(n)) break;
      rows.push(this.rows.get(n)!);
    }
    const reused = await this.stored.lookUp(rows, model, signal);
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
      outcome: reusedOutcome(
        this.outcomes.get(row.number),
        answer,
        found,
        this.startedAt,
        this.deps.clock.now(),
      ),
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

  /** The outcome writes of the last chunk of reused rows, while they commit. */
  private reusing: Promise<void> | null = null;

  private wouldPassBudget(tokens: number): boolean {
    // A target whose price is unknown cannot be held to a cap in money: the run says so before it starts.
    if (this.maxCost === null || this.price === null) return false;
    const committed = this.tally.billedTokens + this.tally.possiblyBilledTokens + this.reservedTokens;
    return estimateCost(committed + tokens, this.price) > this.maxCost;
  }

  private async send(row: PlannedRow, looked: LookedUp | undefined): Promise<void> {
    const key = looked?.key ?? null;
    const questions = this.stored.questionsOf(row);
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
      const answerKey = asLookedUp ? key : await this.keyOf(this.stored.identity(row, response.model));
      const questionKeys = !this.deps.store.findQuestionAnswers
        ? undefined
        : asLookedUp && looked?.questionKeys
          ? looked.questionKeys
          : await this.stored.questionKeysOf(row, response.model);
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
      this.stored.answerStored(answerKey);
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

  private async failed(row: PlannedRow, base: SendBase, error: unknown, sent: boolean): Promise<void> {
    const verdict = classifyFailure(error, base, this.deps.clock.now(), sent);
    if (verdict.requeue === 'front') this.queue.unshift(row.number);
    else if (verdict.requeue === 'back') this.queue.push(row.number);
    if (verdict.halt) this.halt(verdict.halt);
    if (verdict.streak === 'reset') this.streak = 0;
    else if (verdict.streak === 'bump') this.bumpStreak(verdict.outcome.error?.message ?? '');
    this.setOutcome(row, verdict.outcome);
    await this.deps.store.saveOutcome(row.number, verdict.outcome);
    // A store that failed before the row left stops the run, unless it was stopping anyway.
    if (verdict.notSent && !this.stop?.signal.aborted) throw error;
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
    if (previous) this.tally.account(previous, row.tokens, -1);
    this.outcomes.set(row.number, outcome);
    this.tally.account(outcome, row.tokens, 1);
    this.emit({ number: row.number, outcome, answer });
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
