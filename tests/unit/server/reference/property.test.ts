// Property: whatever body arrives, the reference answers 200 or a 4xx JSON error body, never a 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluateRequest } from '../../../../src/contract';
import { ErrorBodySchema, EvaluateResponseSchema, responseMismatches } from '../../../../src/contract';
import type { RunningReference } from '../../../../src/server/reference/serve';
import { exampleRequest } from '../../../helpers/fixtures';
import type { Reply } from './http';
import { evaluate, start } from './http';

let ref: RunningReference;
beforeAll(async () => {
  // Limits out of the way: the property is about bodies, and a 429 would hide them.
  ref = await start({ rpm: 1e9, tps: 1e12 });
  // NOTE: a pooled socket left idle past Node's 5 s keep-alive is closed by the server just as fetch reuses it (the
  // documented keep-alive race, a read ECONNRESET): that says nothing about bodies, so idle sockets are kept longer.
  ref.server.keepAliveTimeout = 60_000;
});
afterAll(async () => {
  await ref.close();
});

/** Checks the property on one reply; a 200 must also answer exactly the questions that were sent. */
function holds(reply: Reply, sent: unknown): void {
  expect(reply.status, reply.text).toBeLessThan(500);
  expect(reply.headers.get('x-request-id')).toMatch(/^req_/);
  if (reply.status === 200) {
    const body = EvaluateResponseSchema.parse(reply.json);
    expect(responseMismatches(sent as EvaluateRequest, body)).toEqual([]);
  } else {
    expect(reply.status).toBeGreaterThanOrEqual(400);
    ErrorBodySchema.parse(reply.json);
  }
}

/** Whether "__proto__" is used as a key anywhere in a JSON value (as a value it is ordinary text). */
const hasProtoKey = (value: unknown): boolean =>
  value !== null &&
  typeof value === 'object' &&
  (Array.isArray(value)
    ? value.some(hasProtoKey)
    : Object.keys(value).some(
        (k) => k === '__proto__' || hasProtoKey((value as Record<string, unknown>)[k]),
      ));

type Path = Array<string | number>;
/** Every path into the example (objects and arrays), so mutations can hit any field at any depth. */
function pathsOf(value: unknown, at: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [at];
  const children = Array.isArray(value)
    ? value.flatMap((v, i) => pathsOf(v, [...at, i]))
    : Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...at, k]));
  return [at, ...children];
}

type Mutation =
  | { op: 'replace'; path: Path; value: unknown }
  | { op: 'delete'; path: Path }
  | { op: 'add'; path: Path; key: string; value: unknown };

function mutate(body: unknown, m: Mutation): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  if (m.path.length === 0) return m.op === 'replace' ? m.value : copy;
  if (copy === null || typeof copy !== 'object') return copy;
  let parent: Record<string | number, unknown> = copy;
  for (const part of m.path.slice(0, -1)) {
    const next = parent[part];
    // An earlier mutation may have removed or replaced this branch: then this mutation has nothing to act on.
    if (next === null || typeof next !== 'object') return copy;
    parent = next as Record<string | number, unknown>;
  }
  const last = m.path[m.path.length - 1]!;
  if (m.op === 'replace') parent[last] = m.value;
  else if (m.op === 'delete') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (target && typeof target === 'object' && !Array.isArray(target)) {
      Object.defineProperty(target, m.key, {
        value: m.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return copy;
}

const example = exampleRequest();
const paths = pathsOf(example);
// Values that stress the edges: JSON of any shape, plus the words the service gives meaning to.
const valueArb = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    'boolean',
    'noul',
    'choice',
    'score',
    'model-1.13',
    'model-1.13.0',
    '',
    '   ',
    '__proto__',
    3,
    null,
  ),
  fc.array(fc.string(), { maxLength: 12 }),
);
const keyArb = fc.oneof(
  fc.string(),
  fc.constantFrom('__proto__', 'constructor', 'metadata', 'type', 'criteria'),
);
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('replace' as const), path: fc.constantFrom(...paths), value: valueArb }),
  fc.record({
    op: fc.constant('delete' as const),
    path: fc.constantFrom(...paths.filter((p) => p.length > 0)),
  }),
  fc.record({
    op: fc.constant('add' as const),
    path: fc.constantFrom(...paths),
    key: keyArb,
    value: valueArb,
  }),
);

