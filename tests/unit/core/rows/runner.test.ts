// The run engine's rules on a manual clock, with a scripted service that fails the way the client reports failures.
import { describe, expect, it } from 'vitest';
import type { EvaluateRequest, EvaluateResponse } from '../../../../src/contract';
import { estimateCost } from '../../../../src/contract';
import type {
  AttemptReport,
  CallOptions,
  ClientTarget,
  EvaluateResult,
  Failure,
} from '../../../../src/client';
import { toEvaluationError } from '../../../../src/client';
import type { RowOutcome } from '../../../../src/core/rows/records';
import type { PlannedRow } from '../../../../src/core/rows/runPlan';
import type { RunnerInput } from '../../../../src/core/rows/runTypes';
import { FAILING_STREAK, RowRunner } from '../../../../src/core/rows/runner';
import { LOOKUP_CHUNK, LOOKUP_READS } from '../../../../src/core/rows/lookAhead';
import { MAX_REQUEUES } from '../../../../src/core/rows/failure';
import { ManualClock, flush } from './manualClock';
import { MemoryStore } from './memoryStore';

type Behaviour = 'ok' | '401' | '422' | 'timeout' | '429' | '529' | 'slow';

/** A service on the manual clock whose answer to each row is scripted by the row's state. */
function scriptedService(clock: ManualClock, script: (state: string, sendIndex: number) => Behaviour) {
  const sends: string[] = [];
  const evaluate = async (
    _t: ClientTarget,
    request: EvaluateRequest,
    options: CallOptions,
  ): Promise<EvaluateResult> => {
    const state = request.state as string;
    const behaviour = script(state, sends.filter((s) => s === state).length);
    sends.push(state);
    await clock.sleep(behaviour === 'slow' ? 10_000 : 10, options.signal).catch(() => {
      const attempts: AttemptReport[] = [
        { attempt: 0, outcome: 'cancelled', durationMs: 10, possiblyBilled: true },
      ];
      throw toEvaluationError({ type: 'cancelled' }, attempts);
    });
    const fail = (failure: Failure, attempts: AttemptReport[]): never => {
      throw toEvaluationError(failure, attempts);
    };
    const status = (s: number, billed: boolean): AttemptReport[] =>
      [0, 1, 2].map((attempt) => ({
        attempt,
        outcome: s,
        durationMs: 10,
        possiblyBilled: billed,
        requestId: `r-${attempt}`,
      }));
    switch (behaviour) {
      case '401':
        return fail({ type: 'status', status: 401, serviceMessage: 'bad key', fieldErrors: [] }, [
          { attempt: 0, outcome: 401, durationMs: 10 },
        ]);
      case '422':
        return fail(
          {
            type: 'status',
            status: 422,
            serviceMessage: 'bad',
            fieldErrors: [{ loc: ['state'], msg: 'too long' }],
          },
          [{ attempt: 0, outcome: 422, durationMs: 10 }],
        );
      case 'timeout':
        return fail(
          { type: 'timeout', timeoutMs: 30_000 },
          [0, 1, 2].map((attempt) => ({
            attempt,
            outcome: 'timeout' as const,
            durationMs: 30_000,
            possiblyBilled: true,
          })),
        );
      case '429':
        return fail(
          { type: 'status', status: 429, serviceMessage: 'slow down', fieldErrors: [] },
          status(429, false),
        );
      case '529':
        return fail(
          { type: 'status', status: 529, serviceMessage: 'overloaded', fieldErrors: [] },
          status(529, true),
        );
      default: {
        const response: EvaluateResponse = {
          model: 'model-1.13.0',
          answers: { q: { type: 'noul', noul: 0.75 } },
          usage: { input_tokens: 100 },
        };
        return {
          response,
          attempts: [{ attempt: 0, outcome: 200, durationMs: 10 }],
          latencyMs: 10,
          possiblyBilledAttempts: 0,
        };
      }
    }
  };
  return { evaluate, sends };
}

