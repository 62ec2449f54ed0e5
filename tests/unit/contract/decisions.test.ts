// The interface's request and answers <-> the Decisions dialect (OpenAI's /v1/decisions), both ways.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decisionsLocToRequestLoc,
  fromDecisionsRequest,
  fromDecisionsResponse,
  toDecisionsRequest,
  toDecisionsResponse,
  validateRequestShape,
} from '../../../src/contract';
import type { EvaluateRequest, EvaluateResponse, JsonValue } from '../../../src/contract';

const wire = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const request: EvaluateRequest = {
  state: 'Help! My payouts have been failing for 3 days.',
  model: 'gpt-6-luna',
  questions: {
    is_urgent: {
      type: 'noul',
      instructions: 'Does this convey urgency?',
      criteria: { true: 'Explicitly time-sensitive', false: 'No urgency expressed' },
    },
    spam: { type: 'noul', instructions: 'Is this spam?' },
    department: {
      type: 'choice',
      instructions: 'Which team should handle this?',
      criteria: { billing: 'Payments and refunds', technical: 'Bugs and integrations', other: null },
    },
    frustration: {
      type: 'score',
      instructions: { question: 'How frustrated is the customer?', note: 'Use `tone`.' },
      criteria: ['Calm', 'Frustrated but civil', 'Angry'],
    },
  },
};

describe('the interface request in the Decisions form', () => {
  it('sends the state as input and the questions as a named array in map order', () => {
    const out = toDecisionsRequest(request);
    expect(out).toEqual({
      ok: true,
      value: {
        model: 'gpt-6-luna',
        input: 'Help! My payouts have been failing for 3 days.',
        questions: [
          {
            type: 'choice',
            name: 'is_urgent',
            instructions: 'Does this convey urgency?',
            choices: [
              { value: true, description: 'Explicitly time-sensitive' },
              { value: false, description: 'No urgency expressed' },
            ],
          },
          { type: 'predicate', name: 'spam', instructions: 'Is this spam?' },
          {
            type: 'choice',
            name: 'department',
            instructions: 'Which team should handle this?',
            choices: [
              { value: 'billing', description: 'Payments and refunds' },
              { value: 'technical', description: 'Bugs and integrations' },
              { value: 'other' },
            ],
          },
          {
            type: 'score',
            name: 'frustration',
            instructions: [
              {
                type: 'input_json',
                data: { question: 'How frustrated is the customer?', note: 'Use `tone`.' },
              },
            ],
            levels: [{ label: 'Calm' }, { label: 'Frustrated but civil' }, { label: 'Angry' }],
          },
        ],
      },
    });
  });

  it('sends a state of named fields as one user message with a JSON part', () => {
    const out = toDecisionsRequest({ ...request, state: { ticket: 'refund me', tier: 'gold' } });
    expect(out.ok && out.value.input).toEqual([
      { role: 'user', content: [{ type: 'input_json', data: { ticket: 'refund me', tier: 'gold' } }] },
    ]);
  });

  it('refuses what the Decisions form cannot carry, at the field, and sends nothing', () => {
    const out = toDecisionsRequest({
      state: ['text', 3],
      model: 'm',
      questions: {
        a: { type: 'choice', criteria: { x: 'X', y: 'Y' } },
        b: { type: 'choice', instructions: 'Pick', criteria: { x: { text: 'structured' }, y: null } },
      },
    });
    expect(out.ok).toBe(false);
    expect(!out.ok && out.errors.map((e) => e.loc)).toEqual([
      ['state', 1],
      ['questions', 'a', 'instructions'],
      ['questions', 'b', 'criteria', 'x'],
    ]);
    expect(!out.ok && out.errors[1]!.msg).toMatch(/needs instructions on every question/);
  });

  it('reads the example back unchanged', () => {
    const there = toDecisionsRequest(request);
    if (!there.ok) throw new Error('not translated');
    const back = fromDecisionsRequest(wire(there.value));
    expect(back.ok && back.value.request).toEqual(request);
    expect(back.ok && back.value.names).toEqual(['is_urgent', 'spam', 'department', 'frustration']);
  });

  it('reads an OpenAI-style body with unnamed questions, described levels and a message input', () => {
    const back = fromDecisionsRequest({
      model: 'gpt-6-luna',
      input: [{ role: 'user', content: 'I was charged twice' }],
      questions: [
        { type: 'predicate', instructions: 'Is this about money?' },
        {
          type: 'score',
          instructions: 'Severity',
          levels: [{ label: 'low', description: 'no impact' }, { label: 'high' }],
        },
      ],
    });
    expect(back).toEqual({
      ok: true,
      value: {
        request: {
          state: 'I was charged twice',
          model: 'gpt-6-luna',
          questions: {
            question_0: { type: 'noul', instructions: 'Is this about money?' },
            question_1: { type: 'score', instructions: 'Severity', criteria: ['low: no impact', 'high'] },
          },
        },
        keys: ['question_0', 'question_1'],
        names: [null, null],
      },
    });
  });

  it('refuses a Decisions body it cannot read, located in that body', () => {
    const back = fromDecisionsRequest({
      model: 'm',
      input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64,AA' }] }],
      questions: [
        { type: 'choice', name: 'a', instructions: 'x', choices: [{ value: 'p' }, { value: 'p' }] },
      ],
    });
    expect(!back.ok && back.errors.map((e) => e.loc)).toEqual([
      ['input', 0, 'content', 0],
      ['questions', 0, 'choices', 1, 'value'],
    ]);
  });

  it('maps a location in the Decisions body to the field of the interface request', () => {
    expect(decisionsLocToRequestLoc(['questions', 2, 'choices', 1, 'description'], request)).toEqual([
      'questions',
      'department',
      'criteria',
      'technical',
    ]);
    expect(decisionsLocToRequestLoc(['questions', 0, 'choices', 1], request)).toEqual([
      'questions',
      'is_urgent',
      'criteria',
      'false',
    ]);
    expect(decisionsLocToRequestLoc(['questions', 3, 'levels', 2, 'label'], request)).toEqual([
      'questions',
      'frustration',
      'criteria',
      2,
    ]);
    expect(decisionsLocToRequestLoc(['questions', 1, 'instructions'], request)).toEqual([
      'questions',
      'spam',
      'instructions',
    ]);
    expect(decisionsLocToRequestLoc(['input'], request)).toEqual(['state']);
    expect(decisionsLocToRequestLoc(['questions', 9], request)).toEqual(['questions']);
    expect(decisionsLocToRequestLoc(['safety_identifier'], request)).toEqual([]);
  });
});

