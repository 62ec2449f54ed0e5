// Every rule has a case that fires and a near-miss that does not; the table must cover every rule in RULES.
import { describe, expect, it } from 'vitest';
import { RULES } from '../../../../src/core/lint';
import type { LintInput } from '../../../../src/core/lint';
import { findings, input } from './lintHelpers';
import type { Conversation } from '../../../../src/contract';

const noul = (instructions: unknown = 'Is it urgent?') => ({ type: 'noul', instructions });
const choice = (criteria: unknown, instructions: unknown = 'Which team handles this?') => ({
  type: 'choice',
  instructions,
  criteria,
});
const score = (criteria: unknown, instructions: unknown = 'How frustrated is the customer?') => ({
  type: 'score',
  instructions,
  criteria,
});
const labels = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`label${i}`, null]));
const templated = (n: number) =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`cat${i}`, `Products in category cat${i} number ${i}`]),
  );
const long = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(' ');
const TRACE: Conversation = [
  { role: 'user', content: 'Where is my order?' },
  { type: 'function_call', call_id: 'c1', name: 'lookup_order', arguments: '{}' },
  { type: 'function_call_output', call_id: 'c1', output: 'shipped' },
];
const claimState = { claim: 'The drug cures colds.', quote: 'It cured my cold.' };

const CASES: Record<string, { fires: LintInput; quiet: LintInput }> = {
  'contract/pasted-request': {
    fires: input({ questions: { state: 'x', model: 'model-latest', questions: { a: noul() } } }),
    quiet: input({ questions: { questions: noul(), state: noul() } }),
  },
  'contract/questions-shape': {
    fires: input({ questions: [noul()] }),
    quiet: input({ questions: { a: noul() } }),
  },
  'contract/boolean-type': {
    fires: input({ questions: { a: { type: 'boolean', instructions: 'Is it urgent?' } } }),
    quiet: input({ questions: { a: { type: 'noul', instructions: 'Is it a boolean?' } } }),
  },
  'contract/unknown-type': {
    fires: input({
      questions: { a: { type: 'rating', instructions: 'Rate it', criteria: ['Bad', 'Good'] } },
    }),
    quiet: input({ questions: { a: score(['Bad', 'Good']) } }),
  },
  'contract/unknown-field': {
    fires: input({ questions: { a: { type: 'choice', instructions: 'Which?', options: ['x', 'y'] } } }),
    quiet: input({ questions: { a: choice({ options: 'Several options', levels: 'Levels' }) } }),
  },
  'contract/missing-criteria': {
    fires: input({ questions: { a: { type: 'score', instructions: 'How good?' } } }),
    quiet: input({ questions: { a: { type: 'noul', instructions: 'Is it good?' } } }),
  },
  'contract/criteria-shape': {
    fires: input({ questions: { a: choice(['billing', 'technical']) } }),
    quiet: input({
      questions: { a: choice({ billing: null, technical: 'Bugs' }), b: score(['Calm', 'Angry']) },
    }),
  },
  'contract/option-count': {
    fires: input({ questions: { a: choice(labels(256)) } }),
    quiet: input({ questions: { a: choice(labels(255)), b: choice(labels(2)) } }),
  },
  'contract/level-count': {
    fires: input({ questions: { a: score(['Only one level']) } }),
    quiet: input({ questions: { a: score(['Low', 'High']) } }),
  },
  'contract/level-text': {
    fires: input({ questions: { a: score(['Calm', '  ', 'Angry']) } }),
    quiet: input({ questions: { a: score(['Calm', 'Annoyed', 'Angry']) } }),
  },
  'score/numeric-level': {
    fires: input({ questions: { a: score(['1', '2', '3']) } }),
    quiet: input({ questions: { a: score(['1 - calm', '2 - annoyed', '3 - angry']) } }),
  },
  'criteria/duplicate-label': {
    fires: input({ questions: { a: choice({ Billing: null, ' billing ': null, tech: null }) } }),
    quiet: input({ questions: { a: choice({ billing: null, billings: null }) } }),
  },
  'criteria/taxonomy-dump': {
    fires: input({ questions: { a: choice({ x: long(61), y: null }) } }),
    quiet: input({ questions: { a: choice({ x: long(60), y: 'Something else entirely' }) } }),
  },
  'state/missing-field': {
    fires: input({ state: claimState, questions: { a: noul('Does `quote` support `claimed`?') } }),
    quiet: input({ state: claimState, questions: { a: noul('Does `quote` support `claim`?') } }),
  },
  'state/unused-field': {
    fires: input({
      state: { ...claimState, ticket_id: 'T-1' },
      questions: { a: noul('Does `quote` support `claim`?') },
    }),
    quiet: input({
      state: { ...claimState, ticket_id: 'T-1' },
      questions: { a: noul('Does `quote` support `claim` for this ticket ID?') },
    }),
  },
  'question/exact-quantity': {
    fires: input({ questions: { a: noul('How many refunds did the customer ask for?') } }),
    quiet: input({ questions: { a: noul('Did the customer ask for more than one refund?') } }),
  },
  'instructions/missing-noul': {
    fires: input({ questions: { a: { type: 'noul', criteria: { true: 'Urgent', false: 'Not urgent' } } } }),
    quiet: input({ questions: { a: noul('Is it urgent?') } }),
  },
  'instructions/missing': {
    fires: input({
      questions: { a: { type: 'choice', instructions: ' ', criteria: { billing: null, tech: null } } },
    }),
    quiet: input({ questions: { a: choice({ billing: null, tech: null }, { question: 'Which team?' }) } }),
  },
  'conversation/unknown-tool': {
    fires: input({
      conversation: TRACE,
      questions: { a: noul('Did the agent call the `issue_refund` tool?') },
    }),
    quiet: input({ conversation: TRACE, questions: { a: noul('Did the agent call `lookup_order` first?') } }),
  },
  'conversation/the-text': {
    fires: input({ conversation: TRACE, questions: { a: noul('Is the text polite?') } }),
    quiet: input({ state: 'Hello', questions: { a: noul('Is the text polite?') } }),
  },
  'model/alias-pinning': {
    fires: input({ mode: 'compare', models: ['model-1.13.0', 'model-preview'], questions: { a: noul() } }),
    quiet: input({ mode: 'single', model: 'model-latest', questions: { a: noul() } }),
  },
  'model/product-line': {
    fires: input({ model: 'model-1.13', questions: { a: noul() } }),
    quiet: input({ model: 'model-1.13.0', questions: { a: noul() } }),
  },
};

