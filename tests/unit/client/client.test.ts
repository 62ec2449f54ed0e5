// The client against the real reference service over loopback HTTP, with injected faults.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import type { AttemptReport, CallOptions, ClientTarget, EvaluationErrorKind } from '../../../src/client';
import { EvaluationError, evaluate, listModels } from '../../../src/client';
import type { EvaluateRequest } from '../../../src/contract';
import { createReferenceApp } from '../../../src/server/reference/app';
import type { ReferenceOptions } from '../../../src/server/reference/options';
import { parseFaults } from '../../../src/server/reference/options';
import { serveReference } from '../../../src/server/reference/serve';
import { exampleRequest } from '../../helpers/fixtures';

const KEY = 'test-key';

const REQUEST: EvaluateRequest = exampleRequest();

type ServeOptions = Partial<ReferenceOptions>;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Starts the reference on an ephemeral loopback port; closed after the test. */
async function startReference(options: ServeOptions = {}): Promise<ClientTarget> {
  const server = await serveReference({ apiKeys: [KEY], port: 0, host: '127.0.0.1', ...options });
  closers.push(() => server.close());
  return { baseUrl: server.url, headers: { Authorization: `Bearer ${KEY}` } };
}

/**
 * Serves the real reference app over loopback behind a recording middleware (and an optional response rewrite), so a
 * test sees what reached the server.
 */
