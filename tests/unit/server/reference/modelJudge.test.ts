// The model judge through the real llama.cpp engine (node-llama-cpp) on a tiny GGUF written by the test: the answers
// are meaningless, but every shape, formula, limit, error, cancellation and shutdown path runs for real.
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate as clientEvaluate, listModels } from '../../../../src/client';
import type { EvaluateRequest } from '../../../../src/contract';
import {
  choiceConfidence,
  classifyModelId,
  EvaluateResponseSchema,
  expectedScore,
  ModelListSchema,
  responseMismatches,
  round2,
  scoreConfidence,
} from '../../../../src/contract';
import { createReferenceApp } from '../../../../src/server/reference/app';
import type { ModelJudge } from '../../../../src/server/reference/modelJudge/engine';
import { createModelJudge } from '../../../../src/server/reference/modelJudge/engine';
import type { RunningReference } from '../../../../src/server/reference/serve';
import { exampleRequest } from '../../../helpers/fixtures';
import { writeTinyGguf } from '../../../helpers/tinyGguf';
import type { Reply } from './http';
import { call, evaluate, fieldErrors, KEY, start } from './http';

// One CPU thread: the machine is shared, and llama.cpp's worker threads spin when they outnumber free cores.
const SETTINGS = { contextSize: 8192, parallelQuestions: 4, threads: 1 } as const;
const LOAD_MS = 120_000;

// Valid requests of every shape the contract allows (binary strings, object descriptions, null labels, missing
// criteria), generated once at load: generating them inside a test blocked the event loop for seconds under load,
// long enough for the in-process server to drop its idle keep-alive sockets while fetch was about to reuse them.
const GENERATED: EvaluateRequest[] = (() => {
  const text = (max: number) => fc.string({ maxLength: max, unit: 'binary' });
  const description = fc.oneof(
    text(40),
    fc.constant(null),
    fc.dictionary(fc.string({ maxLength: 8 }), text(20)),
  );
  const question = fc.oneof(
    fc.record(
      {
        type: fc.constant('choice' as const),
        instructions: text(60),
        criteria: fc.dictionary(fc.string({ minLength: 1, maxLength: 12, unit: 'binary' }), description, {
          minKeys: 2,
          maxKeys: 30,
        }),
      },
      { requiredKeys: ['type', 'criteria'] },
    ),
    fc.record(
      {
        type: fc.constant('score' as const),
        instructions: text(60),
        criteria: fc.array(
          text(30).filter((s) => s.trim() !== ''),
          { minLength: 2, maxLength: 10 },
        ),
      },
      { requiredKeys: ['type', 'criteria'] },
    ),
    fc.record(
      {
        type: fc.constant('noul' as const),
        instructions: text(60),
        criteria: fc.record({ true: text(30), false: text(30) }, { requiredKeys: [] }),
      },
      { requiredKeys: ['type'] },
    ),
  );
  const request = fc.record({
    state: fc.oneof(text(300), fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }))),
    model: fc.constant(''),
    questions: fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), question, {
      minKeys: 1,
      maxKeys: 5,
    }),
  });
  return fc
    .sample(request, { seed: 13, numRuns: 40 })
    .map((r) => JSON.parse(JSON.stringify(r)) as EvaluateRequest)
    .filter((r) => !JSON.stringify(r).includes('"__proto__"')); // refused by the service for every judge
})();

let judge: ModelJudge;
let server: RunningReference;
let alias = '';
let versioned = '';

beforeAll(async () => {
  judge = createModelJudge({ file: writeTinyGguf({ seed: 7 }, 'tiny-judge.gguf'), ...SETTINGS });
  const info = await judge.ready;
  alias = info.alias;
  versioned = info.versioned;
  server = await start({ modelJudge: judge });
}, LOAD_MS);

afterAll(async () => {
  await server?.close();
  await judge?.close();
});

const post = (body: unknown, signal?: AbortSignal): Promise<Reply> => evaluate(server.url, body, { signal });

