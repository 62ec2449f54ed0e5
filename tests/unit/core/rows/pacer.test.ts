import { describe, expect, it } from 'vitest';
import type { EvaluateRequest, EvaluateResponse } from '../../../../src/contract';
import type { CallOptions, ClientTarget, EvaluateResult } from '../../../../src/client';
import { CATCH_UP_SENDS, Gate, Pacer, RateMeter, pacedDurationMs } from '../../../../src/core/rows/pacer';
import type { PlannedRow } from '../../../../src/core/rows/runPlan';
import { RowRunner } from '../../../../src/core/rows/runner';
import { ManualClock } from './manualClock';
import { MemoryStore } from './memoryStore';

const pacing = (requestsPerMinute: number, concurrency: number, tokensPerSecond = 250_000) => ({
  requestsPerMinute,
  concurrency,
  tokensPerSecond,
});

/** Moves the manual clock to `to` ms. */
async function advance(clock: ManualClock, to: number): Promise<void> {
  void clock.sleep(to - clock.now());
  await clock.step();
}

describe('Pacer', () => {
  it('spaces requests evenly at the configured rate', () => {
    const clock = new ManualClock();
    const pacer = new Pacer(pacing(600, 4), clock);
    expect([0, 0, 0, 0].map(() => pacer.reserve(10))).toEqual([0, 100, 200, 300]);
  });

  it('holds the input-token rate: a large request pushes the next one back by tokens/tps', () => {
    const clock = new ManualClock();
    const pacer = new Pacer(pacing(6000, 4, 1000), clock);
    expect(pacer.reserve(500)).toBe(0); // next by tokens at 500 ms, by requests at 10 ms
    expect(pacer.reserve(100)).toBe(500);
    expect(pacer.reserve(10)).toBe(600);
    expect(pacer.reserve(10)).toBe(610);
    expect(pacer.reserve(10)).toBe(620);
  });

  it('catches up a short stall, but never more than a few sends after an idle spell', async () => {
    const clock = new ManualClock();
    const pacer = new Pacer(pacing(600, 4), clock);
    expect(pacer.reserve(0)).toBe(0);
    expect(pacer.reserve(0)).toBe(100);
    // The next send is 30 ms late (a stall): the one after keeps the original schedule.
    await advance(clock, 230);
    expect(pacer.reserve(0)).toBe(230);
    expect(pacer.reserve(0)).toBe(300);
    // Idle for 5 s: at most CATCH_UP_SENDS sends go early, then the even spacing is back.
    await advance(clock, 5000);
    const times = Array.from({ length: CATCH_UP_SENDS + 3 }, () => pacer.reserve(0));
    expect(times).toEqual([5000, 5000, 5000, 5000, 5000, 5000, 5100, 5200]);
    pacer.holdUntil(7000);
    expect(pacer.reserve(0)).toBe(7000);
    expect(pacer.reserve(0)).toBe(7100);
  });

  it('applies new settings from the next reservation', () => {
    const clock = new ManualClock();
    const pacer = new Pacer(pacing(600, 4), clock);
    expect(pacer.reserve(0)).toBe(0);
    pacer.update(pacing(60, 4));
    expect(pacer.reserve(0)).toBe(100);
    expect(pacer.reserve(0)).toBe(1100);
  });

  it('estimates a paced duration from the tighter of the two rates', () => {
    expect(pacedDurationMs(1001, 10, pacing(1200, 4))).toBe(50_000);
    expect(pacedDurationMs(11, 1000, pacing(6000, 4, 1000))).toBe(10_000);
  });
});

describe('Gate', () => {
  it('lets at most `limit` holders in, in arrival order', async () => {
    const gate = new Gate(2);
    const order: number[] = [];
    await gate.acquire();
    await gate.acquire();
    const third = gate.acquire().then(() => order.push(3));
    const fourth = gate.acquire().then(() => order.push(4));
    await Promise.resolve();
    expect(order).toEqual([]);
    gate.release();
    await third;
    expect(order).toEqual([3]);
    expect(gate.inUse).toBe(2);
    gate.setLimit(3);
    await fourth;
    expect(order).toEqual([3, 4]);
  });
});

describe('RateMeter', () => {
  it('reports sends per minute over the last window', () => {
    const meter = new RateMeter(10_000);
    for (let t = 0; t < 20_000; t += 50) meter.record(t);
    expect(meter.perMinute(19_999)).toBeCloseTo(1200, 0);
    expect(meter.perMinute(40_000)).toBe(0);
  });
});

