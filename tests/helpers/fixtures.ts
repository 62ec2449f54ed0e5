// Request fixtures shared by tests: the contract's example, and builders for variations of it.
import type { EvaluateRequest } from '../../src/contract';

/** The contract's example request, verbatim. */
export const exampleRequest = (): EvaluateRequest => ({
  state: 'Help! My payouts have been failing for 3 days.',
  model: 'model-latest',
  questions: {
    is_urgent: {
      type: 'noul',
      instructions: 'Does this convey urgency?',
      criteria: { true: 'Explicitly time-sensitive', false: 'No urgency expressed' },
    },
    department: {
      type: 'choice',
      instructions: 'Which team should handle this?',
      criteria: { billing: 'Payments and refunds', technical: 'Bugs and integrations', other: null },
    },
    frustration: {
      type: 'score',
      instructions: 'How frustrated is the customer?',
      criteria: ['Calm, just stating facts', 'Frustrated but civil', 'Angry or threatening to leave'],
    },
  },
});

/** A choice question with n labels named l0..l(n-1). */
export const choiceWith = (n: number) => ({
  type: 'choice' as const,
  instructions: 'Pick one',
  criteria: Object.fromEntries(Array.from({ length: n }, (_, i) => [`l${i}`, `label number ${i}`])),
});

/** A score question with n described levels. */
export const scoreWith = (n: number) => ({
  type: 'score' as const,
  instructions: 'Rate it',
  criteria: Array.from({ length: n }, (_, i) => `level described as ${i}`),
});