async function startRecordedReference(
  options: ServeOptions = {},
  rewrite?: (response: Response) => Promise<Response>,
): Promise<{ target: ClientTarget; seen: Headers[] }> {
  const reference = createReferenceApp({ apiKeys: [KEY], ...options });
  const seen: Headers[] = [];
  const outer = new Hono();
  outer.all('*', async (c) => {
    seen.push(new Headers(c.req.raw.headers));
    const response = await reference.fetch(c.req.raw, c.env);
    return rewrite ? rewrite(response) : response;
  });
  const server = serve({ fetch: outer.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    target: { baseUrl: `http://127.0.0.1:${port}`, headers: { Authorization: `Bearer ${KEY}` } },
    seen,
  };
}

/** Options that record every backoff sleep and every attempt, and sleep not at all. */
function recorder(extra: CallOptions = {}) {
  const sleeps: number[] = [];
  const reported: AttemptReport[] = [];
  const options: CallOptions = {
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    onAttempt: (a) => reported.push({ ...a }),
    ...extra,
  };
  return { sleeps, reported, options };
}

/** The EvaluationError a promise rejects with (fails the test if it resolves or throws something else). */
async function failure(promise: Promise<unknown>): Promise<EvaluationError> {
  const error = await promise.then(
    () => expect.unreachable('the call should have failed'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EvaluationError);
  return error as EvaluationError;
}

const outcomes = (attempts: AttemptReport[]) => attempts.map((a) => a.outcome);

describe('success', () => {
  it('evaluates the contract example with the resolved model, in one attempt', async () => {
    const target = await startReference();
    const { sleeps, reported, options } = recorder();
    const result = await evaluate(target, REQUEST, options);
    expect(result.response.model).toBe('model-1.13.0');
    expect(Object.keys(result.response.answers).sort()).toEqual(['department', 'frustration', 'is_urgent']);
    expect(result.response.answers.department?.type).toBe('choice');
    expect(result.response.usage.input_tokens).toBeGreaterThan(0);
    expect(outcomes(result.attempts)).toEqual([200]);
    expect(result.requestId).toMatch(/\S/);
    expect(result.attempts[0]!.requestId).toBe(result.requestId);
    expect(result.possiblyBilledAttempts).toBe(0);
    expect(reported).toEqual(result.attempts);
    expect(sleeps).toEqual([]);
  });

  it('pins a versioned id and reports it back unchanged', async () => {
    const target = await startReference();
    const result = await evaluate(target, { ...REQUEST, model: 'model-1.12.0' });
    expect(result.response.model).toBe('model-1.12.0');
  });

  it('lists the two aliases', async () => {
    const target = await startReference();
    const list = await listModels(target);
    expect(list.models.map((m) => m.name).sort()).toEqual(['model-latest', 'model-preview']);
  });

  it('works in-process through an injected transport, with no network hop', async () => {
    const app = createReferenceApp({ apiKeys: [KEY] });
    const target: ClientTarget = {
      baseUrl: 'http://reference.invalid',
      headers: { Authorization: `Bearer ${KEY}` },
      fetch: (input, init) => Promise.resolve(app.fetch(new Request(input, init))),
    };
    const result = await evaluate(target, REQUEST);
    expect(result.response.model).toBe('model-1.13.0');
  });
});

describe('failures that are never retried', () => {
  it('401: one attempt, a sentence about the key', async () => {
    const target = await startReference();
    const { sleeps, options } = recorder();
    const error = await failure(
      evaluate({ ...target, headers: { Authorization: 'Bearer wrong' } }, REQUEST, options),
    );
    expect(error.kind).toBe('auth');
    expect(error.status).toBe(401);
    expect(error.message).toContain('check the key for this target');
    expect(outcomes(error.attempts)).toEqual([401]);
    expect(error.requestId).toBe(error.attempts[0]!.requestId);
    expect(error.requestId).toMatch(/\S/);
    expect([error.retryable, error.possiblyBilled]).toEqual([false, false]);
    expect(sleeps).toEqual([]);
  });

  it('401 on the model list too, without a key', async () => {
    const target = await startReference();
    const error = await failure(listModels({ baseUrl: target.baseUrl }));
    expect(error.kind).toBe('auth');
    expect(error.attempts).toHaveLength(1);
  });

  it('422: one attempt, field errors located in the body', async () => {
    const target = await startReference();
    const { sleeps, options } = recorder();
    const bad = {
      ...REQUEST,
      questions: { ...REQUEST.questions, frustration: { type: 'score', criteria: ['Only one level'] } },
    } as unknown as EvaluateRequest;
    const error = await failure(evaluate(target, bad, options));
    expect(error.kind).toBe('validation');
    expect(error.status).toBe(422);
    expect(error.fieldErrors.map((e) => e.loc)).toContainEqual(['questions', 'frustration', 'criteria']);
    expect(error.message).toContain('questions.frustration.criteria');
    expect(outcomes(error.attempts)).toEqual([422]);
    expect(sleeps).toEqual([]);
  });

  it('404: a wrong evaluate path is not retried', async () => {
    const target = await startReference();
    const error = await failure(
      evaluate({ ...target, evaluatePath: '/v1/nothing' }, REQUEST, recorder().options),
    );
    expect([error.kind, error.status]).toEqual(['http', 404]);
    expect(error.attempts).toHaveLength(1);
    expect(error.message).toContain('evaluate path');
  });
});

describe('retried failures', () => {
  it('429 storm: three attempts, sleeping exactly the retry-after-ms asked for, then gives up', async () => {
    const target = await startReference({ faults: parseFaults('429=1'), faultRetryAfterMs: 120 });
    const { sleeps, reported, options } = recorder({ random: () => 0.9 });
    const error = await failure(evaluate(target, REQUEST, options));
    expect(error.kind).toBe('rate_limited');
    expect(error.status).toBe(429);
    expect(outcomes(error.attempts)).toEqual([429, 429, 429]);
    expect(sleeps).toEqual([120, 120]);
    expect(error.attempts.map((a) => a.retryInMs)).toEqual([120, 120, undefined]);
    expect(error.message).toContain('retried 2 times, then gave up');
    expect([error.retryable, error.possiblyBilled]).toEqual([true, false]);
    expect(reported).toEqual(error.attempts);
    // Every attempt got its own request id.
    expect(new Set(error.attempts.map((a) => a.requestId)).size).toBe(3);
  });

  it('529 storm: likewise, and a 5xx counts as possibly billed', async () => {
    const target = await startReference({ faults: parseFaults('529=1'), faultRetryAfterMs: 40 });
    const { sleeps, options } = recorder();
    const error = await failure(evaluate(target, REQUEST, options));
    expect(error.kind).toBe('overloaded');
    expect(outcomes(error.attempts)).toEqual([529, 529, 529]);
    expect(sleeps).toEqual([40, 40]);
    expect(error.message).toContain('retried 2 times, then gave up');
    expect(error.possiblyBilled).toBe(true);
  });

  it('without retry headers, sleeps the jittered exponential backoff', async () => {
    const target = await startReference({ faults: parseFaults('429=1'), faultRetryAfterMs: 0 });
    const draws = [0.2, 0.6];
    const { sleeps, options } = recorder({
      random: () => draws.shift() ?? expect.unreachable('one draw per retry'),
    });
    const error = await failure(evaluate(target, REQUEST, options));
    expect(error.attempts).toHaveLength(3);
    // min(500 * 2^k, 5000) * (1 - r * 0.25)
    expect(sleeps).toEqual([500 * (1 - 0.2 * 0.25), 1000 * (1 - 0.6 * 0.25)]);
  });

  it('maxRetries bounds the attempts', async () => {
    const target = await startReference({ faults: parseFaults('429=1'), faultRetryAfterMs: 10 });
    const { sleeps, options } = recorder({ maxRetries: 0 });
    const error = await failure(evaluate(target, REQUEST, options));
    expect(error.attempts).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(error.message).toContain('not retried');
  });

  it('reset: a network error after three attempts, possibly billed', async () => {
    const target = await startReference({ faults: parseFaults('reset=1') });
    const { sleeps, options } = recorder({ random: () => 0 });
    const error = await failure(evaluate(target, REQUEST, options));
    expect(error.kind).toBe('network');
    expect(outcomes(error.attempts)).toEqual(['network', 'network', 'network']);
    expect(sleeps).toEqual([500, 1000]);
    expect(error.possiblyBilled).toBe(true);
    expect(error.retryable).toBe(true);
  });

  it('refused connection: a network error that cannot have been billed', async () => {
    const target = await startReference();
    await closers.pop()!();
    const { options } = recorder();
    const error = await failure(evaluate(target, REQUEST, options));
    expect(error.kind).toBe('network');
    expect(error.attempts).toHaveLength(3);
    expect(error.possiblyBilled).toBe(false);
    expect(error.message).toContain(target.baseUrl);
  });

  it('timeout: each attempt gives up after timeoutMs; the result is unknown and possibly billed', async () => {
    const target = await startReference({ faults: parseFaults('timeout=1'), timeoutHoldMs: 5_000 });
    const { sleeps, options } = recorder({ timeoutMs: 200, random: () => 0 });
    const error = await failure(evaluate(target, REQUEST, options));
    expect(error.kind).toBe('timeout');
    expect(outcomes(error.attempts)).toEqual(['timeout', 'timeout', 'timeout']);
    expect(sleeps).toEqual([500, 1000]);
    expect(error.possiblyBilled).toBe(true);
    expect(error.message).toContain('may have run and been billed');
  });

  it('timeout also stops an in-process transport that ignores the abort signal', async () => {
    const app = createReferenceApp({
      apiKeys: [KEY],
      faults: parseFaults('timeout=1'),
      timeoutHoldMs: 1_000,
    });
    const target: ClientTarget = {
      baseUrl: 'http://reference.invalid',
      headers: { Authorization: `Bearer ${KEY}` },
      fetch: (input, init) => Promise.resolve(app.fetch(new Request(input, { ...init, signal: null }))),
    };
    const error = await failure(
      evaluate(target, REQUEST, recorder({ timeoutMs: 100, maxRetries: 0 }).options),
    );
    expect(error.kind).toBe('timeout');
  });

  it('the per-attempt timeout covers a response body that stalls', async () => {
    const { target } = await startRecordedReference({}, async (response) => {
      const text = await response.text();
      // Headers and the first bytes arrive; the rest never does.
      const stalled = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode(text.slice(0, 10))),
      });
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      return new Response(stalled, { status: response.status, headers });
    });
    const { sleeps, options } = recorder({ timeoutMs: 200, maxRetries: 1, random: () => 0 });
    const error = await failure(evaluate(target, REQUEST, options));
    expect(error.kind).toBe('timeout');
    expect(outcomes(error.attempts)).toEqual(['timeout', 'timeout']);
    expect(error.attempts[0]!.requestId).toMatch(/\S/);
    expect(sleeps).toEqual([500]);
  });

  it('sends X-Retry-Count on retry N and not on the first attempt', async () => {
    const { target, seen } = await startRecordedReference({
      faults: parseFaults('429=1'),
      faultRetryAfterMs: 5,
    });
    await failure(evaluate(target, REQUEST, recorder().options));
    expect(seen.map((h) => h.get('x-retry-count'))).toEqual([null, '1', '2']);
    expect(seen.every((h) => h.get('content-type') === 'application/json')).toBe(true);
  });

  it('a 200 whose answers do not match the questions is a bad response, not retried', async () => {
    const { target, seen } = await startRecordedReference({}, async (response) => {
      const body = (await response.json()) as { answers: Record<string, unknown> };
      delete body.answers.frustration;
      return Response.json(body, { status: response.status, headers: response.headers });
    });
    const error = await failure(evaluate(target, REQUEST, recorder().options));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toContain('No answer came back for "frustration"');
    expect(error.possiblyBilled).toBe(true);
    expect(seen).toHaveLength(1);
  });
});