// Generators of valid interface requests, including every shape a state or instructions may take.
const text = fc.string({ maxLength: 12 });
const nonEmpty = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '');
const jsonObject = fc.dictionary(
  fc.string({ maxLength: 6 }),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>,
  {
    maxKeys: 3,
  },
);
const carried = fc.oneof(text, jsonObject, fc.array(fc.oneof(text, jsonObject), { maxLength: 3 }));
const anyDescription = fc.oneof(
  carried,
  fc.array(fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>, { maxLength: 3 }),
);
const noul = fc.record(
  {
    type: fc.constant('noul' as const),
    instructions: carried,
    criteria: fc.record({ true: text, false: text }, { requiredKeys: [] }),
  },
  { requiredKeys: ['type', 'instructions'] },
);
const choice = fc.record({
  type: fc.constant('choice' as const),
  instructions: carried,
  criteria: fc.dictionary(nonEmpty, fc.option(text, { nil: null }), { minKeys: 2, maxKeys: 6 }),
});
const score = fc.record({
  type: fc.constant('score' as const),
  instructions: carried,
  criteria: fc.array(nonEmpty, { minLength: 2, maxLength: 10 }),
});
const translatable = fc.record({
  state: carried,
  model: nonEmpty,
  questions: fc.dictionary(nonEmpty, fc.oneof(noul, choice, score), { minKeys: 1, maxKeys: 5 }),
});
// Anything the contract accepts, translatable or not.
const anyRequest = fc.record({
  state: anyDescription,
  model: nonEmpty,
  questions: fc.dictionary(
    nonEmpty,
    fc.oneof(
      noul,
      fc.record({ type: fc.constant('noul' as const) }),
      fc.record({
        type: fc.constant('choice' as const),
        instructions: anyDescription,
        criteria: fc.dictionary(nonEmpty, fc.option(anyDescription, { nil: null }), {
          minKeys: 2,
          maxKeys: 4,
        }),
      }),
      score,
    ),
    { minKeys: 1, maxKeys: 4 },
  ),
});

