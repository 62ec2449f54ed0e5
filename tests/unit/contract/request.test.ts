import { describe, expect, it } from 'vitest';
import { EvaluateRequestSchema, formatLoc, validateRequestShape } from '../../../src/contract';
import { choiceWith, exampleRequest, scoreWith } from '../../helpers/fixtures';

const errorsOf = (body: unknown) => {
  const v = validateRequestShape(body);
  return v.ok ? [] : v.errors;
};
const locsOf = (body: unknown) => errorsOf(body).map((e) => formatLoc(e.loc));

describe('request', () => {
  it('accepts the contract example', () => {
    expect(validateRequestShape(exampleRequest())).toEqual({ ok: true, value: exampleRequest() });
  });

  it.each([
    ['text', 'a plain message'],
    ['named fields with nulls', { claim: 'x', locale: null, id: 3 }],
    ['an array', [{ a: 1 }, 'b']],
  ])('accepts a state of %s', (_, state) => {
    expect(locsOf({ ...exampleRequest(), state })).toEqual([]);
  });

  it('rejects a null state and a number state', () => {
    expect(locsOf({ ...exampleRequest(), state: null })).toEqual(['state']);
    expect(locsOf({ ...exampleRequest(), state: 42 })).toEqual(['state']);
  });

  it('names each missing required field', () => {
    const errors = errorsOf({});
    expect(errors.map((e) => formatLoc(e.loc))).toEqual(['state', 'model', 'questions']);
    expect(errors[1]!.msg).toBe('The field "model" is required.');
  });

  it('rejects an empty model and an empty questions map', () => {
    expect(locsOf({ ...exampleRequest(), model: '' })).toEqual(['model']);
    expect(locsOf({ ...exampleRequest(), questions: {} })).toEqual(['questions']);
  });

  it('rejects unknown top-level fields, naming each', () => {
    const errors = errorsOf({ ...exampleRequest(), metadata: {}, stream: true });
    expect(errors.map((e) => e.loc)).toEqual([['metadata'], ['stream']]);
    expect(errors[0]!.msg).toContain('Unknown top-level field "metadata"');
  });

  it('rejects an unknown field inside a question', () => {
    const body = exampleRequest() as unknown as { questions: Record<string, Record<string, unknown>> };
    body.questions.department!.options = ['a', 'b'];
    expect(locsOf(body)).toEqual(['questions.department.options']);
  });

  it('answers `boolean` with a message that names noul', () => {
    const errors = errorsOf({
      ...exampleRequest(),
      questions: { q: { type: 'boolean', instructions: 'Is it?' } },
    });
    expect(errors).toHaveLength(1);
    expect(formatLoc(errors[0]!.loc)).toBe('questions.q.type');
    expect(errors[0]!.msg).toMatch(/`noul`/);
  });

  it('rejects an unknown type', () => {
    expect(locsOf({ ...exampleRequest(), questions: { q: { type: 'rank' } } })).toEqual(['questions.q.type']);
  });

  describe('choice', () => {
    it('accepts 2 and 255 labels, and null descriptions', () => {
      expect(locsOf({ ...exampleRequest(), questions: { a: choiceWith(2), b: choiceWith(255) } })).toEqual(
        [],
      );
    });
    it('rejects 1 and 256 labels at criteria', () => {
      expect(locsOf({ ...exampleRequest(), questions: { a: choiceWith(1) } })).toEqual([
        'questions.a.criteria',
      ]);
      const errors = errorsOf({ ...exampleRequest(), questions: { a: choiceWith(256) } });
      expect(errors.map((e) => formatLoc(e.loc))).toEqual(['questions.a.criteria']);
      expect(errors[0]!.msg).toContain('255');
    });
    it('requires criteria', () => {
      expect(
        locsOf({ ...exampleRequest(), questions: { a: { type: 'choice', instructions: 'x' } } }),
      ).toEqual(['questions.a.criteria']);
    });
    it('accepts object and array descriptions, rejects a number', () => {
      const q = { type: 'choice', criteria: { a: { text: 'x', examples: ['y'] }, b: ['p', 'q'] } };
      expect(locsOf({ ...exampleRequest(), questions: { q } })).toEqual([]);
      const bad = { type: 'choice', criteria: { a: 1, b: 'fine' } };
      expect(locsOf({ ...exampleRequest(), questions: { q: bad } })).toEqual(['questions.q.criteria.a']);
    });
  });

  describe('score', () => {
    it('accepts 2 and 10 levels', () => {
      expect(locsOf({ ...exampleRequest(), questions: { a: scoreWith(2), b: scoreWith(10) } })).toEqual([]);
    });
    it('rejects 1 and 11 levels at criteria', () => {
      expect(locsOf({ ...exampleRequest(), questions: { a: scoreWith(1) } })).toEqual([
        'questions.a.criteria',
      ]);
      expect(locsOf({ ...exampleRequest(), questions: { a: scoreWith(11) } })).toEqual([
        'questions.a.criteria',
      ]);
    });
    it('rejects a non-string or empty level at its index', () => {
      const q = { type: 'score', criteria: ['calm', 3, '  '] };
      expect(locsOf({ ...exampleRequest(), questions: { q } })).toEqual([
        'questions.q.criteria[1]',
        'questions.q.criteria[2]',
      ]);
    });
    it('accepts numeric-looking strings (the workbench warns; the service accepts)', () => {
      expect(
        locsOf({ ...exampleRequest(), questions: { q: { type: 'score', criteria: ['1', '2'] } } }),
      ).toEqual([]);
    });
  });

  describe('noul', () => {
    it('accepts instructions as text, object or array, and optional criteria', () => {
      const questions = {
        a: { type: 'noul' },
        b: { type: 'noul', instructions: { question: 'Is `claim` supported?', quote: 'x' } },
        c: { type: 'noul', instructions: ['a', 'b'], criteria: { true: 'yes' } },
      };
      expect(locsOf({ ...exampleRequest(), questions })).toEqual([]);
    });
    it('rejects unknown criteria keys', () => {
      const q = { type: 'noul', criteria: { yes: 'x' } };
      expect(locsOf({ ...exampleRequest(), questions: { q } })).toEqual(['questions.q.criteria.yes']);
    });
  });

  it('parses types through the exported schema', () => {
    const parsed = EvaluateRequestSchema.parse(exampleRequest());
    expect(Object.keys(parsed.questions)).toEqual(['is_urgent', 'department', 'frustration']);
  });
});