describe('cancellation', () => {
  it('a signal aborted before the call sends nothing', async () => {
    const { target, seen } = await startRecordedReference();
    const controller = new AbortController();
    controller.abort();
    const error = await failure(evaluate(target, REQUEST, { signal: controller.signal }));
    expect(error.kind).toBe('cancelled');
    expect(error.attempts).toEqual([]);
    expect(seen).toEqual([]);
  });

  it('aborting during a request stops it at once', async () => {
    // The server holds the answer far longer than the test may run: only the abort can end the call.
    const target = await startReference({ faults: parseFaults('timeout=1'), timeoutHoldMs: 60_000 });
    const controller = new AbortController();
    const { sleeps, options } = recorder({ signal: controller.signal, timeoutMs: 60_000 });
    const pending = evaluate(target, REQUEST, options);
    setTimeout(() => controller.abort(), 50);
    const error = await failure(pending);
    expect(error.kind).toBe('cancelled');
    expect(outcomes(error.attempts)).toEqual(['cancelled']);
    expect(error.possiblyBilled).toBe(true);
    expect(error.retryable).toBe(false);
    expect(sleeps).toEqual([]);
  });

  it('aborting during a backoff sleep stops at once, even if the sleep ignores the signal', async () => {
    const target = await startReference({ faults: parseFaults('429=1'), faultRetryAfterMs: 30_000 });
    const controller = new AbortController();
    const sleeps: number[] = [];
    const error = await failure(
      evaluate(target, REQUEST, {
        signal: controller.signal,
        sleep: (ms) => {
          sleeps.push(ms);
          controller.abort();
          return new Promise<void>(() => {});
        },
      }),
    );
    expect(error.kind).toBe('cancelled');
    expect(sleeps).toEqual([30_000]);
    expect(outcomes(error.attempts)).toEqual([429]);
    expect(error.attempts[0]!.retryInMs).toBe(30_000);
  });

  it('the default sleep wakes on abort', async () => {
    const target = await startReference({ faults: parseFaults('429=1'), faultRetryAfterMs: 30_000 });
    const controller = new AbortController();
    const pending = evaluate(target, REQUEST, {
      signal: controller.signal,
      onAttempt: (a) => {
        if (a.retryInMs !== undefined) setTimeout(() => controller.abort(), 20);
      },
    });
    const error = await failure(pending);
    expect(error.kind).toBe('cancelled');
    expect(error.attempts).toHaveLength(1);
  });
});

