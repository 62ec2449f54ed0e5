// Session fixtures: a record of the current schema, and records of the first schema version as it was stored.
import type { EvaluateRequest, EvaluateResponse } from '../../src/contract';
import { expect } from 'vitest';
import type { Session } from '../../src/core/session';
import type { SessionV1 } from '../../src/core/sessionMigrations';
import { EXAMPLE_REQUEST } from '../../src/core/example';
import { exampleResponse } from './fixtures';

/** The contract's example with named fields in the state, so sessions carry a JSON state. */
export const sampleRequest: EvaluateRequest = {
  ...EXAMPLE_REQUEST,
  state: { message: 'Help! My payouts have been failing for 3 days.', locale: 'en' },
  questions: {
    ...EXAMPLE_REQUEST.questions,
    is_urgent: {
      ...EXAMPLE_REQUEST.questions.is_urgent!,
      instructions: 'Does the `message` convey urgency?',
    },
  },
};

export const sampleResponse: EvaluateResponse = exampleResponse();

/** A complete current-version session with one answered run and one failed run. */
export function sampleSession(overrides: Partial<Session> = {}): Session {
  return {
    schemaVersion: 2,
    id: 'session-1',
    name: 'Support triage',
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:05:00.000Z',
    doc: {
      stateMode: 'json',
      stateText: JSON.stringify(sampleRequest.state, null, 2),
      questionsText: JSON.stringify(sampleRequest.questions, null, 2),
      targetId: 'local',
      model: 'model-latest',
    },
    runs: [
      {
        id: 'run-1',
        at: '2026-03-01T10:01:00.000Z',
        targetId: 'local',
        request: sampleRequest,
        response: sampleResponse,
        latencyMs: 412,
        attempts: [{ attempt: 0, outcome: 200, requestId: 'req-1', durationMs: 410 }],
      },
      {
        id: 'run-2',
        at: '2026-03-01T10:02:00.000Z',
        targetId: 'local',
        request: { ...sampleRequest, model: 'model-1.13' },
        error: {
          kind: 'validation',
          status: 422,
          message:
            'The request failed validation (422) at model: unknown model id; fix that field and send again.',
          fieldErrors: [{ loc: ['model'], msg: 'unknown model id' }],
          possiblyBilled: false,
        },
        latencyMs: 20,
        attempts: [
          { attempt: 0, outcome: 422, requestId: 'req-2', durationMs: 19, message: 'unknown model id' },
        ],
      },
    ],
    ...overrides,
  };
}

/** Records of the first schema version, as version 1 of the workbench stored them. */
export const v1Records: SessionV1[] = [
  {
    schemaVersion: 1,
    id: 'v1-alpha',
    name: 'Tone rubric (old)',
    created: '2025-11-02T08:00:00.000Z',
    updated: '2025-11-03T09:30:00.000Z',
    state: '{\n  "message": "Help! My payouts have been failing for 3 days.",\n  "locale": "en"\n}',
    questions: JSON.stringify(sampleRequest.questions, null, 2),
    target: 'local',
    model: 'model-latest',
    runs: [
      { at: '2025-11-02T08:10:00.000Z', request: sampleRequest, response: sampleResponse, latencyMs: 380 },
      {
        at: '2025-11-02T08:12:00.000Z',
        request: sampleRequest,
        error: 'The service is overloaded (529).',
        latencyMs: 5000,
      },
    ],
  },
  {
    schemaVersion: 1,
    id: 'v1-beta',
    name: 'Plain text state',
    created: '2025-12-01T12:00:00.000Z',
    updated: '2025-12-01T12:00:00.000Z',
    state: '[URGENT] the export button does nothing',
    questions: '{ "is_bug": { "type": "noul", "instructions": "Is this a bug report?" ', // unfinished typing is kept
    target: 'production',
    model: 'model-1.13.0',
    runs: [],
  },
];

/** A session as read back from storage: the same content, with the revision storage gave it (any number). */
export const asStored = (session: Session): Session =>
  ({ ...session, revision: expect.any(Number) as unknown as number }) satisfies Session;
