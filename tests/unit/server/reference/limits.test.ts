// Rate limits, overload and injected faults of the reference service, over loopback HTTP and in-process.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBodySchema } from '../../../../src/contract';
import { requestTokens } from '../../../../src/contract/tokens';
import { ConnectionResetError, createReferenceApp } from '../../../../src/server/reference/app';
import { seededRandom as mulberry32 } from '../../../../src/contract/random';
import { parseFaults } from '../../../../src/server/reference/options';
import type { RunningReference } from '../../../../src/server/reference/serve';
import { exampleRequest } from '../../../helpers/fixtures';
import type { Reply } from './http';
import { evaluate, KEY, start } from './http';

const running: RunningReference[] = [];
const serve = async (options: Parameters<typeof start>[0]) => {
  const ref = await start(options);
  running.push(ref);
  return ref;
};
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

const retryAfter = (reply: Reply) => ({
  ms: reply.headers.get('retry-after-ms'),
  s: reply.headers.get('retry-after'),
});
const errorType = (reply: Reply) => ErrorBodySchema.parse(reply.json).detail.error_type;

/** A fake clock the buckets read. */
function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** The first seed whose fault draws (one per request, no latency range) are `timeout` then `rest` non-faults. */
function seedWithTimeoutThenQuiet(pTimeout: number, rest: number): number {
  for (let seed = 1; seed < 100_000; seed++) {
    const random = mulberry32(seed);
    if (random() >= pTimeout) continue;
    if (Array.from({ length: rest }, () => random()).every((u) => u >= pTimeout)) return seed;
  }
  throw new Error('no such seed');
}

const inProcess = async (app: ReturnType<typeof createReferenceApp>, body: unknown, signal?: AbortSignal) =>
  app.fetch(
    new Request('http://reference.local/v1/evaluate', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    }),
  );

describe('429: per-key token buckets with a truthful Retry-After', () => {
  it('the request bucket: a burst beyond rpm is refused, and a retry after retry-after-ms succeeds', async () => {
    const clock = fakeClock();
    const ref = await serve({ rpm: 3, now: clock.now });
    for (let i = 0; i < 3; i++) expect((await evaluate(ref.url, exampleRequest())).status).toBe(200);
    const refused = await evaluate(ref.url, exampleRequest());
    expect(refused.status).toBe(429);
    expect(errorType(refused)).toBe('rate_limit');
    // 3 per minute refill one request every 20 s.
    expect(retryAfter(refused)).toEqual({ ms: '20000', s: '20' });

    clock.advance(19_999);
    const early = await evaluate(ref.url, exampleRequest());
    expect(early.status).toBe(429);
    expect(retryAfter(early)).toEqual({ ms: '1', s: '1' });
    clock.advance(1);
    expect((await evaluate(ref.url, exampleRequest())).status).toBe(200);
  });

  it('the input-token bucket: Retry-After is the time to refill what this request needs', async () => {
    const clock = fakeClock();
    const tokens = requestTokens(exampleRequest()).total;
    const tps = tokens + 10;
    const ref = await serve({ tps, now: clock.now });
    expect((await evaluate(ref.url, exampleRequest())).status).toBe(200);
    const refused = await evaluate(ref.url, exampleRequest());
    expect(refused.status).toBe(429);
    // 10 tokens left; `tokens - 10` more at tps per second.
    const ms = Math.ceil(((tokens - 10) / tps) * 1000);
    expect(retryAfter(refused)).toEqual({ ms: String(ms), s: String(Math.ceil(ms / 1000)) });
    clock.advance(ms);
    expect((await evaluate(ref.url, exampleRequest())).status).toBe(200);
  });

  it('a request larger than the token bucket is served when the bucket is full, not refused forever', async () => {
    const clock = fakeClock();
    const tokens = requestTokens(exampleRequest()).total;
    const tps = Math.floor(tokens / 2);
    const ref = await serve({ tps, now: clock.now });
    expect((await evaluate(ref.url, exampleRequest())).status).toBe(200);
    const refused = await evaluate(ref.url, exampleRequest());
    expect(refused.status).toBe(429);
    // It left a debt of (tokens - tps); the bucket must climb back to full: tokens / tps seconds in all.
    const ms = Number(retryAfter(refused).ms);
    expect(ms).toBe(Math.ceil((tokens / tps) * 1000));
    clock.advance(ms);
    expect((await evaluate(ref.url, exampleRequest())).status).toBe(200);
  });

  it('limits are per key: one key spent does not refuse another', async () => {
    const clock = fakeClock();
    const ref = await serve({ rpm: 1, apiKeys: [KEY, 'other'], now: clock.now });
    expect((await evaluate(ref.url, exampleRequest())).status).toBe(200);
    expect((await evaluate(ref.url, exampleRequest())).status).toBe(429);
    expect((await evaluate(ref.url, exampleRequest(), { key: 'other' })).status).toBe(200);
  });

  it('refused requests and invalid ones spend nothing', async () => {
    const clock = fakeClock();
    const ref = await serve({ rpm: 2, now: clock.now });
    for (let i = 0; i < 5; i++)
      expect((await evaluate(ref.url, { ...exampleRequest(), model: 'nope' })).status).toBe(422);
    expect((await evaluate(ref.url, exampleRequest())).status).toBe(200);
    expect((await evaluate(ref.url, exampleRequest())).status).toBe(200);
    const first = await evaluate(ref.url, exampleRequest());
    const second = await evaluate(ref.url, exampleRequest());
    expect([first.status, second.status]).toEqual([429, 429]);
    // The second refusal asks for the same wait: refusing did not dig the bucket deeper.
    expect(retryAfter(second)).toEqual(retryAfter(first));
  });
});