describe('each lint rule', () => {
  it('has a firing and a quiet case in this table', () => {
    expect(Object.keys(CASES).sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  for (const [ruleId, { fires, quiet }] of Object.entries(CASES)) {
    it(`${ruleId} fires on its case`, () => {
      const found = findings(fires, ruleId);
      expect(found.length).toBeGreaterThan(0);
      const rule = RULES.find((r) => r.id === ruleId)!;
      for (const f of found) {
        expect(f.explanation).toBe(rule.explanation);
        expect(f.message).toMatch(/^\S.*[.?!]$/);
      }
    });
    it(`${ruleId} stays quiet on the near miss`, () => {
      expect(findings(quiet, ruleId)).toEqual([]);
    });
  }
});

describe('RULES', () => {
  it('names each rule once, with a severity, a title and a one-line explanation', () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z]+\/[a-z-]+$/);
      expect(['error', 'warning', 'info']).toContain(rule.severity);
      expect(rule.title.length).toBeGreaterThan(5);
      expect(rule.explanation).not.toMatch(/\n/);
      expect(rule.explanation.length).toBeLessThan(200);
    }
  });
});

describe('taxonomy-dump thresholds', () => {
  it('flags many descriptions built from one template, and leaves varied ones alone', () => {
    expect(
      findings(input({ questions: { a: choice(templated(6)) } }), 'criteria/taxonomy-dump'),
    ).toHaveLength(1);
    expect(findings(input({ questions: { a: choice(templated(4)) } }), 'criteria/taxonomy-dump')).toEqual([]);
  });
  it('flags labels written as paths in a tree', () => {
    const tree = Object.fromEntries(
      ['Phones', 'Laptops', 'Tablets', 'Cameras', 'TVs'].map((l) => [`Electronics > ${l}`, null]),
    );
    const found = findings(input({ questions: { a: choice(tree) } }), 'criteria/taxonomy-dump');
    expect(found.map((f) => f.message).join()).toMatch(/5 labels .* paths in a tree/);
  });
});
