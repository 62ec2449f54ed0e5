// The one translation entry of the proxy: the path and body a target takes, and its answer read back.
import { describe, expect, it } from 'vitest';
import {
  costLine,
  incoming,
  modelInPath,
  outgoing,
  readUsage,
  unwrapCloudflare,
  wrapCloudflare,
} from '../../../src/contract';
import type { WireSettings } from '../../../src/contract';

const decisions: WireSettings = { dialect: 'decisions', envelope: 'none', modelInPath: false };
const cloudflare: WireSettings = { dialect: 'systemone', envelope: 'cloudflare', modelInPath: true };
const plain: WireSettings = { dialect: 'systemone', envelope: 'none', modelInPath: false };

const request = {
  state: 'Checkout has been failing for every customer for the last hour.',
  model: 'clef',
  questions: {
    urgent: { type: 'noul', instructions: 'Is this urgent?' },
    team: {
      type: 'choice',
      instructions: 'Which team?',
      criteria: { billing: 'Payments', technical: 'Outages' },
    },
  },
};
const body = JSON.stringify(request);

describe('outgoing', () => {
  it('sends a plain target the very bytes the browser sent', () => {
    const out = outgoing(plain, '/v1/systemone', '{"any":"thing"}');
    expect(out).toEqual({ ok: true, path: '/v1/systemone', body: '{"any":"thing"}' });
  });

  it('puts the model in the path for Cloudflare, keeping it in the body', () => {
    const out = outgoing(cloudflare, '/client/v4/accounts/acc/ai/run/@cf/cloudflare/', body);
    expect(out).toEqual({ ok: true, path: '/client/v4/accounts/acc/ai/run/@cf/cloudflare/clef', body });
    expect(modelInPath('/run', '@cf/cloudflare/clef-flash')).toEqual({
      ok: true,
      path: '/run/@cf/cloudflare/clef-flash',
    });
    expect(modelInPath('/run', '../admin')).toMatchObject({ ok: false });
    expect(outgoing(cloudflare, '/run', JSON.stringify({ ...request, model: 'a/../b' }))).toMatchObject({
      ok: false,
      status: 422,
      body: { detail: { errors: [{ loc: ['model'] }] } },
    });
  });

  it('translates to the Decisions form, and refuses with the field what that form cannot carry', () => {
    const out = outgoing(decisions, '/v1/decisions', body);
    if (!out.ok) throw new Error('refused');
    expect(JSON.parse(out.body)).toMatchObject({
      input: request.state,
      questions: [
        { type: 'predicate', name: 'urgent' },
        { type: 'choice', name: 'team' },
      ],
    });
    const noInstructions = JSON.stringify({ ...request, questions: { urgent: { type: 'noul' } } });
    expect(outgoing(decisions, '/v1/decisions', noInstructions)).toMatchObject({
      ok: false,
      status: 422,
      body: {
        detail: { error_type: 'invalid_request', errors: [{ loc: ['questions', 'urgent', 'instructions'] }] },
      },
    });
  });
});

describe('incoming', () => {
  it('unwraps a Cloudflare envelope and normalises its 4-decimal answers', () => {
    const result = {
      model: 'clef',
      answers: {
        urgent: { type: 'noul', noul: 0.9551 },
        team: {
          type: 'choice',
          choice: 'technical',
          confidence: 0.53,
          probabilities: { billing: 0.2349, technical: 0.7649 },
        },
      },
      usage: { input_tokens: 346, output_tokens: 0 },
    };
    const read = incoming(
      cloudflare,
      { status: 200, headers: {}, body: JSON.stringify(wrapCloudflare(result)) },
      body,
      { normalise: true },
    );
    const out = JSON.parse(read.body);
    expect(out.model).toBe('clef');
    expect(out.requested_model).toBe('clef');
    expect(out.answers.team.probabilities.technical).toBeCloseTo(0.7649 / 0.9998, 12);
    expect(out.answers.team.reported.confidence).toBe(0.53);
    expect(unwrapCloudflare({ result: null, success: false, errors: [] })).toEqual({
      ok: false,
      problem: 'the envelope says success: false',
    });
  });

  it('reads a Decisions answer back, and moves a Decisions field error to the interface field', () => {
    const answer = {
      model: 'gpt-6-luna',
      answers: [
        { type: 'predicate', name: 'urgent', probability: 0.97 },
        { type: 'refusal', name: 'team' },
      ],
      usage: { input_tokens: 40, output_tokens: 0, total_tokens: 40 },
    };
    const read = incoming(
      decisions,
      { status: 200, headers: { 'x-litellm-response-cost': '0.000004' }, body: JSON.stringify(answer) },
      body,
      { normalise: true },
    );
    expect(JSON.parse(read.body)).toMatchObject({
      model: 'gpt-6-luna',
      requested_model: 'clef',
      answers: { urgent: { type: 'noul', noul: 0.97 }, team: { type: 'refusal', question_type: 'choice' } },
      cost: { amount: 0.000004, source: 'the x-litellm-response-cost header' },
    });
    const error = {
      error: {
        message: 'Provide between 2 and 255 choices.',
        type: 'invalid_request_error',
        param: 'questions[1].choices',
        code: null,
      },
    };
    const failed = incoming(decisions, { status: 400, headers: {}, body: JSON.stringify(error) }, body, {
      normalise: true,
    });
    expect(JSON.parse(failed.body)).toEqual({
      detail: {
        error_type: 'invalid_request',
        message: 'Provide between 2 and 255 choices.',
        errors: [{ loc: ['questions', 'team', 'criteria'], msg: 'Provide between 2 and 255 choices.' }],
      },
      upstream: error,
    });
  });

  it('passes an answer it cannot read through unchanged, saying why', () => {
    const read = incoming(decisions, { status: 200, headers: {}, body: '{"answers":{}}' }, body, {
      normalise: true,
    });
    expect(read.body).toBe('{"answers":{}}');
    expect(read.problem).toMatch(/model/);
  });
});

describe('usage and cost as each server reports them', () => {
  it('keeps a missing output_tokens as missing, reads cached tokens and a cost from the body or a header', () => {
    expect(readUsage({ usage: { input_tokens: 10 } })).toEqual({
      inputTokens: 10,
      outputTokens: null,
      cachedTokens: null,
      cost: null,
    });
    expect(
      readUsage({
        usage: {
          input_tokens: 10,
          output_tokens: 4,
          cost: 0.0012,
          input_tokens_details: { cached_tokens: 6 },
        },
      }),
    ).toEqual({
      inputTokens: 10,
      outputTokens: 4,
      cachedTokens: 6,
      cost: { amount: 0.0012, source: 'usage.cost in the answer' },
    });
    expect(readUsage({ usage: { input_tokens: 10 } }, { 'x-litellm-response-cost': '2.1e-5' }).cost).toEqual({
      amount: 2.1e-5,
      source: 'the x-litellm-response-cost header',
    });
  });

  it('says where the cost line figure came from', () => {
    expect(costLine({ usage: { input_tokens: 1_000_000 } })).toEqual({
      amount: 0.042,
      reported: false,
      source: 'estimated from 1,000,000 input tokens at the list price of $0.042 per million; output is free',
    });
    expect(
      costLine({
        usage: { input_tokens: 5 },
        cost: { amount: 0.5, source: 'the x-litellm-response-cost header' },
      }),
    ).toEqual({
      amount: 0.5,
      reported: true,
      source: 'reported by the server in the x-litellm-response-cost header',
    });
  });
});
