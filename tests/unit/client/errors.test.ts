import { describe, expect, it } from 'vitest';
import type { AttemptReport } from '../../../src/client';
import { describeNetworkError, failureMessage, statusKind, toEvaluationError } from '../../../src/client';

const attempt = (n: number, extra: Partial<AttemptReport> = {}): AttemptReport => ({
  attempt: n,
  outcome: 500,
  durationMs: 1,
  ...extra,
});

// A message is one sentence: it ends once, with a period, and holds no other sentence end.
const oneSentence = (message: string) => {
  expect(message).toMatch(/^[A-Z].*\.$/);
  expect(message.slice(0, -1)).not.toMatch(/[.!?] [A-Z]/);
};

describe('statusKind', () => {
  it('maps each status class to its kind', () => {
    expect([401, 422, 429, 529, 500, 503, 404, 408].map((s) => statusKind(s))).toEqual([
      'auth',
      'validation',
      'rate_limited',
      'overloaded',
      'http',
      'http',
      'http',
      'http',
    ]);
  });
});

describe('failureMessage', () => {
  const status = (
    s: number,
    serviceMessage = 'Something.',
    fieldErrors: { loc: string[]; msg: string }[] = [],
  ) => ({ type: 'status', status: s, serviceMessage, fieldErrors }) as const;

  it('tells a 401 to check the key', () => {
    const m = failureMessage(status(401), 1);
    expect(m).toContain('check the key for this target');
    oneSentence(m);
  });

  it('names the fields of a 422', () => {
    const one = failureMessage(
      status(422, 'Bad.', [
        { loc: ['questions', 'tone', 'criteria'], msg: 'A score question needs at least 2 levels.' },
      ]),
      1,
    );
    expect(one).toBe(
      'The request failed validation (422) at questions.tone.criteria: A score question needs at least 2 levels; fix that field and send again.',
    );
    const many = failureMessage(
      status(422, 'Bad.', [
        { loc: ['model'], msg: 'x' },
        { loc: ['state'], msg: 'y' },
        { loc: ['questions', 'a', 'type'], msg: 'z' },
        { loc: ['metadata'], msg: 'w' },
      ]),
      1,
    );
    expect(many).toBe(
      'The request failed validation (422) at model, state, questions.a.type and 1 more; fix those fields and send again.',
    );
    expect(failureMessage(status(422, 'The body is wrong.'), 1)).toContain('The body is wrong; fix it');
  });

  it('counts retries for 429 and 529', () => {
    const m429 = failureMessage(status(429), 3);
    expect(m429).toContain('(429): retried 2 times, then gave up');
    oneSentence(m429);
    expect(failureMessage(status(529), 2)).toContain('(529): retried 1 time, then gave up');
    expect(failureMessage(status(529), 1)).toContain('(529): not retried');
  });

  it('warns that a timeout may have been billed', () => {
    const m = failureMessage({ type: 'timeout', timeoutMs: 200 }, 3);
    expect(m).toContain('within 0.2 s (3 attempts)');
    expect(m).toContain('may have run and been billed');
    oneSentence(m);
  });

  it('keeps the service sentence for other statuses and says what to do', () => {
    expect(failureMessage(status(404, 'That route does not exist on this service.'), 1)).toBe(
      "That route does not exist on this service (404): check the target's base URL and evaluate path.",
    );
    expect(failureMessage(status(503, 'Down for maintenance.'), 3)).toBe(
      'Down for maintenance (503): retried 2 times, then gave up; try again later.',
    );
  });

  it('describes network failures and bad responses in one sentence', () => {
    const net = failureMessage(
      {
        type: 'network',
        url: 'http://127.0.0.1:9/v1/evaluate',
        detail: 'connect ECONNREFUSED',
        invalidUrl: false,
      },
      3,
    );
    expect(net).toContain('http://127.0.0.1:9/v1/evaluate (connect ECONNREFUSED) after 3 attempts');
    oneSentence(net);
    const bad = failureMessage(
      {
        type: 'bad_response',
        status: 200,
        what: 'evaluation response',
        problem: 'model: Invalid input',
        billed: true,
      },
      1,
    );
    expect(bad).toContain('not a valid evaluation response (model: Invalid input); it was billed');
  });
});