const valueAt = (body: unknown, loc: (string | number)[]): unknown =>
  loc.reduce<unknown>((at, part) => (at as Record<string | number, unknown> | undefined)?.[part], body);

describe('properties', () => {
  it('a request taken to the Decisions form and back, over the wire, is unchanged', () => {
    fc.assert(
      fc.property(translatable, (generated) => {
        const req = wire(generated) as EvaluateRequest;
        expect(validateRequestShape(req).ok).toBe(true);
        const there = toDecisionsRequest(req);
        expect(there.ok, JSON.stringify(!there.ok && there.errors)).toBe(true);
        if (!there.ok) return;
        const back = fromDecisionsRequest(wire(there.value));
        expect(back.ok && back.value.request).toEqual(req);
        expect(back.ok && back.value.keys).toEqual(Object.keys(req.questions));
      }),
      { numRuns: 300 },
    );
  });

  it('any valid request either round-trips or is refused at fields that exist in it', () => {
    fc.assert(
      fc.property(anyRequest, (generated) => {
        const req = wire(generated) as EvaluateRequest;
        if (!validateRequestShape(req).ok) return;
        const there = toDecisionsRequest(req);
        if (there.ok) {
          const back = fromDecisionsRequest(wire(there.value));
          expect(back.ok && back.value.request).toEqual(req);
        } else {
          for (const e of there.errors) {
            expect(e.msg.length).toBeGreaterThan(10);
            // The location is the field at fault, or the missing instructions of a question that exists.
            const at = valueAt(req, e.loc);
            const missingInstructions = e.loc[e.loc.length - 1] === 'instructions';
            expect(at !== undefined || missingInstructions, JSON.stringify(e.loc)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('answers taken to the Decisions form and back are the same answers, refusals included', () => {
    const answer = (r: EvaluateRequest, refuse: Set<string>): EvaluateResponse => ({
      model: 'gpt-6-luna',
      usage: { input_tokens: 10, output_tokens: 0 },
      answers: Object.fromEntries(
        Object.entries(r.questions).map(([name, q]) => {
          if (refuse.has(name)) return [name, { type: 'refusal', question_type: q.type }];
          if (q.type === 'noul') return [name, { type: 'noul', noul: 0.25 }];
          if (q.type === 'choice') {
            const labels = Object.keys(q.criteria);
            return [
              name,
              {
                type: 'choice',
                choice: labels[0]!,
                confidence: 0.5,
                probabilities: Object.fromEntries(labels.map((l, i) => [l, i === 0 ? 1 : 0])),
              },
            ];
          }
          return [
            name,
            {
              type: 'score',
              score: 0.5,
              confidence: 0.4,
              legend: Object.fromEntries(q.criteria.map((l, i) => [String(i), l])),
              probabilities: Object.fromEntries(q.criteria.map((_, i) => [String(i), i < 2 ? 0.5 : 0])),
            },
          ];
        }),
      ),
    });
    fc.assert(
      fc.property(translatable, fc.func(fc.boolean()), (generated, refuses) => {
        const req = wire(generated) as EvaluateRequest;
        const refuse = new Set(Object.keys(req.questions).filter((n) => refuses(n)));
        const there = toDecisionsRequest(req);
        if (!there.ok) throw new Error('not translated');
        const read = fromDecisionsRequest(wire(there.value));
        if (!read.ok) throw new Error('not read');
        const sent = answer(req, refuse);
        const decisions = wire(toDecisionsResponse(sent, there.value, read.value.keys, read.value.names));
        const back = fromDecisionsResponse(decisions, req);
        expect(back.ok, !back.ok ? back.problem : '').toBe(true);
        if (!back.ok) return;
        for (const [name, a] of Object.entries(back.value.answers)) {
          if (refuse.has(name))
            expect(a).toEqual({ type: 'refusal', question_type: req.questions[name]!.type });
          else expect(a).toEqual(sent.answers[name]);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('Decisions answers', () => {
  const sent = toDecisionsRequest(request);
  it('reads an answer array in question order, a refusal as a refusal, a boolean choice as p(yes)', () => {
    const body = {
      model: 'gpt-6-luna',
      answers: [
        {
          type: 'choice',
          name: 'is_urgent',
          choice: true,
          confidence: 0.8,
          probabilities: [
            { value: true, probability: 0.9 },
            { value: false, probability: 0.1 },
          ],
        },
        { type: 'refusal', name: 'spam' },
        {
          type: 'choice',
          name: 'department',
          choice: 'technical',
          confidence: 0.7,
          probabilities: [
            { value: 'billing', probability: 0.1 },
            { value: 'technical', probability: 0.85 },
            { value: 'other', probability: 0.05 },
          ],
        },
        {
          type: 'score',
          name: 'frustration',
          score: 1.4,
          confidence: 0.3,
          probabilities: [
            { label: 'Calm', value: 0, probability: 0.1 },
            { label: 'Frustrated but civil', value: 1, probability: 0.4 },
            { label: 'Angry', value: 2, probability: 0.5 },
          ],
        },
      ],
      usage: {
        input_tokens: 120,
        input_tokens_details: { cached_tokens: 64, cache_write_tokens: 0 },
        output_tokens: 0,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 120,
      },
    };
    expect(sent.ok).toBe(true);
    const read = fromDecisionsResponse(body, request);
    expect(read).toEqual({
      ok: true,
      value: {
        model: 'gpt-6-luna',
        answers: {
          is_urgent: { type: 'noul', noul: 0.9 },
          spam: { type: 'refusal', question_type: 'noul' },
          department: {
            type: 'choice',
            choice: 'technical',
            confidence: 0.7,
            probabilities: { billing: 0.1, technical: 0.85, other: 0.05 },
          },
          frustration: {
            type: 'score',
            score: 1.4,
            confidence: 0.3,
            legend: { '0': 'Calm', '1': 'Frustrated but civil', '2': 'Angry' },
            probabilities: { '0': 0.1, '1': 0.4, '2': 0.5 },
          },
        },
        usage: body.usage,
      },
    });
  });

  it('says what is wrong with answers that do not answer the request', () => {
    const base = { model: 'm', usage: { input_tokens: 1 } };
    expect(fromDecisionsResponse({ ...base, answers: [] }, request)).toEqual({
      ok: false,
      problem: '0 answers came back for 4 questions',
    });
    const renamed = fromDecisionsResponse(
      {
        ...base,
        answers: [
          { type: 'predicate', name: 'other', probability: 0.5 },
          ...Array(3).fill({ type: 'refusal', name: null }),
        ],
      },
      request,
    );
    expect(renamed).toEqual({
      ok: false,
      problem: 'answer 1 is named "other", but question 1 is "is_urgent"',
    });
    const mistyped = fromDecisionsResponse(
      {
        ...base,
        answers: [
          { type: 'refusal', name: null },
          { type: 'score', name: 'spam', score: 1, confidence: 1, probabilities: [] },
          { type: 'refusal', name: null },
          { type: 'refusal', name: null },
        ],
      },
      request,
    );
    expect(!mistyped.ok && mistyped.problem).toBe(
      '"spam" was answered as score, which does not answer a noul question',
    );
  });
});

describe('a choice label named like an object key', () => {
  it('keeps "__proto__" as a label through the Decisions form and back (a counterexample fast-check found)', () => {
    const req = {
      state: [],
      model: '!',
      questions: {
        q: { type: 'choice', instructions: [], criteria: JSON.parse('{"__proto__":null,"!":null}') },
      },
    } as unknown as EvaluateRequest;
    const there = toDecisionsRequest(req);
    if (!there.ok) throw new Error('not translated');
    const read = fromDecisionsRequest(JSON.parse(JSON.stringify(there.value)));
    if (!read.ok) throw new Error('not read');
    const sent: EvaluateResponse = {
      model: 'm',
      usage: { input_tokens: 1, output_tokens: 0 },
      answers: {
        q: {
          type: 'choice',
          choice: '__proto__',
          confidence: 0.5,
          probabilities: JSON.parse('{"__proto__":1,"!":0}'),
        },
      },
    };
    const back = fromDecisionsResponse(
      JSON.parse(JSON.stringify(toDecisionsResponse(sent, there.value, read.value.keys, read.value.names))),
      req,
    );
    if (!back.ok) throw new Error(back.problem);
    expect(Object.keys((back.value.answers.q as { probabilities: object }).probabilities)).toEqual([
      '__proto__',
      '!',
    ]);
  });
});