const labels = (n: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`label_${i}`, `Category number ${i}`]));
const levels = (n: number): string[] => Array.from({ length: n }, (_, i) => `Level ${i} of the scale`);

type Body = {
  model: string;
  answers: Record<string, Record<string, unknown>>;
  usage: { input_tokens: number };
};

/** Checks every answer against the contract: schema, one per question, and each formula recomputed from its numbers. */
function expectContractAnswers(request: EvaluateRequest, reply: Reply): Body {
  expect(reply.status, reply.text).toBe(200);
  const parsed = EvaluateResponseSchema.parse(reply.json);
  expect(responseMismatches(request, parsed)).toEqual([]);
  const body = reply.json as Body;
  for (const [name, q] of Object.entries(request.questions)) {
    const a = body.answers[name]!;
    expect(a.type).toBe(q.type);
    const twoDecimals = (x: unknown): void =>
      expect(Math.abs((x as number) * 100 - Math.round((x as number) * 100))).toBeLessThan(1e-9);
    if (q.type === 'noul') {
      expect(Object.keys(a).sort()).toEqual(['noul', 'type']);
      twoDecimals(a.noul);
      continue;
    }
    const p = a.probabilities as Record<string, number>;
    const keys = q.type === 'choice' ? Object.keys(q.criteria) : q.criteria.map((_, i) => String(i));
    expect(Object.keys(p)).toEqual(keys);
    const values = keys.map((k) => p[k]!);
    values.forEach(twoDecimals);
    expect(values.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 9);
    if (q.type === 'choice') {
      const top = Math.max(...values);
      expect(a.choice).toBe(keys[values.indexOf(top)]);
      expect(a.confidence).toBe(round2(choiceConfidence(values)));
    } else {
      expect(a.score).toBe(round2(expectedScore(values)));
      expect(a.confidence).toBe(round2(scoreConfidence(values)));
      expect(a.legend).toEqual(Object.fromEntries(q.criteria.map((l, i) => [String(i), l])));
    }
  }
  return body;
}

