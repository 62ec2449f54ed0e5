// The id rules over the ids each server really uses (docs/servers.md): alias, versioned and product line by shape for
// any model line, a listed name as a model, and every version feature built on them (pin, lint, dedup, rewrite).
import { describe, expect, it } from 'vitest';
import { ModelListSchema, classifyModelId, modelIdProblem, modelListShape } from '../../../src/contract';
import { pinSuggestion } from '../../../src/core/compare';
import { directModelId } from '../../../src/core/gateway';
import { pinnedModel } from '../../../src/core/rows/dedup';
import { lintRubric } from '../../../src/core/lint';

describe('ids by shape, for every model line', () => {
  it.each([
    // The hosted service [TS2]: aliases and a versioned id; a truncated id names a product line.
    ['jev-latest', 'alias'],
    ['jev-preview', 'alias'],
    ['jev-1.13.0', 'versioned'],
    ['jev-1.13', 'product-line'],
    // The reference's own line.
    ['model-latest', 'alias'],
    ['model-1.14.0', 'versioned'],
    // OpenRouter [OR1][OR3]: a tilde alias, vendor-prefixed series and the dated snapshot it echoes.
    ['~typesafe/jev-latest', 'alias'],
    ['typesafe/jev-1.14', 'product-line'],
    ['typesafe/jev-1.13-20260917', 'versioned'],
    // Gateways [MG][LG]: vendor prefixes on either kind.
    ['typesafe/jev-1.13.0', 'versioned'],
    ['typesafe/jev-latest', 'alias'],
    // Fireworks' account paths [FW1].
    ['accounts/acme/models/jev-1.13.0', 'versioned'],
    // Ollama [O1]: `name:latest` moves with every pull; other tags are fixed names.
    ['nimble:latest', 'alias'],
    ['d1-omni:600m', 'unknown'],
    // llama.cpp [L3][L4], Cloudflare [CF1], OpenAI [OA3]: names without a version.
    ['Kev-4B', 'unknown'],
    ['clef-flash', 'unknown'],
    ['gpt-6-luna', 'unknown'],
    // Not ids of any line.
    ['1.13.0', 'unknown'],
    ['jev-1.13.0-beta', 'unknown'],
  ] as const)('%s is %s', (id, kind) => {
    expect(classifyModelId(id)).toBe(kind);
  });

  it("calls an id the server's list offers a named model, a listed series included", () => {
    expect(classifyModelId('Kev-4B', ['Kev-4B', 'laya'])).toBe('named');
    expect(classifyModelId('typesafe/jev-1.14', ['typesafe/jev-1.14'])).toBe('named');
    expect(classifyModelId('jev-latest', ['jev-latest'])).toBe('alias');
  });

  it('checks a typed id against the list when there is one, and lets any id run when there is none', () => {
    expect(modelIdProblem('Kev-4B', ['Kev-4B', 'laya'])).toBeNull();
    expect(modelIdProblem('kev-4b', ['Kev-4B', 'laya'])).toMatch(/not in this target's model list.*Kev-4B/);
    expect(modelIdProblem('jev-1.13.0', ['jev-latest', 'jev-preview'])).toBeNull();
    expect(modelIdProblem('jev-1.13', ['jev-latest'])).toMatch(/product line.*jev-1\.13\.0/);
    expect(modelIdProblem('@cf/cloudflare/clef')).toBeNull();
    // Ollama runs a bare name as its :latest tag.
    expect(modelIdProblem('nimble', ['nimble:latest'])).toBeNull();
  });
});

describe('version features on these ids', () => {
  it('offers the pin of an alias to the versioned id a server echoed, on any line', () => {
    expect(pinSuggestion('jev-latest', 'jev-1.13.0')).toBe('jev-1.13.0');
    expect(pinSuggestion('~typesafe/jev-latest', 'typesafe/jev-1.14-20261001')).toBe(
      'typesafe/jev-1.14-20261001',
    );
    // Ollama echoes the name it was sent: nothing to pin.
    expect(pinSuggestion('nimble:latest', 'nimble:latest')).toBeNull();
  });

  it('keys deduplication on pinned ids only', () => {
    expect(pinnedModel('jev-1.13.0')).toBe('jev-1.13.0');
    expect(pinnedModel('typesafe/jev-1.13-20260917')).toBe('typesafe/jev-1.13-20260917');
    expect(pinnedModel('jev-latest')).toBeNull();
    expect(pinnedModel('Kev-4B')).toBeNull();
  });

  it('lints aliases of any line in a comparison and a file run', () => {
    const ids = (mode: 'compare' | 'rows', models: string[]) =>
      lintRubric({
        state: 'I was charged twice',
        questions: { urgent: { type: 'noul', instructions: 'Is this urgent?' } },
        model: 'jev-latest',
        models,
        mode,
      })
        .filter((f) => f.ruleId === 'model/alias-pinning')
        .map((f) => f.message);
    expect(ids('compare', ['jev-latest', '~typesafe/jev-latest', 'Kev-4B'])).toEqual([
      expect.stringContaining('"jev-latest" is an alias'),
      expect.stringContaining('"~typesafe/jev-latest" is an alias'),
    ]);
    expect(ids('rows', ['nimble:latest'])).toEqual([expect.stringContaining('"nimble:latest" is an alias')]);
  });

  it('rewrites gateway ids of any line to the direct id', () => {
    expect(directModelId('typesafe/jev-1.13.0')).toBe('jev-1.13.0');
    expect(directModelId('~typesafe/jev-latest')).toBe('jev-latest');
    expect(directModelId('jev-preview')).toBe('jev-preview');
  });
});

describe('model lists in the shapes servers return', () => {
  it("reads the contract's list (the hosted service, jev serve)", () => {
    const json = { models: [{ name: 'jev-latest', description: 'Stable', release_date: '2026-09-15' }] };
    expect(modelListShape(json)).toBe('contract');
    expect(ModelListSchema.parse(json).models).toEqual(json.models);
  });

  it("reads llama.cpp's OpenAI-style list, keeping only the models marked as decision models", () => {
    const json = {
      object: 'list',
      data: [
        { id: 'Kev-4B', object: 'model', created: 1_790_000_000, output_modalities: ['decisions'] },
        { id: 'qwen3-8b', object: 'model', output_modalities: ['text'] },
      ],
    };
    expect(modelListShape(json)).toBe('openai');
    expect(ModelListSchema.parse(json).models).toEqual([{ name: 'Kev-4B', release_date: '2026-09-21' }]);
  });

  it("reads OpenRouter's list, marked under architecture, with the display name as description", () => {
    const json = {
      data: [
        {
          id: 'typesafe/jev-1.14',
          name: 'TypeSafe: Jev 1.14',
          architecture: { output_modalities: ['decisions'] },
        },
        { id: 'openai/gpt-5.2', name: 'GPT', architecture: { output_modalities: ['text'] } },
      ],
    };
    expect(ModelListSchema.parse(json).models).toEqual([
      { name: 'typesafe/jev-1.14', description: 'TypeSafe: Jev 1.14' },
    ]);
  });

  it('keeps every entry of a list that marks none (Ollama, LiteLLM)', () => {
    const json = { object: 'list', data: [{ id: 'nimble:latest' }, { id: 'llama3.2:latest' }] };
    expect(ModelListSchema.parse(json).models.map((m) => m.name)).toEqual([
      'nimble:latest',
      'llama3.2:latest',
    ]);
  });

  it('reads both shapes at once (llamacpp-jev), each id once', () => {
    const json = {
      object: 'list',
      data: [{ id: 'jev-latest' }, { id: 'open-jev-4b' }],
      models: [{ name: 'jev-latest', description: 'Alias', release_date: '2026-10-01' }],
    };
    expect(modelListShape(json)).toBe('both');
    expect(ModelListSchema.parse(json).models).toEqual([
      { name: 'jev-latest', description: 'Alias', release_date: '2026-10-01' },
      { name: 'open-jev-4b' },
    ]);
  });

  it('refuses what is no model list', () => {
    expect(ModelListSchema.safeParse({ data: [{ name: 'x' }] }).success).toBe(false);
    expect(ModelListSchema.safeParse(['jev-latest']).success).toBe(false);
    expect(modelListShape({ error: 'nope' })).toBe('other');
  });
});
