// The reference service's model catalogue: two listed aliases over three versioned judge configurations.
import type { FieldError, ModelAlias, ModelCard } from '../../contract';
import { classifyModelId } from '../../contract';
import type { ModelVersion } from './judge';
import { MODEL_VERSIONS } from './judge';

/** Where each alias points today; aliases move, versioned ids pin. */
export const ALIAS_TARGETS: Readonly<Record<ModelAlias, ModelVersion>> = Object.freeze({
  'model-latest': 'model-1.13.0',
  'model-preview': 'model-1.14.0',
});

/** Release date and one line per versioned model. */
export const VERSION_CARDS: Readonly<Record<ModelVersion, { release_date: string; description: string }>> =
  Object.freeze({
    'model-1.12.0': {
      release_date: '2026-05-12',
      description:
        'Earlier judge: negation of the next word only, no phrase cues, soft distributions, fields named in instructions weigh a little more.',
    },
    'model-1.13.0': {
      release_date: '2026-09-01',
      description:
        'Current judge: negation over three terms, named fields weigh three times, lexicon cues at full weight.',
    },
    'model-1.14.0': {
      release_date: '2026-11-17',
      description:
        'Preview judge: sharper distributions, wider negation, named fields dominate, stronger lexicon cues.',
    },
  });

/** The model list the service answers on GET /v1/models: aliases only, as the contract says. */
export const MODEL_CATALOGUE: readonly ModelCard[] = Object.freeze(
  (Object.keys(ALIAS_TARGETS) as ModelAlias[]).map((name) => {
    const target = ALIAS_TARGETS[name];
    const card = VERSION_CARDS[target];
    const role = name === 'model-latest' ? 'the current version' : 'the preview version';
    return {
      name,
      description: `Alias for ${role} (${target} today). ${card.description} A local reference judge, not a language model.`,
      release_date: card.release_date,
    };
  }),
);

export type ModelResolution = { ok: true; id: ModelVersion } | { ok: false; error: FieldError };

const versionedIds = (): string => MODEL_VERSIONS.join(', ');

/** Resolves a model string to the versioned id it runs, or a field error located at ["model"]. */
export function resolveModel(id: string): ModelResolution {
  if (Object.hasOwn(ALIAS_TARGETS, id)) return { ok: true, id: ALIAS_TARGETS[id as ModelAlias] };
  if ((MODEL_VERSIONS as readonly string[]).includes(id)) return { ok: true, id: id as ModelVersion };
  const listed = MODEL_CATALOGUE.map((m) => m.name).join(', ');
  switch (classifyModelId(id)) {
    case 'product-line':
      return {
        ok: false,
        error: {
          loc: ['model'],
          msg: `"${id}" names a product line, not a model: a truncated id is accepted only if the model list offers it, and it offers ${listed}. Send an alias or a versioned id such as ${id}.0.`,
        },
      };
    case 'versioned':
      return {
        ok: false,
        error: {
          loc: ['model'],
          msg: `The model "${id}" does not exist on this service; versioned ids are ${versionedIds()}, aliases are ${listed}.`,
        },
      };
    default:
      return {
        ok: false,
        error: {
          loc: ['model'],
          msg: `Unknown model "${id}": send an alias (${listed}) or a versioned id (${versionedIds()}).`,
        },
      };
  }
}