describe('the model judge behind the reference service', () => {
  it('lists the file under an alias and a versioned id of the contract, beside the lexical aliases', async () => {
    const reply = await call(server.url, '/v1/models', { headers: { authorization: `Bearer ${KEY}` } });
    const names = ModelListSchema.parse(reply.json).models.map((m) => m.name);
    expect(names).toEqual(['local-tiny-judge', 'model-latest', 'model-preview']);
    expect(alias).toBe('local-tiny-judge');
    expect(versioned).toMatch(/^local-tiny-judge@[0-9a-f]{12}$/);
    expect(classifyModelId(alias)).toBe('alias');
    expect(classifyModelId(versioned)).toBe('versioned');
    expect(judge.label).toBe('local: tiny-judge.gguf');
  });

  it('answers all three types under the contract, resolving the alias to the versioned id', async () => {
    const request = { ...exampleRequest(), model: alias };
    const body = expectContractAnswers(request, await post(request));
    expect(body.model).toBe(versioned);
    const pinned = expectContractAnswers(request, await post({ ...request, model: versioned }));
    expect(pinned.answers).toEqual(body.answers);
  });

  it("bills the service tokenizer's count whichever judge answers, and lexical ids stay lexical", async () => {
    const request = exampleRequest();
    const lexical = (await post(request)).json as Body;
    const model = (await post({ ...request, model: alias })).json as Body;
    expect(lexical.model).toBe('model-1.13.0');
    expect(model.usage).toEqual(lexical.usage);
    // The same request to a reference without a model file gives the very same lexical answers.
    const plain = createReferenceApp();
    const res = await plain.fetch(
      new Request('http://x/v1/evaluate', {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(request),
      }),
    );
    expect(((await res.json()) as Body).answers).toEqual(lexical.answers);
  });

  it('answers 255 options and 10 levels', async () => {
    const request: EvaluateRequest = {
      state: 'The parcel arrived late and the box was crushed.',
      model: alias,
      questions: {
        wide: { type: 'choice', instructions: 'Which category fits?', criteria: labels(255) },
        deep: { type: 'score', instructions: 'How bad is it?', criteria: levels(10) },
      },
    };
    const body = expectContractAnswers(request, await post(request));
    expect(Object.keys(body.answers.wide!.probabilities as object)).toHaveLength(255);
    expect(Object.keys(body.answers.deep!.probabilities as object)).toHaveLength(10);
  }, 60_000);

  it('answers many questions at once, more than it evaluates in parallel', async () => {
    const questions: EvaluateRequest['questions'] = {};
    for (let i = 0; i < 12; i++) {
      questions[`n${i}`] = { type: 'noul', instructions: `Does the text mention item ${i}?` };
      questions[`c${i}`] = {
        type: 'choice',
        instructions: `Pick ${i}`,
        criteria: { a: 'first', b: null, c: 'third' },
      };
      questions[`s${i}`] = { type: 'score', criteria: ['low', 'middle', 'high'] };
    }
    const request: EvaluateRequest = {
      state: { ticket: 'Refund please', channel: 'email' },
      model: alias,
      questions,
    };
    expectContractAnswers(request, await post(request));
  }, 60_000);

  it('serves concurrent requests, each with its own answers', async () => {
    const requests = Array.from({ length: 6 }, (_, i): EvaluateRequest => ({
      state: `Message ${i}: ${'please help '.repeat(i + 1)}`,
      model: alias,
      questions: {
        team: { type: 'choice', criteria: { billing: 'Payments', technical: 'Bugs', other: null } },
      },
    }));
    const replies = await Promise.all(requests.map((r) => post(r)));
    replies.forEach((reply, i) => expectContractAnswers(requests[i]!, reply));
    // Run one alone again: concurrency does not change what the model says (to the rounding).
    const alone = (await post(requests[3])).json as Body;
    const together = replies[3]!.json as Body;
    const p1 = alone.answers.team!.probabilities as Record<string, number>;
    const p2 = together.answers.team!.probabilities as Record<string, number>;
    for (const k of Object.keys(p1)) expect(Math.abs(p1[k]! - p2[k]!)).toBeLessThanOrEqual(0.011);
  }, 60_000);

  it('refuses a state too long for the context window with a 422 at ["state"] and a clear sentence', async () => {
    // The tiny model reads one character as one token, so 9,500 characters cannot fit 8,192 tokens.
    const request: EvaluateRequest = {
      state: 'word '.repeat(1_900),
      model: alias,
      questions: { q: { type: 'noul', instructions: 'Is this long?' } },
    };
    const reply = await post(request);
    expect(reply.status).toBe(422);
    const errors = fieldErrors(reply);
    expect(errors.map((e) => e.loc)).toEqual([['state']]);
    expect(errors[0]!.msg).toMatch(
      /^The state \(\d+ tokens for this model\) does not fit tiny-judge\.gguf's context window of 8192 tokens/,
    );
    expect(errors[0]!.msg).toContain('REFERENCE_MODEL_CONTEXT');
    // Never a silent truncation: the lexical judge still answers the same state.
    expect((await post({ ...request, model: 'model-latest' })).status).toBe(200);
  });

  it('refuses a question too long for the context window at that question', async () => {
    const long = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`l${i}`, `${'very long description '.repeat(3)}${i}`]),
    );
    const request: EvaluateRequest = {
      state: 'short',
      model: alias,
      questions: { ok: { type: 'noul' }, huge: { type: 'choice', instructions: 'Which?', criteria: long } },
    };
    const reply = await post(request);
    expect(reply.status).toBe(422);
    expect(fieldErrors(reply).map((e) => e.loc)).toEqual([['questions', 'huge']]);
    expect(fieldErrors(reply)[0]!.msg).toMatch(/^The question "huge" \(\d+ tokens/);
  });

  it('stops evaluating when the caller cancels, and keeps serving', async () => {
    const app = createReferenceApp({ modelJudge: judge });
    const request: EvaluateRequest = {
      state: 'cancel me',
      model: alias,
      questions: { wide: { type: 'choice', criteria: labels(255) } },
    };
    const before = { ...judge.metrics };
    const controller = new AbortController();
    const pending = app.fetch(
      new Request('http://x/v1/evaluate', {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(request),
        signal: controller.signal,
      }),
    );
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toThrow();
    expect(judge.metrics.requests).toBe(before.requests + 1);
    expect(judge.metrics.cancelled).toBe(before.cancelled + 1);
    // Over HTTP too: the aborted fetch rejects, and the next request is answered.
    const http = new AbortController();
    const aborted = post(request, http.signal);
    setTimeout(() => http.abort(), 20);
    await expect(aborted).rejects.toThrow();
    const next = { ...exampleRequest(), model: alias };
    expectContractAnswers(next, await post(next));
  }, 60_000);

  it('the client SDK lists and evaluates the model as it does the lexical judge', async () => {
    const target = { baseUrl: server.url, headers: { Authorization: `Bearer ${KEY}` } };
    const list = await listModels(target);
    expect(list.models[0]!.name).toBe(alias);
    const request = { ...exampleRequest(), model: alias };
    const result = await clientEvaluate(target, request);
    expect(result.response.model).toBe(versioned);
    expect(result.attempts).toHaveLength(1);
    expect(Object.keys(result.response.answers)).toEqual(Object.keys(request.questions));
  });

  it('answers any valid request under the contract (generated states, labels, levels and descriptions)', async () => {
    for (const generated of GENERATED) {
      const sent = { ...generated, model: alias };
      expectContractAnswers(sent, await post(sent));
    }
  }, 120_000);

  it('names the model file when an unknown model is asked for', async () => {
    const reply = await post({ ...exampleRequest(), model: 'gpt-4' });
    expect(reply.status).toBe(422);
    expect(fieldErrors(reply)[0]!.msg).toContain(`also answers from a model file as ${alias}`);
  });
});

