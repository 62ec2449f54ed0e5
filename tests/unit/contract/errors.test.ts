import { describe, expect, it } from 'vitest';
import { ErrorBodySchema, errorBody, readErrorBody } from '../../../src/contract';

describe('error bodies', () => {
  it('builds and reads the reference body with field locations', () => {
    const body = errorBody('invalid_request', 'The request failed validation', [
      { loc: ['questions', 'tone', 'criteria'], msg: 'A score question needs at least 2 levels.' },
    ]);
    expect(ErrorBodySchema.parse(body)).toEqual(body);
    expect(readErrorBody(422, JSON.stringify(body))).toEqual({
      message: 'The request failed validation.',
      errors: [{ loc: ['questions', 'tone', 'criteria'], msg: 'A score question needs at least 2 levels.' }],
    });
  });

  it.each([
    ['plain text', 'upstream exploded', 'Upstream exploded.'],
    ['{"error": "..."}', '{"error": "invalid api key"}', 'Invalid api key.'],
    [
      '{"error": {"message": "..."}}',
      '{"error": {"type": "x", "message": "quota exhausted"}}',
      'Quota exhausted.',
    ],
    ['{"message": "..."}', '{"message": "Model not found!"}', 'Model not found!'],
    ['{"detail": "..."}', '{"detail": "Not authenticated"}', 'Not authenticated.'],
  ])('reads %s into one sentence', (_, text, message) => {
    expect(readErrorBody(400, text).message).toBe(message);
  });

  it('reads a FastAPI-style detail list with locations', () => {
    const text = JSON.stringify({
      detail: [{ loc: ['body', 'model'], msg: 'field required', type: 'missing' }],
    });
    expect(readErrorBody(422, text)).toEqual({
      message: 'Field required.',
      errors: [{ loc: ['body', 'model'], msg: 'field required' }],
    });
  });

  it('falls back to a sentence for the status when the body says nothing readable', () => {
    expect(readErrorBody(529, '')).toEqual({ message: 'The service is overloaded.', errors: [] });
    expect(readErrorBody(502, '<html><body>Bad gateway</body></html>').message).toBe(
      'The service could not be reached through its gateway.',
    );
    expect(readErrorBody(418, '{}').message).toBe('The service answered with status 418.');
    expect(readErrorBody(500, 'x'.repeat(400)).message).toBe('The service had an internal error.');
  });
});
