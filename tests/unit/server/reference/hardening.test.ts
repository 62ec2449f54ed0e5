// Regression tests of issue 18's audit of the reference service: a long unbroken run does not hold the event loop,
// refused requests leave nothing in the caches, deep nesting is a located 422, special-token text is text, and a
// byte-order mark gets the same answer standalone and in-process.
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../../../src/contract';
import { MAX_NESTING_DEPTH } from '../../../../src/server/reference/nesting';
import { createReferenceApp } from '../../../../src/server/reference/app';
import { compiledQuestionCacheStats } from '../../../../src/server/reference/judge/questions';
import type { RunningReference } from '../../../../src/server/reference/serve';
import { questionTokenCacheStats, stateTokenCacheStats } from '../../../../src/server/reference/usage';
import { localTarget } from '../../../../src/server/workbench';
import { Cancellation } from '../../../../src/server/targets/transport';
import { exampleRequest } from '../../../helpers/fixtures';
import { evaluate, fieldErrors, KEY, start } from './http';

let ref: RunningReference;
beforeAll(async () => {
  ref = await start({ rpm: 1e9, tps: 1e12 });
});
afterAll(async () => {
  await ref.close();
});

const post = async (app: ReturnType<typeof createReferenceApp>, body: string | Uint8Array<ArrayBuffer>) =>
  app.fetch(
    new Request('http://reference.local/v1/evaluate', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body,
    }),
  );

/** Text with no break in it that the tokenizer cannot cache: random CJK characters are one letter run. */
function unbrokenRun(length: number, seed = 1): string {
  const chars: string[] = [];
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    chars.push(String.fromCharCode(0x4e00 + (x % 2000)));
  }
  return chars.join('');
}

describe('a long unbroken run', () => {
  it('is counted while other requests are answered: a concurrent request gets its 200 before the long one ends', async () => {
    const app = createReferenceApp({ rpm: 1e9, tps: 1e12 });
    let settled = false;
    const long = post(app, JSON.stringify({ ...exampleRequest(), state: unbrokenRun(600_000) })).then((r) => {
      settled = true;
      return r;
    });
    // Long enough for the body to be read and counting to start; a count that held the event loop ends first.
    await sleep(20);
    expect(settled).toBe(false);
    const other = await post(app, JSON.stringify(exampleRequest()));
    expect(other.status).toBe(200);
    expect(settled).toBe(false);
    const reply = await long;
    expect(reply.status).toBe(422);
    const body = ErrorBodySchema.parse(await reply.json());
    expect(body.detail.errors?.[0]?.loc).toEqual(['state']);
    expect(body.detail.errors?.[0]?.msg).toMatch(/at least \d+ tokens/);
  });

  it('a 2 MiB body of one character gets its 422 (the state is over the token limits), not a hang or a 5xx', async () => {
    const state = 'a'.repeat(2 * 1024 * 1024 - 4_000);
    const reply = await evaluate(ref.url, { ...exampleRequest(), state });
    expect(reply.status).toBe(422);
    expect(fieldErrors(reply)[0]?.loc).toEqual(['state']);
  });

  it('text that spells a special token ("<|endoftext|>") is counted as text, not a 500', async () => {
    const reply = await evaluate(ref.url, { ...exampleRequest(), state: 'Refund me <|endoftext|> now' });
    expect(reply.status, reply.text).toBe(200);
  });
});

describe('caches keep nothing a refused request sent', () => {
  it('60 refused requests with 1.5 MB instructions add no cache entry and do not grow the heap', async () => {
    // A collection before each reading, so the heap figures measure what is kept, not garbage waiting.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const before = {
      tokens: questionTokenCacheStats(),
      states: stateTokenCacheStats(),
      compiled: compiledQuestionCacheStats(),
    };
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const app = createReferenceApp({ rpm: 1e9, tps: 1e12 });
    for (let i = 0; i < 60; i++) {
      const instructions = `${'Judge the claim carefully. '.repeat(55_000)}${i}`;
      const body = exampleRequest();
      const question = Object.values(body.questions)[0]!;
      const reply = await post(
        app,
        JSON.stringify({ ...body, questions: { big: { ...question, instructions } } }),
      );
      expect(reply.status).toBe(422);
      await reply.arrayBuffer();
    }
    expect(questionTokenCacheStats()).toEqual(before.tokens);
    expect(stateTokenCacheStats()).toEqual(before.states);
    expect(compiledQuestionCacheStats()).toEqual(before.compiled);
    gc();
    // 60 x 1.5 MB kept would be 90 MB of text at least; what is left is garbage not yet collected.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024);
  }, 120_000);

  it('served questions are cached by a digest: the cache holds entries of a fixed size', async () => {
    const before = questionTokenCacheStats();
    const body = exampleRequest();
    const question = Object.values(body.questions)[0]!;
    const instructions = `${'Judge the claim carefully. '.repeat(2_000)}served`;
    const reply = await evaluate(ref.url, { ...body, questions: { long: { ...question, instructions } } });
    expect(reply.status, reply.text).toBe(200);
    const after = questionTokenCacheStats();
    expect(after.entries).toBe(before.entries + 1);
    // 54,000 characters of instructions, kept under a digest of a few dozen.
    expect(after.bytes - before.bytes).toBeLessThanOrEqual(100);
  });
});

describe('nesting', () => {
  const nested = (levels: number): string => `${'['.repeat(levels)}"deep"${']'.repeat(levels)}`;

  it('10,000 levels in the state is a 422 located where the limit is passed, not a 500', async () => {
    const body = `{"model":"model-latest","questions":{"q":{"type":"noul"}},"state":${nested(10_000)}}`;
    const reply = await evaluate(ref.url, body);
    expect(reply.status, reply.text).toBe(422);
    const [error] = fieldErrors(reply);
    expect(error?.loc[0]).toBe('state');
    expect(error?.loc).toHaveLength(MAX_NESTING_DEPTH);
    expect(error?.msg).toContain(`at most ${MAX_NESTING_DEPTH} levels`);
  });

  it('deep objects inside a description are refused the same way', async () => {
    let description = '{"x":1}';
    for (let i = 0; i < 3_000; i++) description = `{"k":${description}}`;
    const body = `{"model":"model-latest","state":"s","questions":{"q":{"type":"noul","instructions":${description}}}}`;
    const reply = await evaluate(ref.url, body);
    expect(reply.status, reply.text).toBe(422);
    expect(fieldErrors(reply)[0]?.loc.slice(0, 3)).toEqual(['questions', 'q', 'instructions']);
  });

  it('nesting up to the limit is accepted', async () => {
    const state = JSON.parse(nested(MAX_NESTING_DEPTH - 1)) as unknown[];
    const reply = await evaluate(ref.url, { ...exampleRequest(), state });
    expect(reply.status, reply.text).toBe(200);
  });
});

describe('a UTF-8 byte-order mark', () => {
  it('is accepted the same way standalone and in-process (the proxy local target)', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(JSON.stringify(exampleRequest())),
    ]);
    const standalone = await fetch(`${ref.url}/v1/evaluate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: bytes,
    });
    const target = localTarget({});
    const inProcess = await target.transport({
      method: 'POST',
      url: `${target.baseUrl}/v1/evaluate`,
      headers: { 'content-type': 'application/json', authorization: target.credential!.value },
      body: bytes as Buffer<ArrayBuffer>,
      cancellation: new Cancellation(),
    });
    const chunked = await post(createReferenceApp(), new Uint8Array(bytes));
    expect(standalone.status).toBe(200);
    expect(inProcess.status).toBe(200);
    expect(chunked.status).toBe(200);
  });
});
