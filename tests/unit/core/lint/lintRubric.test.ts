// lintRubric as a whole: document order, robustness on any input, and the "new user" scenario.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintRubric } from '../../../../src/core/lint';
import { EXAMPLE_REQUEST } from '../../../../src/core/example';
import { NEW_USER_RUBRIC } from '../../../helpers/fixtures';
import { applyFix, input } from './lintHelpers';

describe('lintRubric', () => {
  it('shows the three explained warnings with fixes a new user meets: numeric levels, unused field, missing field', () => {
    const inp = input(structuredClone(NEW_USER_RUBRIC));
    const found = lintRubric(inp);
    expect(found.map((f) => [f.ruleId, f.severity, f.loc])).toEqual([
      ['state/unused-field', 'warning', ['state', 'internal_ticket']],
      ['state/missing-field', 'warning', ['questions', 'is_urgent', 'instructions']],
      ['score/numeric-level', 'warning', ['questions', 'frustration', 'criteria']],
    ]);
    for (const f of found) {
      expect(f.explanation.length).toBeGreaterThan(20);
      expect(f.fix?.edits.length).toBeGreaterThan(0);
    }
    // Fixing all three leaves a clean rubric.
    const s1 = applyFix(inp, found[0]!.fix).state;
    const s2 = applyFix({ ...inp, state: s1 }, found[1]!.fix).state;
    const q = applyFix(inp, found[2]!.fix).questions;
    expect(lintRubric({ ...inp, state: s2, questions: q })).toEqual([]);
  });

  it('orders findings by where they are in the documents (model, state, questions in their order), then rule id', () => {
    const found = lintRubric(
      input({
        model: 'model-1.13',
        state: { a: 1, used: 2 },
        questions: {
          zeta: { type: 'boolean', instructions: 'How many `used` items? `missing`' },
          alpha: { type: 'score', criteria: ['1', '2'] },
        },
      }),
    );
    expect(found.map((f) => `${f.ruleId} ${f.loc.join('.')}`)).toEqual([
      'model/product-line model',
      'state/unused-field state.a',
      'contract/boolean-type questions.zeta.type',
      'question/exact-quantity questions.zeta.instructions',
      'state/missing-field questions.zeta.instructions',
      'instructions/missing questions.alpha',
      'score/numeric-level questions.alpha.criteria',
    ]);
  });

  it('never throws and returns well-formed findings, whatever the editors hold', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    const questionish = fc.dictionary(
      fc.string({ maxLength: 6 }),
      fc.record(
        {
          type: fc.oneof(fc.constantFrom('choice', 'score', 'noul', 'boolean', 'Rating'), json),
          instructions: fc.oneof(fc.string(), json),
          criteria: json,
          options: json,
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(
        fc.oneof(json, questionish, fc.constant(undefined)),
        fc.oneof(json, fc.constant(undefined)),
        fc.string({ maxLength: 12 }),
        fc.constantFrom('single', 'compare', 'rows'),
        (questions, state, model, mode) => {
          const found = lintRubric({ questions, state, model, mode: mode as 'single' });
          for (const f of found) {
            expect(['error', 'warning', 'info']).toContain(f.severity);
            expect(typeof f.message).toBe('string');
            expect(Array.isArray(f.loc)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('does not read a field name across two separate texts', () => {
    const inp = input({
      state: { customer_name: 'Ann', claim: 'c' },
      questions: {
        a: { type: 'choice', instructions: 'Is `claim` right?', criteria: { customer: null, name: null } },
      },
    });
    expect(lintRubric(inp).map((f) => f.loc)).toEqual([['state', 'customer_name']]);
  });

  it('says nothing about the contract example', () => {
    const found = lintRubric(input({ ...EXAMPLE_REQUEST }));
    expect(found).toEqual([]);
  });
});