describe('a seeded fault mix', () => {
  it('every call ends in a success or a typed error, never a hang', async () => {
    const target = await startReference({
      faults: parseFaults('429=0.3,529=0.2'),
      seed: 7,
      faultRetryAfterMs: 5,
    });
    const expectedKinds: EvaluationErrorKind[] = ['rate_limited', 'overloaded'];
    let successes = 0;
    let retriedSuccesses = 0;
    let failures = 0;
    for (let i = 0; i < 40; i++) {
      const { sleeps, options } = recorder();
      try {
        const result = await evaluate(target, REQUEST, options);
        successes++;
        if (result.attempts.length > 1) retriedSuccesses++;
        expect(result.response.model).toBe('model-1.13.0');
        expect(outcomes(result.attempts).at(-1)).toBe(200);
        expect(sleeps).toEqual(result.attempts.slice(0, -1).map(() => 5));
      } catch (e) {
        failures++;
        expect(e).toBeInstanceOf(EvaluationError);
        const error = e as EvaluationError;
        expect(expectedKinds).toContain(error.kind);
        expect(error.attempts).toHaveLength(3);
      }
    }
    expect(successes + failures).toBe(40);
    // With half the attempts failing, a seeded run of 40 calls meets all three endings.
    expect(successes).toBeGreaterThan(0);
    expect(retriedSuccesses).toBeGreaterThan(0);
    expect(failures).toBeGreaterThan(0);
  });
});
