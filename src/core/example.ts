// The example session a new user starts with: the contract's example request, one question of each kind.
import type { EvaluateRequest } from '../contract';
import type { SessionDoc } from './session';

/** The example request of the wire contract. */
export const EXAMPLE_REQUEST: EvaluateRequest = {
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
};

/** The editors' content for the example request, against a target (the local reference by default). */
export function exampleDoc(targetId = 'local'): SessionDoc {
  const { state } = EXAMPLE_REQUEST;
  return {
    stateMode: typeof state === 'string' ? 'text' : 'json',
    stateText: typeof state === 'string' ? state : JSON.stringify(state, null, 2),
    questionsText: `${JSON.stringify(EXAMPLE_REQUEST.questions, null, 2)}\n`,
    targetId,
    model: EXAMPLE_REQUEST.model,
  };
}
