// Quick fixes, applied to the editor text with jsonc-parser's modify + applyEdits, give the intended JSON.
import { describe, expect, it } from 'vitest';
import { lintRubric } from '../../../../src/core/lint';
import { validateRequestShape } from '../../../../src/contract';
import { applyFix, findings, input } from './lintHelpers';

const only = (inp: ReturnType<typeof input>, ruleId: string) => {
  const found = findings(inp, ruleId);
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('contract fixes', () => {
  it('rewrites a boolean question to noul', () => {
    const inp = input({ questions: { urgent: { type: 'boolean', instructions: 'Is it urgent?' } } });
    const f = only(inp, 'contract/boolean-type');
    expect(f.loc).toEqual(['questions', 'urgent', 'type']);
    expect(applyFix(inp, f.fix).questions).toEqual({
      urgent: { type: 'noul', instructions: 'Is it urgent?' },
    });
  });

  it('sets a misspelt or synonym type to the kind it names, and a missing type from the criteria', () => {
    const inp = input({
      questions: {
        a: { type: 'Choice', instructions: 'Which?', criteria: { x: null, y: null } },
        b: { type: 'likert', instructions: 'How much?', criteria: ['Little', 'Much'] },
        c: { instructions: 'Which?', criteria: { x: null, y: null } },
        d: { type: 'zzz', instructions: 'Yes?', criteria: { true: 'Yes', false: 'No' } },
      },
    });
    const found = findings(inp, 'contract/unknown-type');
    expect(found.map((f) => f.fix?.edits[0]?.value)).toEqual(['choice', 'score', 'choice', 'noul']);
    expect(applyFix(inp, found[1]!.fix).questions).toMatchObject({ b: { type: 'score' } });
  });

  it('moves "options" into "criteria" as labels, and "levels" into "criteria" as levels', () => {
    const inp = input({
      questions: {
        team: { type: 'choice', instructions: 'Which team?', options: ['billing', 'technical'] },
        mood: { type: 'score', instructions: 'How upset?', levels: ['Calm', 'Upset'] },
      },
    });
    const [team, mood] = findings(inp, 'contract/unknown-field');
    expect(team!.loc).toEqual(['questions', 'team', 'options']);
    const fixed = applyFix(inp, team!.fix);
    expect(fixed.questions).toMatchObject({
      team: { type: 'choice', instructions: 'Which team?', criteria: { billing: null, technical: null } },
    });
    expect(fixed.questions).not.toHaveProperty('team.options');
    expect(applyFix(inp, mood!.fix).questions).toMatchObject({ mood: { criteria: ['Calm', 'Upset'] } });
  });

  it('renames a misnamed instructions field, and removes a field that has no meaning here', () => {
    const inp = input({ questions: { a: { type: 'noul', prompt: 'Is it urgent?', priority: 3 } } });
    const [prompt, priority] = findings(inp, 'contract/unknown-field');
    expect(applyFix(inp, prompt!.fix).questions).toEqual({
      a: { type: 'noul', instructions: 'Is it urgent?', priority: 3 },
    });
    expect(applyFix(inp, priority!.fix).questions).toEqual({ a: { type: 'noul', prompt: 'Is it urgent?' } });
  });

  it('removes the misnamed field when criteria are already there', () => {
    const inp = input({
      questions: {
        a: { type: 'choice', instructions: 'Which?', criteria: { x: null, y: null }, options: ['z'] },
      },
    });
    const f = only(inp, 'contract/unknown-field');
    expect(f.fix!.title).toBe('Remove "options"');
    expect(applyFix(inp, f.fix).questions).toEqual({
      a: { type: 'choice', instructions: 'Which?', criteria: { x: null, y: null } },
    });
  });

  it('turns a list of labels into choice criteria, and an object of levels into a list', () => {
    const inp = input({
      questions: {
        team: {
          type: 'choice',
          instructions: 'Which team?',
          criteria: ['billing', { label: 'technical', description: 'Bugs' }],
        },
        mood: {
          type: 'score',
          instructions: 'How upset?',
          criteria: { '0': 'Calm', '1': 'Upset', '2': 'Furious' },
        },
      },
    });
    const [team, mood] = findings(inp, 'contract/criteria-shape');
    expect(applyFix(inp, team!.fix).questions).toMatchObject({
      team: { criteria: { billing: null, technical: 'Bugs' } },
    });
    expect(applyFix(inp, mood!.fix).questions).toMatchObject({
      mood: { criteria: ['Calm', 'Upset', 'Furious'] },
    });
  });

  it('renames yes/no noul criteria to true/false', () => {
    const inp = input({
      questions: { a: { type: 'noul', instructions: 'Urgent?', criteria: { yes: 'Urgent', false: 'Calm' } } },
    });
    const f = only(inp, 'contract/criteria-shape');
    expect(f.loc).toEqual(['questions', 'a', 'criteria', 'yes']);
    expect(applyFix(inp, f.fix).questions).toEqual({
      a: { type: 'noul', instructions: 'Urgent?', criteria: { false: 'Calm', true: 'Urgent' } },
    });
  });

  it('turns a list of named questions into the map the service expects', () => {
    const inp = input({ questions: [{ name: 'urgent', type: 'noul', instructions: 'Urgent?' }] });
    const f = only(inp, 'contract/questions-shape');
    expect(applyFix(inp, f.fix).questions).toEqual({ urgent: { type: 'noul', instructions: 'Urgent?' } });
  });

  it('splits a pasted request: questions stay, the state moves to the state editor', () => {
    const inp = input({
      questions: {
        state: { claim: 'x' },
        model: 'model-1.12.0',
        questions: { a: { type: 'noul', instructions: 'Is `claim` true?' } },
      },
    });
    const found = lintRubric(inp);
    expect(found.map((f) => f.ruleId)).toEqual(['contract/pasted-request']);
    expect(found[0]!.message).toContain('model-1.12.0');
    const fixed = applyFix(inp, found[0]!.fix);
    expect(fixed.questions).toEqual({ a: { type: 'noul', instructions: 'Is `claim` true?' } });
    expect(fixed.state).toEqual({ claim: 'x' });
  });

  it('removes an empty level when enough remain', () => {
    const inp = input({
      questions: { a: { type: 'score', instructions: 'How?', criteria: ['Calm', '', 'Upset'] } },
    });
    const f = only(inp, 'contract/level-text');
    expect(applyFix(inp, f.fix).questions).toMatchObject({ a: { criteria: ['Calm', 'Upset'] } });
  });
});

describe('rubric fixes', () => {
  it('describes bare-number levels with a generic low-to-high scale that the service accepts', () => {
    const inp = input({
      questions: { mood: { type: 'score', instructions: 'How upset?', criteria: [1, 2, 3, 4, 5] } },
    });
    const f = only(inp, 'score/numeric-level');
    expect(f.severity).toBe('error'); // JSON numbers are a 422, not only a weak rubric
    const fixed = applyFix(inp, f.fix);
    expect(fixed.questions).toEqual({
      mood: {
        type: 'score',
        instructions: 'How upset?',
        criteria: ['Very low', 'Low', 'Moderate', 'High', 'Very high'],
      },
    });
    expect(validateRequestShape({ state: 's', model: 'model-latest', questions: fixed.questions }).ok).toBe(
      true,
    );
    expect(lintRubric({ ...inp, questions: fixed.questions })).toEqual([]);
  });

  it('describes one numeric level among descriptive ones, and leaves the others', () => {
    const inp = input({
      questions: { mood: { type: 'score', instructions: 'How upset?', criteria: ['Calm', '2', 'Furious'] } },
    });
    const f = only(inp, 'score/numeric-level');
    expect(f.severity).toBe('warning');
    expect(f.loc).toEqual(['questions', 'mood', 'criteria', 1]);
    expect(applyFix(inp, f.fix).questions).toMatchObject({
      mood: { criteria: ['Calm', 'Moderate', 'Furious'] },
    });
  });

  it('removes a label that repeats another up to case and spacing, keeping the first', () => {
    const inp = input({
      questions: {
        team: {
          type: 'choice',
          instructions: 'Which?',
          criteria: { Billing: 'Money', tech: null, 'BILL ING': null },
        },
      },
    });
    const f = only(inp, 'criteria/duplicate-label');
    expect(f.message).toContain('"Billing"');
    expect(applyFix(inp, f.fix).questions).toMatchObject({
      team: { criteria: { Billing: 'Money', tech: null } },
    });
  });

  it('removes a repeated level', () => {
    const inp = input({
      questions: { a: { type: 'score', instructions: 'How?', criteria: ['Calm', 'Upset', 'calm'] } },
    });
    const f = only(inp, 'criteria/duplicate-label');
    expect(applyFix(inp, f.fix).questions).toMatchObject({ a: { criteria: ['Calm', 'Upset'] } });
  });

  it('nulls templated descriptions that add tokens and no meaning', () => {
    const criteria = Object.fromEntries(
      ['shoes', 'hats', 'bags', 'belts', 'socks'].map((l) => [l, `Items of the ${l} category`]),
    );
    const inp = input({ questions: { a: { type: 'choice', instructions: 'Which category?', criteria } } });
    const f = only(inp, 'criteria/taxonomy-dump');
    expect(f.message).toContain('"items of the <label> category"');
    expect(applyFix(inp, f.fix).questions).toMatchObject({
      a: { criteria: { shoes: null, hats: null, bags: null, belts: null, socks: null } },
    });
  });
});

describe('state fixes', () => {
  it('adds a missing backtick field to an object state as null', () => {
    const inp = input({
      state: { quote: 'It worked.' },
      questions: { a: { type: 'noul', instructions: 'Does `quote` support `claim`?' } },
    });
    const f = only(inp, 'state/missing-field');
    expect(f.loc).toEqual(['questions', 'a', 'instructions']);
    expect(applyFix(inp, f.fix).state).toEqual({ quote: 'It worked.', claim: null });
  });

  it('adds a nested field under an existing object, and offers nothing under a text value', () => {
    const inp = input({
      state: { customer: { id: 7 }, note: 'hi' },
      questions: {
        a: {
          type: 'noul',
          instructions: { question: 'Is `customer.name` in `note.text`?', extra: '`customer.id`' },
        },
      },
    });
    const found = findings(inp, 'state/missing-field');
    expect(found.map((f) => f.loc)).toEqual([
      ['questions', 'a', 'instructions', 'question'],
      ['questions', 'a', 'instructions', 'question'],
    ]);
    expect(applyFix(inp, found[0]!.fix).state).toEqual({ customer: { id: 7, name: null }, note: 'hi' });
    expect(found[1]!.fix).toBeUndefined();
  });

  it('removes an unused state field', () => {
    const inp = input({
      state: { claim: 'c', quote: 'q', internal_id: 42 },
      questions: { a: { type: 'noul', instructions: 'Does `quote` support `claim`?' } },
    });
    const f = only(inp, 'state/unused-field');
    expect(f.loc).toEqual(['state', 'internal_id']);
    expect(applyFix(inp, f.fix).state).toEqual({ claim: 'c', quote: 'q' });
  });
});
