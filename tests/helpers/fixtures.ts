// Fixtures shared by tests: the contract's example request, builders for variations of it, and a stored rows run.
import type { EvaluateRequest, EvaluateResponse } from '../../src/contract';
import { EXAMPLE_REQUEST } from '../../src/core/example';
import { ROWS_SCHEMA_VERSION } from '../../src/core/rows/records';
import type { RowRun } from '../../src/core/rows/records';

/** The contract's example request, a fresh copy per call so a test may mutate it. */
export const exampleRequest = (): EvaluateRequest => structuredClone(EXAMPLE_REQUEST);

/** The contract's example response, verbatim. */
export const exampleResponse = (): EvaluateResponse => ({
  model: 'model-1.13.0',
  answers: {
    is_urgent: { type: 'noul', noul: 0.93 },
    department: {
      type: 'choice',
      choice: 'technical',
      confidence: 0.72,
      probabilities: { billing: 0.14, technical: 0.81, other: 0.05 },
    },
    frustration: {
      type: 'score',
      score: 1.42,
      confidence: 0.13,
      legend: {
        '0': 'Calm, just stating facts',
        '1': 'Frustrated but civil',
        '2': 'Angry or threatening to leave',
      },
      probabilities: { '0': 0.12, '1': 0.34, '2': 0.54 },
    },
  },
  usage: { input_tokens: 318, output_tokens: 0 },
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

/**
 * The rubric of issue 8's new user: numeric score levels, a state field no question uses (`internal_ticket`) and a
 * backtick field the state lacks (`tier`).
 */
export const NEW_USER_RUBRIC = {
  state: { message: 'My payouts failed.', plan: 'pro', internal_ticket: 'T-981' },
  questions: {
    is_urgent: { type: 'noul', instructions: 'Does the `message` convey urgency for a `tier` customer?' },
    frustration: {
      type: 'score',
      instructions: 'How frustrated is the customer?',
      criteria: ['1', '2', '3'],
    },
    team: {
      type: 'choice',
      instructions: 'Which team handles the `plan`?',
      criteria: { billing: null, technical: null },
    },
  },
} as const;

/** A stored rows run of a CSV with `id` and `text` columns, ready to start; tests override what they look at. */
export const storedRun = (overrides: Partial<RowRun> & Pick<RowRun, 'id' | 'questions'>): RowRun => ({
  schemaVersion: ROWS_SCHEMA_VERSION,
  fileName: 'rows.csv',
  format: 'csv',
  columns: ['id', 'text'],
  createdAt: 1,
  updatedAt: 1,
  targetId: 'local',
  model: 'model-1.13.0',
  mapping: { mode: 'text', column: 'text', idColumn: 'id' },
  pacing: { requestsPerMinute: 1200, concurrency: 4, tokensPerSecond: 250_000 },
  maxCost: null,
  rowCount: 0,
  issues: [],
  totalTokens: 0,
  status: 'ready',
  halt: null,
  ...overrides,
});

/** The support-ticket rubric the command line, scale-out and workspace tests route tickets with. */
export const DEPARTMENT_QUESTION = {
  department: {
    type: 'choice',
    instructions: 'Which team should handle this ticket?',
    criteria: {
      billing: 'Payments, charges and refunds',
      technical: 'Errors, outages and bugs',
      other: null,
    },
  },
} as const;