describe('never a 5xx', { timeout: 60_000 }, () => {
  it('for the contract example with one to four random mutations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutationArb, { minLength: 1, maxLength: 4 }), async (mutations) => {
        const body = mutations.reduce<unknown>((b, m) => mutate(b, m), example);
        holds(await evaluate(ref.url, body), body);
      }),
      { numRuns: 300 },
    );
  });

  it('for arbitrary JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (body) => {
        holds(await evaluate(ref.url, body), body);
      }),
      { numRuns: 150 },
    );
  });

  it('for arbitrary text that is mostly not JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), async (text) => {
        holds(await evaluate(ref.url, text), null);
      }),
      { numRuns: 150 },
    );
  });

  it('for generated valid requests, which get 200 and one answer per question', async () => {
    const description = fc.oneof(fc.string({ maxLength: 40 }), fc.constant(null));
    const question = fc.oneof(
      fc.record({
        type: fc.constant('choice'),
        instructions: fc.string({ maxLength: 60 }),
        criteria: fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), description, {
          minKeys: 2,
          maxKeys: 8,
        }),
      }),
      fc.record({
        type: fc.constant('score'),
        criteria: fc.array(
          fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== ''),
          { minLength: 2, maxLength: 10 },
        ),
      }),
      fc.record(
        {
          type: fc.constant('noul'),
          instructions: fc.string({ maxLength: 60 }),
          criteria: fc.record({ true: fc.string({ maxLength: 30 }), false: fc.string({ maxLength: 30 }) }),
        },
        { requiredKeys: ['type'] },
      ),
    );
    const request = fc.record({
      state: fc.oneof(
        fc.string({ maxLength: 300 }),
        fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })),
      ),
      model: fc.constantFrom('model-latest', 'model-preview', 'model-1.12.0', 'model-1.13.0', 'model-1.14.0'),
      questions: fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), question, {
        minKeys: 1,
        maxKeys: 4,
      }),
    });
    await fc.assert(
      fc.asyncProperty(request, async (body) => {
        const reply = await evaluate(ref.url, body);
        // Valid by construction, except a "__proto__" name, which the service refuses rather than drop.
        if (hasProtoKey(body)) expect(reply.status, reply.text).toBe(422);
        else expect(reply.status, reply.text).toBe(200);
        holds(reply, body);
      }),
      { numRuns: 150 },
    );
  });

  it('for deep nesting and long unbroken runs anywhere in a request', async () => {
    const nested = fc
      .tuple(fc.integer({ min: 1, max: 10_000 }), fc.constantFrom('[', '{"k":'))
      .map(([levels, open]) => `${open.repeat(levels)}1${(open === '[' ? ']' : '}').repeat(levels)}`);
    const run = fc
      .tuple(fc.integer({ min: 100, max: 60_000 }), fc.constantFrom('a', ' ', '😀', '!', '中', '\n'))
      .map(([n, ch]) => JSON.stringify(ch.repeat(n)));
    const where = fc.constantFrom('state', 'instructions', 'label', 'level');
    await fc.assert(
      fc.asyncProperty(fc.oneof(nested, run), where, async (value, at) => {
        const question =
          at === 'label'
            ? `{"type":"choice","criteria":{"a":${value},"b":null}}`
            : at === 'level'
              ? `{"type":"score","criteria":[${value},"high"]}`
              : `{"type":"noul","instructions":${at === 'instructions' ? value : '"Is it urgent?"'}}`;
        const state = at === 'state' ? value : '"I was charged twice"';
        const text = `{"model":"model-latest","state":${state},"questions":{"q":${question}}}`;
        holds(await evaluate(ref.url, text), JSON.parse(text));
      }),
      { numRuns: 60 },
    );
  });
});