/** A service on the manual clock: each request takes `latency` ms and is answered. */
function fakeService(clock: ManualClock, latency: number) {
  const sends: { at: number; state: unknown }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const evaluate = async (
    _t: ClientTarget,
    request: EvaluateRequest,
    options: CallOptions,
  ): Promise<EvaluateResult> => {
    sends.push({ at: clock.now(), state: request.state });
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await clock.sleep(latency, options.signal);
    } finally {
      inFlight--;
    }
    const response: EvaluateResponse = {
      model: 'model-1.13.0',
      answers: { q: { type: 'noul', noul: 0.5 } },
      usage: { input_tokens: 10 },
    };
    return {
      response,
      attempts: [{ attempt: 0, outcome: 200, durationMs: latency }],
      latencyMs: latency,
      possiblyBilledAttempts: 0,
    };
  };
  return { evaluate, sends, maxInFlight: () => maxInFlight };
}

const rowsOf = (n: number, tokens = 10): PlannedRow[] =>
  Array.from({ length: n }, (_, i) => ({
    number: i + 1,
    line: i + 2,
    id: String(i + 1),
    state: `row ${i + 1}`,
    tokens,
  }));

const keyOf = async (id: { state: unknown; model: string }) => `${id.model}:${JSON.stringify(id.state)}`;

describe('RowRunner pacing on a manual clock', () => {
  const input = (rows: PlannedRow[], p: ReturnType<typeof pacing>) => ({
    targetId: 'local',
    target: { baseUrl: 'http://unused' },
    model: 'model-latest',
    questions: { q: { type: 'noul' as const, instructions: 'Yes?' } },
    rows,
    pacing: p,
    maxCost: null,
  });

  it('sends at the exact times rate and concurrency allow', async () => {
    const clock = new ManualClock();
    const service = fakeService(clock, 250);
    const runner = new RowRunner(input(rowsOf(8), pacing(600, 2)), {
      evaluate: service.evaluate,
      clock,
      store: new MemoryStore(),
      keyOf,
    });
    const end = await clock.runUntil(runner.run());
    // 100 ms apart by rate; a third request waits for a free place (250 ms latency, 2 at once).
    expect(service.sends.map((s) => s.at)).toEqual([0, 100, 250, 350, 500, 600, 750, 850]);
    expect(service.maxInFlight()).toBe(2);
    expect(end).toMatchObject({ phase: 'finished', done: 8, pending: 0 });
  });

  it('is bound by the rate alone when latency is short', async () => {
    const clock = new ManualClock();
    const service = fakeService(clock, 5);
    const runner = new RowRunner(input(rowsOf(6), pacing(1200, 4)), {
      evaluate: service.evaluate,
      clock,
      store: new MemoryStore(),
      keyOf,
    });
    await clock.runUntil(runner.run());
    expect(service.sends.map((s) => s.at)).toEqual([0, 50, 100, 150, 200, 250]);
  });

  it('is bound by the token rate when rows are large', async () => {
    const clock = new ManualClock();
    const service = fakeService(clock, 5);
    const runner = new RowRunner(input(rowsOf(4, 2000), pacing(6000, 4, 8000)), {
      evaluate: service.evaluate,
      clock,
      store: new MemoryStore(),
      keyOf,
    });
    await clock.runUntil(runner.run());
    expect(service.sends.map((s) => s.at)).toEqual([0, 250, 500, 750]);
  });

  it('never has more requests in flight than the concurrency, however fast the rate', async () => {
    const clock = new ManualClock();
    const service = fakeService(clock, 1000);
    const runner = new RowRunner(input(rowsOf(12), pacing(600_000, 3)), {
      evaluate: service.evaluate,
      clock,
      store: new MemoryStore(),
      keyOf,
    });
    await clock.runUntil(runner.run());
    expect(service.maxInFlight()).toBe(3);
    expect(service.sends.map((s) => s.at)).toEqual(
      [0, 0.1, 0.2, 1000, 1000.1, 1000.2, 2000, 2000.1, 2000.2, 3000, 3000.1, 3000.2].map((t) =>
        expect.closeTo(t, 6),
      ),
    );
  });

  it('reports the current rate and an ETA while running', async () => {
    const clock = new ManualClock();
    const service = fakeService(clock, 5);
    const runner = new RowRunner(input(rowsOf(100), pacing(1200, 4)), {
      evaluate: service.evaluate,
      clock,
      store: new MemoryStore(),
      keyOf,
    });
    const done = runner.run();
    while (clock.now() < 2000) await clock.step();
    const mid = runner.progress();
    expect(mid.ratePerMinute).toBeCloseTo(1200, -1);
    // ~59 rows left at 1200/min: about 3 s.
    expect(mid.etaMs).toBeGreaterThan(2500);
    expect(mid.etaMs).toBeLessThan(3500);
    await clock.runUntil(done);
    expect(runner.progress().etaMs).toBeNull();
  });
});
