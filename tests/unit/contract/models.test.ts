import { describe, expect, it } from 'vitest';
import { ModelListSchema, classifyModelId, estimateCost, modelIdProblem } from '../../../src/contract';

describe('model ids', () => {
  it.each([
    ['model-latest', 'alias'],
    ['model-preview', 'alias'],
    ['model-1.13.0', 'versioned'],
    ['model-1.12.0', 'versioned'],
    ['model-1.13', 'product-line'],
    ['gpt-4', 'unknown'],
    ['model-1.13.0-beta', 'unknown'],
  ] as const)('%s is %s', (id, kind) => {
    expect(classifyModelId(id)).toBe(kind);
  });

  it('says what is wrong with a product line, an unknown id and an empty one', () => {
    expect(modelIdProblem('model-1.13.0')).toBeNull();
    expect(modelIdProblem('model-latest')).toBeNull();
    expect(modelIdProblem('model-1.13')).toMatch(/product line.*model-1\.13\.0/);
    expect(modelIdProblem('banana', ['model-latest'])).toMatch(/not in this target's model list/);
    // A server with no model list still runs with a typed id: the server decides.
    expect(modelIdProblem('banana')).toBeNull();
    expect(modelIdProblem('  ', ['model-latest'])).toMatch(/Choose a model/);
    expect(modelIdProblem('  ')).toMatch(/Type a model id/);
  });

  it('accepts a truncated id only when the list offers it', () => {
    expect(modelIdProblem('model-1.13', ['model-latest', 'model-1.13'])).toBeNull();
  });

  it('parses the model list and refuses a list without names', () => {
    const list = { models: [{ name: 'model-latest', description: 'Current', release_date: '2026-09-01' }] };
    expect(ModelListSchema.parse(list).models[0]!.name).toBe('model-latest');
    expect(ModelListSchema.safeParse({ models: [{ description: 'x' }] }).success).toBe(false);
    expect(ModelListSchema.safeParse(['model-latest']).success).toBe(false);
  });
});

describe('cost', () => {
  it('prices input tokens at the published figure', () => {
    expect(estimateCost(1_000_000)).toBeCloseTo(0.042, 10);
    expect(estimateCost(318)).toBeCloseTo(0.000013356, 12);
  });
});