describe('loading and closing', () => {
  it(
    'a missing file or a file that is not GGUF fails to load with a sentence',
    async () => {
      const missing = createModelJudge({ file: '/nonexistent/model.gguf', ...SETTINGS });
      await expect(missing.ready).rejects.toThrow(
        'The model file /nonexistent/model.gguf does not exist or is not a file.',
      );
      const junkPath = `${writeTinyGguf()}.junk.gguf`;
      writeFileSync(junkPath, 'this is not a model');
      const junk = createModelJudge({ file: junkPath, ...SETTINGS });
      await expect(junk.ready).rejects.toThrow(/could not load .*\.junk\.gguf as a GGUF model/);
      await Promise.all([missing.close(), junk.close()]);
    },
    LOAD_MS,
  );

  it(
    'a changed file is a new version; closing aborts what is in flight and refuses what comes after',
    async () => {
      const other = createModelJudge({ file: writeTinyGguf({ seed: 8 }, 'tiny-judge.gguf'), ...SETTINGS });
      const info = await other.ready;
      expect(info.alias).toBe(alias);
      expect(info.versioned).not.toBe(versioned);
      const request: EvaluateRequest = {
        state: 'closing',
        model: info.versioned,
        questions: { wide: { type: 'choice', criteria: labels(255) } },
      };
      const inflight = other.answer(request, info.versioned, null);
      const outcome = inflight.then(
        () => 'answered',
        (e: unknown) => (e as Error).name,
      );
      await new Promise((r) => setTimeout(r, 20));
      await other.close();
      expect(await outcome).toBe('AbortError');
      expect(other.metrics.cancelled).toBe(1);
      await expect(other.answer(request, info.versioned, null)).rejects.toThrow(/is closed/);
    },
    LOAD_MS,
  );
});
