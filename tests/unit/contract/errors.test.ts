import { describe, expect, it } from 'vitest';
import { ErrorBodySchema, errorBody, parseParamPath, readErrorBody } from '../../../src/contract';

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

// Every error shape the servers of docs/dialects.md send, with the body each source shows.
describe('error bodies of every server', () => {
  it.each([
    [
      'FastAPI detail[] with loc (TypeSafe, jev serve)',
      422,
      {
        detail: [
          {
            loc: ['body', 'questions', 'tone', 'criteria'],
            msg: 'List should have at least 2 items',
            type: 'too_short',
          },
        ],
      },
      {
        message: 'List should have at least 2 items.',
        errors: [
          { loc: ['body', 'questions', 'tone', 'criteria'], msg: 'List should have at least 2 items' },
        ],
      },
    ],
    [
      '{error: "..."} (Ollama)',
      400,
      { error: 'model "kev" not found, try pulling it first' },
      { message: 'Model "kev" not found, try pulling it first.', errors: [] },
    ],
    [
      '{error:{code,message,type}} (llama-server)',
      501,
      { error: { code: 501, message: 'This model is not a decision model', type: 'not_supported_error' } },
      { message: 'This model is not a decision model.', errors: [], code: '501', notDecisionModel: true },
    ],
    [
      '{error:{message,code}} (OpenRouter, llamacpp-jev)',
      422,
      { error: { message: 'too many questions', code: 'validation' } },
      { message: 'Too many questions.', errors: [], code: 'validation' },
    ],
    [
      '{error:{message,field}} (laya-serve)',
      422,
      { error: { message: 'must have 2 to 10 levels', field: 'questions.tone.criteria' } },
      {
        message: 'Must have 2 to 10 levels.',
        errors: [{ loc: ['questions', 'tone', 'criteria'], msg: 'must have 2 to 10 levels' }],
      },
    ],
    [
      '{error:{message,type,param,code}} (OpenAI, Perplexity)',
      400,
      {
        error: {
          message: 'Provide between 2 and 255 choices.',
          type: 'invalid_request_error',
          param: 'questions[2].choices',
          code: null,
        },
      },
      {
        message: 'Provide between 2 and 255 choices.',
        errors: [{ loc: ['questions', 2, 'choices'], msg: 'Provide between 2 and 255 choices.' }],
        code: 'invalid_request_error',
      },
    ],
    [
      '{detail:{error_type,message}} (SubQ)',
      422,
      { detail: { error_type: 'validation_error', message: 'state is empty' } },
      { message: 'State is empty.', errors: [] },
    ],
    [
      'Cloudflare envelope errors[]',
      400,
      {
        success: false,
        errors: [{ code: 5006, message: 'Unknown question type' }],
        messages: [],
        result: null,
      },
      { message: 'Unknown question type.', errors: [], code: '5006' },
    ],
    [
      'Cloudflare envelope with the model’s own body nested in the message',
      422,
      {
        success: false,
        errors: [
          {
            code: 5012,
            message:
              'AiError: {"detail":[{"loc":["body","questions"],"msg":"At most 64 questions"}]} (a1b2c3)',
          },
        ],
      },
      {
        message: 'At most 64 questions.',
        errors: [{ loc: ['body', 'questions'], msg: 'At most 64 questions' }],
        code: '5012',
      },
    ],
    [
      'Cloudflare daily allocation',
      429,
      {
        success: false,
        errors: [
          {
            code: 4006,
            message:
              "you have used up your daily free allocation of 10,000 neurons, please upgrade to Cloudflare's Workers Paid plan",
          },
        ],
      },
      {
        message:
          "You have used up your daily free allocation of 10,000 neurons, please upgrade to Cloudflare's Workers Paid plan.",
        errors: [],
        code: '4006',
        quota: true,
      },
    ],
  ])('%s', (_, status, body, expected) => {
    expect(readErrorBody(status, JSON.stringify(body))).toEqual(expected);
  });

  it('does not take a passing rate limit for a quota', () => {
    const capacity = { success: false, errors: [{ code: 3040, message: 'Capacity temporarily exceeded' }] };
    expect(readErrorBody(429, JSON.stringify(capacity)).quota).toBeUndefined();
    expect(
      readErrorBody(
        429,
        '{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}',
      ).quota,
    ).toBe(true);
  });

  it('reads plain text and HTML into a sentence', () => {
    expect(readErrorBody(404, '404 page not found')).toEqual({ message: '404 page not found.', errors: [] });
    expect(readErrorBody(504, '<html><head><title>504 Gateway Time-out</title></head></html>').message).toBe(
      'The service gateway timed out.',
    );
    expect(readErrorBody(400, 'model "llama3" is not supported by System One').notDecisionModel).toBe(true);
  });

  it('reads a param path into a loc', () => {
    expect(parseParamPath('questions[1].choices[0].value')).toEqual(['questions', 1, 'choices', 0, 'value']);
    expect(parseParamPath('questions.tone.criteria.2')).toEqual(['questions', 'tone', 'criteria', 2]);
  });
});