const rows = (...states: string[]): PlannedRow[] =>
  states.map((state, i) => ({ number: i + 1, line: i + 2, id: `id-${i + 1}`, state, tokens: 100 }));

const input = (planned: PlannedRow[], over: Partial<RunnerInput> = {}): RunnerInput => ({
  targetId: 'local',
  target: { baseUrl: 'http://unused' },
  model: 'model-latest',
  questions: { q: { type: 'noul', instructions: 'Is it urgent?' } },
  rows: planned,
  pacing: { requestsPerMinute: 6000, concurrency: 1, tokensPerSecond: 250_000 },
  maxCost: null,
  ...over,
});

/** A store holding an earlier answer (model-1.13.0 on local) for each of these states. */
async function storeAnsweredEarlier(states: readonly string[]): Promise<MemoryStore> {
  const store = new MemoryStore();
  for (const state of states) {
    const key = await keyOf({ targetId: 'local', model: 'model-1.13.0', state });
    const response = {
      model: 'model-1.13.0',
      answers: { q: { type: 'noul' as const, noul: 0.5 } },
      usage: { input_tokens: 100 },
    };
    store.answers.set(key, { key, targetId: 'local', model: 'model-1.13.0', response, at: -1 });
  }
  return store;
}

const keyOf = async (id: { state: unknown; model: string; targetId: string }) =>
  `${id.targetId}|${id.model}|${JSON.stringify(id.state)}`;

function setup(
  states: string[],
  script: (state: string, n: number) => Behaviour,
  over: Partial<RunnerInput> = {},
  store = new MemoryStore(),
) {
  const clock = new ManualClock();
  const service = scriptedService(clock, script);
  const runner = new RowRunner(input(rows(...states), over), {
    evaluate: service.evaluate,
    clock,
    store,
    keyOf,
  });
  return { clock, service, runner, store };
}

const statuses = (store: MemoryStore, n: number) =>
  Array.from({ length: n }, (_, i) => store.outcomes.get(i + 1)?.status);

