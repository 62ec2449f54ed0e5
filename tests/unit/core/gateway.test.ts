import { describe, expect, it } from 'vitest';
import { validateRequestShape } from '../../../src/contract';
import {
  FALLBACK_MODEL,
  directModelId,
  isGatewayRequest,
  rewriteGatewayRequest,
} from '../../../src/core/gateway';
import { exampleRequest } from '../../helpers/fixtures';

const gatewaySample = () => ({
  state: { claim: 'The drug cures colds.' },
  model: 'acme/model-1.13.0',
  questions: {
    supported: {
      type: 'boolean',
      instructions: 'Is `claim` supported?',
      criteria: { true: 'Yes', false: 'No' },
    },
    topic: { type: 'choice', instructions: 'Which topic?', criteria: { health: null, other: null } },
  },
});

describe('directModelId', () => {
  it.each([
    ['vendor/model-latest', 'model-latest'],
    ['provider:model-1.13.0', 'model-1.13.0'],
    ['gw/Model-Preview', 'model-preview'],
    ['acme.model-1.14.0-v1:0', 'model-1.14.0'],
    ['route/model-1.13', 'model-1.13'],
    ['model-1.12.0', 'model-1.12.0'],
    ['model-latest', 'model-latest'],
    // Any model line, as the servers in docs/servers.md name them.
    ['acme/supermodel-latest', 'supermodel-latest'],
    ['typesafe/jev-1.13.0', 'jev-1.13.0'],
    ['~typesafe/jev-latest', 'jev-latest'],
    ['openrouter:jev-preview', 'jev-preview'],
    ['jev-1.13.0', 'jev-1.13.0'],
  ])('%s -> %s', (id, direct) => {
    expect(directModelId(id)).toBe(direct);
  });
  it.each(['gpt-4o', 'vendor/model-x', 'nimble:latest', ''])('%s names no direct model', (id) => {
    expect(directModelId(id)).toBeNull();
  });
});

describe('rewriteGatewayRequest', () => {
  it('rewrites boolean to noul and the gateway model id to the direct one, keeping the rest exactly', () => {
    const sample = gatewaySample();
    const result = rewriteGatewayRequest(sample)!;
    expect(result.problems).toEqual([
      'The model "acme/model-1.13.0" is a gateway id; the direct service calls it "model-1.13.0".',
      'Question "supported" uses the gateway type "boolean"; the direct service calls it "noul".',
    ]);
    expect(result.rewritten).toEqual({
      ...sample,
      model: 'model-1.13.0',
      questions: { ...sample.questions, supported: { ...sample.questions.supported, type: 'noul' } },
    });
    expect(validateRequestShape(sample).ok).toBe(false);
    expect(validateRequestShape(result.rewritten).ok).toBe(true);
    expect(sample.questions.supported.type).toBe('boolean'); // the input is not mutated
  });

  it('falls back to model-latest with a note when no direct id is recognisable', () => {
    const result = rewriteGatewayRequest({ ...exampleRequest(), model: 'acme/eval-large' })!;
    expect(result.rewritten.model).toBe(FALLBACK_MODEL);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatch(
      /names no direct model; it was set to "model-latest".*pick the version/,
    );
  });

  it('notes a product line reached through a gateway id', () => {
    const result = rewriteGatewayRequest({ ...exampleRequest(), model: 'gw:model-1.13' })!;
    expect(result.rewritten.model).toBe('model-1.13');
    expect(result.problems[1]).toMatch(/product line; pin a versioned id such as model-1.13.0/);
  });

  it('names every boolean question at once, and drops top-level fields the service does not define', () => {
    const body = {
      ...exampleRequest(),
      metadata: { team: 'x' },
      stream: false,
      questions: { a: { type: 'Boolean', instructions: 'A?' }, b: { type: 'bool', instructions: 'B?' } },
    };
    const result = rewriteGatewayRequest(body)!;
    expect(result.problems).toEqual([
      'Questions "a", "b" use the gateway type "boolean"; the direct service calls it "noul".',
      'The field "metadata" is not part of a direct request (only state, model, questions); it was dropped.',
      'The field "stream" is not part of a direct request (only state, model, questions); it was dropped.',
    ]);
    expect(Object.keys(result.rewritten)).toEqual(['state', 'model', 'questions']);
    expect(validateRequestShape(result.rewritten).ok).toBe(true);
  });

  it('leaves a direct request alone, and reads nothing from a body that is not an object', () => {
    const direct = exampleRequest();
    expect(rewriteGatewayRequest(direct)).toEqual({ problems: [], rewritten: direct });
    expect(isGatewayRequest(direct)).toBe(false);
    expect(isGatewayRequest(gatewaySample())).toBe(true);
    expect(rewriteGatewayRequest('text')).toBeNull();
    expect(rewriteGatewayRequest([gatewaySample()])).toBeNull();
  });
});
