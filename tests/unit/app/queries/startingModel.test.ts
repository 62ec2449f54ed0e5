// The model a new session starts with on a target: the example's when the target offers it (or lists nothing), else
// the first alias it lists, else its first model.
import { describe, expect, it } from 'vitest';
import { startingModel } from '../../../../src/app/queries/models';

describe('startingModel', () => {
  it.each([
    [['model-latest', 'model-preview'], undefined],
    [[], undefined],
    [['jev-latest', 'jev-preview'], 'jev-latest'],
    [['typesafe/jev-1.14', '~typesafe/jev-latest'], '~typesafe/jev-latest'],
    [['Kev-4B', 'laya'], 'Kev-4B'],
  ] as const)('on a target listing %j starts with %s', (listed, expected) => {
    expect(startingModel(listed, 'model-latest')).toBe(expected);
  });
});