describe('529: more evaluations in flight than allowed', () => {
  it('answers 529 with retry headers while the limit is taken, and serves again after', async () => {
    const ref = await serve({
      maxInflight: 1,
      faults: parseFaults('latency=300-300'),
      faultRetryAfterMs: 250,
    });
    const slow = evaluate(ref.url, exampleRequest());
    // Poll until the slow request holds the only slot: the overload answer proves it.
    let overloaded: Reply | undefined;
    await vi.waitFor(async () => {
      overloaded = await evaluate(ref.url, exampleRequest());
      expect(overloaded.status).toBe(529);
    });
    expect(errorType(overloaded!)).toBe('overloaded');
    expect(retryAfter(overloaded!)).toEqual({ ms: '250', s: '1' });
    expect((await slow).status).toBe(200);
    expect((await evaluate(ref.url, exampleRequest())).status).toBe(200);
  });
});

describe('injected faults', () => {
  const statuses = async (app: ReturnType<typeof createReferenceApp>, n: number): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await inProcess(app, exampleRequest())).status);
    return out;
  };

  it('are reproducible by seed and differ between seeds', async () => {
    const faults = parseFaults('429=0.3,529=0.3');
    const a = await statuses(createReferenceApp({ faults, seed: 7 }), 40);
    const b = await statuses(createReferenceApp({ faults, seed: 7 }), 40);
    const c = await statuses(createReferenceApp({ faults, seed: 8 }), 40);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    expect(new Set(a)).toEqual(new Set([200, 429, 529]));
  });

  it('429 and 529 carry faultRetryAfterMs, or no retry headers when it is 0', async () => {
    const ref = await serve({ faults: parseFaults('429=1'), faultRetryAfterMs: 1500 });
    const r429 = await evaluate(ref.url, exampleRequest());
    expect(r429.status).toBe(429);
    expect(retryAfter(r429)).toEqual({ ms: '1500', s: '2' });
    const quiet = createReferenceApp({ faults: parseFaults('529=1'), faultRetryAfterMs: 0 });
    const r529 = await inProcess(quiet, exampleRequest());
    expect(r529.status).toBe(529);
    expect(r529.headers.get('retry-after-ms')).toBeNull();
    expect(r529.headers.get('retry-after')).toBeNull();
    expect(r529.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('come after auth and validation: a 401 stays a 401 and a 422 stays a 422', async () => {
    const app = createReferenceApp({ faults: parseFaults('529=1') });
    expect((await inProcess(app, { ...exampleRequest(), model: 'model-1.13' })).status).toBe(422);
    const noKey = await app.fetch(new Request('http://x/v1/evaluate', { method: 'POST', body: '{}' }));
    expect(noKey.status).toBe(401);
    expect((await inProcess(app, exampleRequest())).status).toBe(529);
  });

  it('a reset is a connection error for a client over HTTP', async () => {
    const ref = await serve({ faults: parseFaults('reset=1') });
    await expect(evaluate(ref.url, exampleRequest())).rejects.toThrow(TypeError);
  });

  it('a reset rejects the in-process caller as fetch would, not with a 5xx', async () => {
    const app = createReferenceApp({ faults: parseFaults('reset=1') });
    const error = await inProcess(app, exampleRequest()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionResetError);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as ConnectionResetError).code).toBe('ECONNRESET');
  });

  it('a timeout holds the response until the hold ends, then the evaluation is answered', async () => {
    const app = createReferenceApp({ faults: parseFaults('timeout=1'), timeoutHoldMs: 50 });
    const reply = await inProcess(app, exampleRequest());
    expect(reply.status).toBe(200);
  });

  it('a held timeout ends when the in-process caller aborts, and frees its in-flight slot', async () => {
    const seed = seedWithTimeoutThenQuiet(0.5, 1);
    const app = createReferenceApp({
      faults: parseFaults('timeout=0.5'),
      seed,
      maxInflight: 1,
      timeoutHoldMs: 60_000,
    });
    const controller = new AbortController();
    const held = inProcess(app, exampleRequest(), controller.signal);
    controller.abort();
    await expect(held).rejects.toMatchObject({ name: 'AbortError' });
    expect((await inProcess(app, exampleRequest())).status).toBe(200);
  });

  it('a held timeout ends when an HTTP client gives up, and frees its in-flight slot', async () => {
    const seed = seedWithTimeoutThenQuiet(0.5, 8);
    const ref = await serve({
      faults: parseFaults('timeout=0.5'),
      seed,
      maxInflight: 1,
      timeoutHoldMs: 60_000,
    });
    const controller = new AbortController();
    const held = evaluate(ref.url, exampleRequest(), { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(held).rejects.toMatchObject({ name: 'AbortError' });
    // The server learns of the abort when the socket closes; until then the slot may still be taken (529).
    await vi.waitFor(async () => expect((await evaluate(ref.url, exampleRequest())).status).toBe(200));
  });

  it('closing the server does not wait for held requests', async () => {
    const ref = await start({ faults: parseFaults('timeout=1'), timeoutHoldMs: 60_000 });
    const held = evaluate(ref.url, exampleRequest()).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    await ref.close();
    expect(await held).toBeInstanceOf(TypeError);
  });
});