describe('RowRunner', () => {
  it('marks a 422 row with the service reason and goes on', async () => {
    const { clock, runner, store, service } = setup(['a', 'bad', 'c'], (s) => (s === 'bad' ? '422' : 'ok'));
    const end = await clock.runUntil(runner.run());
    expect(end).toMatchObject({ phase: 'finished', done: 2, invalid: 1, pending: 0 });
    expect(service.sends).toEqual(['a', 'bad', 'c']);
    const bad = store.outcomes.get(2)!;
    expect(bad.status).toBe('invalid');
    expect(bad.error?.message).toMatch(/422.*state.*too long/);
    expect(bad.error?.fieldErrors).toEqual([{ loc: ['state'], msg: 'too long' }]);
  });

  it('says how long sends wait because a 429 asked for it, and nothing once the run is over', async () => {
    const clock = new ManualClock();
    let seen: number | null | undefined;
    const runner: RowRunner = new RowRunner(input(rows('a', 'b')), {
      clock,
      store: new MemoryStore(),
      keyOf,
      evaluate: async (_t, _r, options) => {
        options.onAttempt?.({ attempt: 0, outcome: 429, durationMs: 5, retryInMs: 2000 });
        seen ??= runner.progress().serviceWaitMs;
        return {
          response: {
            model: 'model-1.13.0',
            answers: { q: { type: 'noul', noul: 0.5 } },
            usage: { input_tokens: 1 },
          },
          attempts: [{ attempt: 0, outcome: 200, durationMs: 5 }],
          latencyMs: 5,
          possiblyBilledAttempts: 0,
        };
      },
    });
    const end = await clock.runUntil(runner.run());
    expect(seen).toBe(2000);
    expect(end.phase).toBe('finished');
    expect(end.serviceWaitMs).toBeNull();
  });

  it('stops the whole run on 401, keeps that row pending, and resumes after the key is fixed', async () => {
    let keyFixed = false;
    const { clock, runner, store, service } = setup(['a', 'b', 'c', 'd'], (s) =>
      s === 'b' && !keyFixed ? '401' : 'ok',
    );
    const first = await clock.runUntil(runner.run());
    expect(first.phase).toBe('halted');
    expect(first.halt).toMatchObject({ reason: 'auth' });
    expect(first.halt?.message).toMatch(/401/);
    // A stopped run shows no time left, though two rows are still pending.
    expect(first.pending).toBe(3);
    expect(first.etaMs).toBeNull();
    expect(service.sends).toEqual(['a', 'b']);
    expect(statuses(store, 4)).toEqual(['done', 'pending', undefined, undefined]);

    keyFixed = true;
    const second = await clock.runUntil(runner.run());
    expect(second).toMatchObject({ phase: 'finished', done: 4 });
    // 'a' had an answer: never sent again.
    expect(service.sends).toEqual(['a', 'b', 'b', 'c', 'd']);
  });

  it('marks a timeout as unknown (may have been billed), never resends it by itself, and retries it on request', async () => {
    let timeouts = true;
    const { clock, runner, store, service } = setup(['a', 'slowpoke', 'c'], (s) =>
      s === 'slowpoke' && timeouts ? 'timeout' : 'ok',
    );
    const first = await clock.runUntil(runner.run());
    expect(first).toMatchObject({ phase: 'finished', done: 2, unknown: 1 });
    const unknown = store.outcomes.get(2)!;
    expect(unknown).toMatchObject({ status: 'unknown', possiblyBilledAttempts: 3, attempts: 3 });
    expect(unknown.error?.message).toMatch(/may have run and been billed/);
    expect(first.possiblyBilledTokens).toBe(300);

    // Running again does not touch it.
    await clock.runUntil(runner.run());
    expect(service.sends).toEqual(['a', 'slowpoke', 'c']);

    timeouts = false;
    expect(await runner.retry(runner.retryable().unknown)).toEqual([2]);
    const end = await clock.runUntil(runner.run());
    expect(end).toMatchObject({ phase: 'finished', done: 3, unknown: 0 });
    expect(service.sends).toEqual(['a', 'slowpoke', 'c', 'slowpoke']);
    // The earlier attempts stay counted as possibly billed.
    expect(store.outcomes.get(2)).toMatchObject({ status: 'done', attempts: 4, possiblyBilledAttempts: 3 });
  });

  it('puts a row that was rate limited after every retry back in the queue, then marks it failed', async () => {
    const { clock, runner, store, service } = setup(['a', 'limited'], (s) =>
      s === 'limited' ? '429' : 'ok',
    );
    const end = await clock.runUntil(runner.run());
    expect(service.sends.filter((s) => s === 'limited')).toHaveLength(1 + MAX_REQUEUES);
    expect(end).toMatchObject({ phase: 'finished', done: 1, failed: 1 });
    expect(store.outcomes.get(2)).toMatchObject({
      status: 'failed',
      requeues: MAX_REQUEUES,
      possiblyBilledAttempts: 0,
    });
    expect(store.outcomes.get(2)?.error?.kind).toBe('rate_limited');
  });

  it('marks a row unknown when a 5xx came after the body was sent, and never resends it by itself', async () => {
    const { clock, runner, store, service } = setup(['a', 'boom'], (s) => (s === 'boom' ? '529' : 'ok'));
    const end = await clock.runUntil(runner.run());
    expect(end).toMatchObject({ done: 1, unknown: 1 });
    expect(service.sends).toEqual(['a', 'boom']);
    expect(store.outcomes.get(2)?.error).toMatchObject({ kind: 'overloaded', possiblyBilled: true });
  });

  it(`stops by itself after ${FAILING_STREAK} rows in a row fail on the service's side`, async () => {
    const states = Array.from({ length: 10 }, (_, i) => `s${i}`);
    const { clock, runner, service } = setup(states, () => '529');
    const end = await clock.runUntil(runner.run());
    expect(end.halt?.reason).toBe('failing');
    expect(service.sends).toHaveLength(FAILING_STREAK);
    expect(end.pending).toBe(10 - FAILING_STREAK);
  });

  it('stops before the budget cap would be passed, and goes on when the cap is raised', async () => {
    const states = Array.from({ length: 10 }, (_, i) => `s${i}`);
    // Each row: 100 tokens estimated and billed. A cap worth 4.5 rows lets exactly 4 through.
    const cap = estimateCost(450);
    const { clock, runner, service } = setup(states, () => 'ok', { maxCost: cap });
    const first = await clock.runUntil(runner.run());
    expect(first.halt?.reason).toBe('budget');
    expect(service.sends).toHaveLength(4);
    expect(first.cost).toBeLessThanOrEqual(cap);
    expect(first).toMatchObject({ done: 4, pending: 6 });

    runner.setBudget(estimateCost(1000));
    const second = await clock.runUntil(runner.run());
    expect(second).toMatchObject({ phase: 'finished', done: 10 });
    expect(service.sends).toHaveLength(10);
  });

  it('counts requests in flight against the budget, so concurrency cannot overshoot it', async () => {
    const states = Array.from({ length: 10 }, (_, i) => `s${i}`);
    const cap = estimateCost(350);
    const { clock, runner, service } = setup(states, () => 'ok', {
      maxCost: cap,
      pacing: { requestsPerMinute: 600_000, concurrency: 8, tokensPerSecond: 1e9 },
    });
    const end = await clock.runUntil(runner.run());
    expect(service.sends).toHaveLength(3);
    expect(end.cost).toBeLessThanOrEqual(cap);
  });

  it('pauses after the rows in flight finish and resumes without resending any of them', async () => {
    const states = Array.from({ length: 20 }, (_, i) => `s${i}`);
    const { clock, runner, service, store } = setup(states, () => 'ok', {
      pacing: { requestsPerMinute: 600, concurrency: 2, tokensPerSecond: 250_000 },
    });
    const running = runner.run();
    while (clock.now() < 500) await clock.step();
    runner.pause();
    const paused = await clock.runUntil(running);
    expect(paused.phase).toBe('halted');
    expect(paused.halt?.reason).toBe('paused');
    expect(paused.inFlight).toBe(0);
    const sentBefore = service.sends.length;
    expect(sentBefore).toBeGreaterThan(3);
    expect(sentBefore).toBeLessThan(20);
    expect(paused.done).toBe(sentBefore);

    const end = await clock.runUntil(runner.run());
    expect(end).toMatchObject({ phase: 'finished', done: 20 });
    expect(new Set(service.sends).size).toBe(20);
    expect(service.sends).toHaveLength(20);
    expect([...store.history.values()].every((h) => h.join() === 'sending,done')).toBe(true);
  });

  it('cancels at once: rows in flight are aborted and marked unknown, the rest stay pending', async () => {
    const { clock, runner, store } = setup(['slow', 'b', 'c'], (s) => (s === 'slow' ? 'slow' : 'ok'));
    const running = runner.run();
    await flush();
    expect(runner.progress().inFlight).toBe(1);
    runner.cancel();
    const end = await clock.runUntil(running);
    expect(end.halt?.reason).toBe('cancelled');
    expect(statuses(store, 3)).toEqual(['unknown', undefined, undefined]);
    expect(end).toMatchObject({ unknown: 1, pending: 2 });
  });

  it('resumes from stored outcomes: answered rows are never resent, a row caught in flight becomes unknown', async () => {
    const store = new MemoryStore();
    const answered: RowOutcome = {
      status: 'done',
      at: 0,
      attempts: 1,
      possiblyBilledAttempts: 0,
      requeues: 0,
      inputTokens: 100,
      answerKey: 'k',
      model: 'model-1.13.0',
    };
    const sending: RowOutcome = {
      status: 'sending',
      at: 0,
      attempts: 0,
      possiblyBilledAttempts: 0,
      requeues: 0,
    };
    const clock = new ManualClock();
    const service = scriptedService(clock, () => 'ok');
    const runner = new RowRunner(
      input(rows('a', 'b', 'c', 'd'), {
        outcomes: new Map([
          [1, answered],
          [2, sending],
        ]),
      }),
      { evaluate: service.evaluate, clock, store, keyOf },
    );
    expect(runner.progress()).toMatchObject({
      done: 1,
      unknown: 1,
      pending: 2,
      billedTokens: 100,
      possiblyBilledTokens: 100,
    });
    const end = await clock.runUntil(runner.run());
    expect(service.sends).toEqual(['c', 'd']);
    expect(end).toMatchObject({ phase: 'finished', done: 3, unknown: 1 });
    // The conversion is stored, so a second reload says the same.
    expect(store.outcomes.get(2)).toMatchObject({ status: 'unknown', error: { kind: 'interrupted' } });
  });

  it('writes `sending` before each request leaves, so a crash can never lose track of a billed row', async () => {
    const { clock, runner, store, service } = setup(['a'], () => 'ok');
    let statusAtSend: string | undefined;
    const original = service.evaluate;
    const spy: typeof original = (t, r, o) => {
      statusAtSend = store.outcomes.get(1)?.status;
      return original(t, r, o);
    };
    const watched = new RowRunner(input(rows('a')), { evaluate: spy, clock, store, keyOf });
    await clock.runUntil(watched.run());
    expect(statusAtSend).toBe('sending');
    expect(runner.progress().done).toBe(0);
  });

  describe('deduplication (pinned model)', () => {
    it('sends identical rows once: the others reuse the answer and cost nothing', async () => {
      const { clock, runner, store, service } = setup(['same', 'same', 'other', 'same'], () => 'ok', {
        model: 'model-1.13.0',
        pacing: { requestsPerMinute: 600_000, concurrency: 4, tokensPerSecond: 1e9 },
      });
      const end = await clock.runUntil(runner.run());
      expect(service.sends.sort()).toEqual(['other', 'same']);
      expect(end).toMatchObject({ done: 2, reused: 2, billedTokens: 200 });
      expect(statuses(store, 4).sort()).toEqual(['done', 'done', 'reused', 'reused']);
      expect(store.outcomes.get(2)).toMatchObject({ inputTokens: 0, model: 'model-1.13.0' });
    });

    it('reuses answers stored by an earlier run, across runners sharing the store', async () => {
      const store = new MemoryStore();
      const first = setup(['a', 'b'], () => 'ok', { model: 'model-1.13.0' }, store);
      await first.clock.runUntil(first.runner.run());
      const second = setup(['b', 'c', 'a'], () => 'ok', { model: 'model-1.13.0' }, new MemoryStore());
      // A fresh store: everything is sent.
      await second.clock.runUntil(second.runner.run());
      expect(second.service.sends).toEqual(['b', 'c', 'a']);
      const third = setup(['b', 'c', 'a'], () => 'ok', { model: 'model-1.13.0' }, store);
      const end = await third.clock.runUntil(third.runner.run());
      expect(third.service.sends).toEqual(['c']);
      expect(end).toMatchObject({ done: 1, reused: 2, cost: estimateCost(100) });
    });

    it('does not reuse across targets, nor for an alias, whose version can move', async () => {
      const store = new MemoryStore();
      const first = setup(['a'], () => 'ok', { model: 'model-1.13.0' }, store);
      await first.clock.runUntil(first.runner.run());
      const otherTarget = setup(['a'], () => 'ok', { model: 'model-1.13.0', targetId: 'prod' }, store);
      await otherTarget.clock.runUntil(otherTarget.runner.run());
      expect(otherTarget.service.sends).toEqual(['a']);
      const alias = setup(['a', 'a'], () => 'ok', { model: 'model-latest' }, store);
      await alias.clock.runUntil(alias.runner.run());
      expect(alias.service.sends).toEqual(['a', 'a']);
    });

    it('reads stored answers a chunk of rows at a time, reuses them without sending, and counts them as earlier', async () => {
      const n = 2 * LOOKUP_CHUNK + 200;
      const states = Array.from({ length: n }, (_, i) => `row ${i}`);
      const store = await storeAnsweredEarlier(states);
      const { clock, runner, service } = setup(states, () => 'ok', { model: 'model-1.13.0' }, store);
      const end = await clock.runUntil(runner.run());
      expect(service.sends).toEqual([]);
      expect(store.lookups.map((keys) => keys.length)).toEqual([LOOKUP_CHUNK, LOOKUP_CHUNK, 200]);
      expect(end).toMatchObject({ reused: n, reusedEarlier: n, done: 0, cost: 0, pending: 0 });
      expect(store.outcomes.get(n)).toMatchObject({
        status: 'reused',
        reusedFrom: 'earlier',
        inputTokens: 0,
      });
    });

    it('a chunk of reused rows whose outcomes cannot be saved stops the run; no row is lost or sent', async () => {
      // Rows looked up together (LOOKUP_READS reads of LOOKUP_CHUNK keys) are reused and saved together.
      const group = LOOKUP_CHUNK * LOOKUP_READS;
      const n = 3 * group;
      const states = Array.from({ length: n }, (_, i) => `row ${i}`);
      const store = await storeAnsweredEarlier(states);
      // A row of the second group: its outcomes are written while the third group is being looked up.
      store.failSaveOf = group + 7;
      const { clock, runner, service } = setup(states, () => 'ok', { model: 'model-1.13.0' }, store);
      const end = await clock.runUntil(runner.run());
      expect(end.halt?.reason).toBe('storage');
      expect(end.halt?.message).toMatch(/QuotaExceededError at row/);
      expect(service.sends).toEqual([]);
      // Every row is either stored as reused or still pending: none counted twice, none dropped.
      expect(end.reused).toBe(store.outcomes.size);
      expect(end.reused + end.pending).toBe(n);
      // A group is saved whole or not at all: none of the second group's rows is stored, the first group's all are.
      for (let row = group + 1; row <= 2 * group; row++) expect(store.outcomes.has(row)).toBe(false);
      for (let row = 1; row <= group; row++) expect(store.outcomes.get(row)?.status).toBe('reused');
      // One write per group, not one per row.
      expect(store.reusedWrites.length).toBeLessThanOrEqual(3);
    });

    it('a row looked up before an identical row was answered reuses that answer instead of being sent', async () => {
      // One at a time: the third row was looked up (nothing stored) before the first was sent and answered.
      const { clock, runner, store, service } = setup(['a', 'b', 'a'], () => 'ok', { model: 'model-1.13.0' });
      const end = await clock.runUntil(runner.run());
      expect(service.sends).toEqual(['a', 'b']);
      expect(end).toMatchObject({ done: 2, reused: 1, reusedEarlier: 0 });
      expect(store.outcomes.get(3)).toMatchObject({ status: 'reused', reusedFrom: 'run' });
    });

    it('a row waiting on an identical row that fails is sent itself', async () => {
      const { clock, runner, service } = setup(['dup', 'dup'], (_s, n) => (n === 0 ? '422' : 'ok'), {
        model: 'model-1.13.0',
        pacing: { requestsPerMinute: 600_000, concurrency: 4, tokensPerSecond: 1e9 },
      });
      const end = await clock.runUntil(runner.run());
      expect(service.sends).toEqual(['dup', 'dup']);
      expect(end).toMatchObject({ invalid: 1, done: 1 });
    });
  });

  it('stops with a storage halt when progress cannot be saved, and sends nothing unsaved', async () => {
    const { clock, runner, store, service } = setup(['a', 'b'], () => 'ok');
    store.failNextSave = new Error('QuotaExceededError');
    const end = await clock.runUntil(runner.run());
    expect(end.halt?.reason).toBe('storage');
    expect(end.halt?.message).toMatch(/QuotaExceededError/);
    expect(service.sends).toEqual([]);
  });
});