describe('toEvaluationError', () => {
  it('carries the facts: kind, status, request id of the latest response, billing and retryability', () => {
    const attempts = [
      attempt(0, { outcome: 529, requestId: 'a', possiblyBilled: true, retryInMs: 120 }),
      attempt(1, { outcome: 'timeout', possiblyBilled: true }),
    ];
    const error = toEvaluationError({ type: 'timeout', timeoutMs: 100 }, attempts);
    expect(error.kind).toBe('timeout');
    expect(error.status).toBeUndefined();
    expect(error.requestId).toBe('a');
    expect(error.possiblyBilled).toBe(true);
    expect(error.retryable).toBe(true);
    expect(error.attempts).toBe(attempts);
  });

  it('marks 401 and 422 not retryable and unbilled', () => {
    const e401 = toEvaluationError({ type: 'status', status: 401, serviceMessage: 'No.', fieldErrors: [] }, [
      attempt(0, { outcome: 401 }),
    ]);
    expect([e401.kind, e401.retryable, e401.possiblyBilled, e401.status]).toEqual([
      'auth',
      false,
      false,
      401,
    ]);
    const e422 = toEvaluationError(
      { type: 'status', status: 422, serviceMessage: 'No.', fieldErrors: [{ loc: ['model'], msg: 'm' }] },
      [attempt(0, { outcome: 422 })],
    );
    expect(e422.fieldErrors).toEqual([{ loc: ['model'], msg: 'm' }]);
    expect(e422.retryable).toBe(false);
  });
});

describe('describeNetworkError', () => {
  const nodeError = (code: string, message: string) =>
    new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });

  it('knows a refused connection never sent anything', () => {
    expect(describeNetworkError(nodeError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'))).toEqual({
      detail: 'connect ECONNREFUSED 127.0.0.1:9',
      notSent: true,
      invalidUrl: false,
    });
  });

  it('treats a reset or a bare browser error as possibly sent', () => {
    expect(describeNetworkError(nodeError('UND_ERR_SOCKET', 'other side closed')).notSent).toBe(false);
    expect(describeNetworkError(new TypeError('Failed to fetch'))).toEqual({
      detail: 'Failed to fetch',
      notSent: false,
      invalidUrl: false,
    });
  });

  it('recognises an invalid URL', () => {
    const e = new TypeError('Failed to parse URL from /api/x', {
      cause: Object.assign(new TypeError('Invalid URL'), { code: 'ERR_INVALID_URL' }),
    });
    expect(describeNetworkError(e)).toMatchObject({ notSent: true, invalidUrl: true });
  });
});

describe('kinds read from the body', () => {
  it('takes a 400 with field errors as validation, located like a 422', () => {
    const failure = {
      type: 'status' as const,
      status: 400,
      serviceMessage: 'Invalid value',
      fieldErrors: [{ loc: ['questions', 'tone', 'criteria'], msg: 'A score needs 2 levels' }],
    };
    expect(statusKind(400, failure)).toBe('validation');
    expect(failureMessage(failure, 1)).toBe(
      'The request failed validation (400) at questions.tone.criteria: A score needs 2 levels; fix that field and send again.',
    );
    expect(statusKind(400)).toBe('http');
  });

  it('stops on a quota and says so in a plain sentence, never retryable', () => {
    const failure = {
      type: 'status' as const,
      status: 429,
      serviceMessage: 'You have used up your daily free allocation of 10,000 neurons.',
      fieldErrors: [],
      quota: true,
      code: '4006',
    };
    const error = toEvaluationError(failure, [{ attempt: 0, outcome: 429, durationMs: 3 }]);
    expect(error.kind).toBe('quota');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      "The target's quota is used up (429, code 4006: you have used up your daily free allocation of 10,000 neurons) and will not come back within this run, so nothing more is sent; wait for the quota to reset or raise it, then run again.",
    );
    oneSentence(error.message);
  });

  it('says when a model is not a decision model', () => {
    const failure = {
      type: 'status' as const,
      status: 501,
      serviceMessage: 'This model is not a decision model.',
      fieldErrors: [],
      notDecisionModel: true,
    };
    expect(statusKind(501, failure)).toBe('not_decision_model');
    expect(failureMessage(failure, 1)).toBe(
      'The target says this model is not a decision model (501: this model is not a decision model); choose a model that answers decisions on this target.',
    );
  });
});
