// Model id rules across the three run modes.
import { describe, expect, it } from 'vitest';
import { findings, input } from './lintHelpers';

const q = { a: { type: 'noul', instructions: 'Is it urgent?' } };

describe('model rules', () => {
  it('flags each alias column of a comparison once, at the model', () => {
    const found = findings(
      input({
        mode: 'compare',
        models: ['model-latest', 'model-1.12.0', 'model-latest', 'model-preview'],
        questions: q,
      }),
      'model/alias-pinning',
    );
    expect(found.map((f) => f.message)).toEqual([
      expect.stringMatching(/^"model-latest" is an alias .* comparison/),
      expect.stringMatching(/^"model-preview" is an alias/),
    ]);
    expect(found.every((f) => f.loc.join() === 'model' && f.fix === undefined)).toBe(true);
  });

  it('reads the single model in a file run when no list is given, and never flags an alias in a single run', () => {
    expect(
      findings(input({ mode: 'rows', model: 'model-latest', questions: q }), 'model/alias-pinning')[0]
        ?.message,
    ).toMatch(/file run/);
    expect(
      findings(input({ mode: 'single', model: 'model-latest', questions: q }), 'model/alias-pinning'),
    ).toEqual([]);
    expect(
      findings(
        input({ mode: 'rows', models: ['model-1.14.0'], model: 'model-latest', questions: q }),
        'model/alias-pinning',
      ),
    ).toEqual([]);
  });

  it('flags a product-line id in any mode, naming a versioned id, without a fix', () => {
    const [single] = findings(input({ model: 'model-1.13', questions: q }), 'model/product-line');
    expect(single!.message).toContain('model-1.13.0');
    expect(single!.fix).toBeUndefined();
    expect(
      findings(
        input({ mode: 'compare', models: ['model-1.12', 'model-1.13.0'], questions: q }),
        'model/product-line',
      ),
    ).toHaveLength(1);
  });
});
