// Model identifiers: aliases move between versions, versioned ids pin one, a product line is only a name.
import { z } from 'zod';

/** The reference service's aliases (its model line is `model`); other servers name their own lines. */
export const MODEL_ALIASES = ['model-latest', 'model-preview'] as const;
export type ModelAlias = (typeof MODEL_ALIASES)[number];

// Shapes of an id, for any model line (`jev`, `model`, `d1-omni`...), after an optional gateway prefix such as
// `typesafe/` or OpenRouter's `~typesafe/`. The line must start with a letter, so `1.13.0` alone is no model.
const LINE = String.raw`(?:[^\s/]+/)*~?[A-Za-z][\w.-]*?`;
const ALIAS = new RegExp(String.raw`^~?${LINE}-(?:latest|preview)$`);
// Ollama's `name:latest` tag moves whenever the model is pulled again: an alias too.
const OLLAMA_LATEST = /^[^\s:]+:latest$/;
// OpenRouter's `~vendor/line` ids follow the newest version of a line.
const TILDE = /^~[^\s/]+\/\S+$/;
const VERSIONED = new RegExp(String.raw`^${LINE}-\d+\.\d+\.\d+$`);
// A dated snapshot (OpenRouter echoes `typesafe/jev-1.13-20260917`) pins one build as a version does.
const SNAPSHOT = new RegExp(String.raw`^${LINE}-\d+\.\d+-\d{8}$`);
const PRODUCT_LINE = new RegExp(String.raw`^${LINE}-\d+\.\d+$`);
// A model file run by the local reference: alias "local-<file stem>", versioned "local-<file stem>@<sha256, 12 hex>",
// so a changed file is a new version.
const LOCAL_FILE_ALIAS = /^local-([A-Za-z0-9][A-Za-z0-9._-]*)$/;
const LOCAL_FILE_VERSIONED = /^local-([A-Za-z0-9][A-Za-z0-9._-]*)@[0-9a-f]{12}$/;

/** The ids of a model file: its alias and its versioned id, from the file's stem and the hex sha256 of its bytes. */
export function localFileModelIds(stem: string, sha256Hex: string): { alias: string; versioned: string } {
  const slug =
    stem
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .replace(/[^A-Za-z0-9]+$/, '') || 'model';
  return { alias: `local-${slug}`, versioned: `local-${slug}@${sha256Hex.slice(0, 12)}` };
}

/** What the local reference's lexical judge is called wherever the workbench says who answered. */
export const LEXICAL_JUDGE_LABEL = 'local: lexical, not a language model';

/** Who on the local reference answered a model id: "local: <file>.gguf" for a model file, else the lexical judge. */
export function localJudgeLabel(modelId: string): string {
  const file = localFileOfModel(modelId);
  return file ? `local: ${file}` : LEXICAL_JUDGE_LABEL;
}

/** The GGUF file name a local model-file id stands for ("local-x@abc..." -> "x.gguf"), or null for other ids. */
export function localFileOfModel(id: string): string | null {
  const m = LOCAL_FILE_VERSIONED.exec(id) ?? LOCAL_FILE_ALIAS.exec(id);
  return m ? `${m[1]}.gguf` : null;
}

/**
 * What a model id is. By shape: an alias moves between versions, a versioned id (or dated snapshot) pins one, a
 * product line names a series. `named`: no known shape, but the server's model list offers it (a llama.cpp or
 * Ollama model such as `Kev-4B`). `unknown`: none of these.
 */
export type ModelIdKind = 'alias' | 'versioned' | 'product-line' | 'named' | 'unknown';

/** Says what kind of identifier a model string is: by its shape, then by whether the server's list offers it. */
export function classifyModelId(id: string, listed: readonly string[] = []): ModelIdKind {
  // The local reference's model file: `local-<stem>@<sha>` pins the file's bytes, `local-<stem>` follows the file.
  if (VERSIONED.test(id) || SNAPSHOT.test(id) || LOCAL_FILE_VERSIONED.test(id)) return 'versioned';
  if (ALIAS.test(id) || OLLAMA_LATEST.test(id) || TILDE.test(id) || LOCAL_FILE_ALIAS.test(id)) return 'alias';
  // A series name the server lists is a model there (OpenRouter serves `typesafe/jev-1.13`).
  if (listed.includes(id)) return 'named';
  return PRODUCT_LINE.test(id) ? 'product-line' : 'unknown';
}

export const isAlias = (id: string): boolean => classifyModelId(id) === 'alias';
export const isVersionedId = (id: string): boolean => classifyModelId(id) === 'versioned';
export const isProductLine = (id: string): boolean => classifyModelId(id) === 'product-line';

/** The model line of an id by shape (`jev` for `jev-1.13.0`, `typesafe/jev` for `typesafe/jev-latest`), or null. */
export function modelLine(id: string): string | null {
  const m = /^(.*?)-(?:latest|preview|\d+\.\d+\.\d+|\d+\.\d+(?:-\d{8})?)$/.exec(id.replace(/^~/, ''));
  return m ? m[1]! : null;
}

/**
 * One sentence about a model id a user typed, or null when it is fine to send. `listed` is the target's model list;
 * without one (a server that lists nothing), any id runs: the server decides.
 */
export function modelIdProblem(id: string, listed: readonly string[] = []): string | null {
  const trimmed = id.trim();
  if (trimmed === '')
    return listed.length > 0
      ? `Choose a model: one from the list, such as ${listed[0]}, or a versioned id.`
      : 'Type a model id: this target lists no models.';
  // Ollama runs a bare name as its `:latest` tag, which is how its list names it.
  if (listed.includes(trimmed) || listed.includes(`${trimmed}:latest`)) return null;
  switch (classifyModelId(trimmed, listed)) {
    case 'alias':
    case 'versioned':
    case 'named':
      return null;
    case 'product-line':
      return `"${trimmed}" names a product line, not a model; pin a versioned id such as ${trimmed}.0.`;
    case 'unknown':
      return listed.length === 0
        ? null
        : `"${trimmed}" is not in this target's model list: use one it lists (${listed.slice(0, 3).join(', ')}) or a versioned id such as ${modelLine(listed[0]!) ?? 'name'}-1.0.0.`;
  }
}

export const ModelCardSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  release_date: z.string().optional(),
});
export type ModelCard = z.infer<typeof ModelCardSchema>;

/** The contract's list: `{"models": [{name, description, release_date}]}` (the hosted service, jev serve, Ollama's tags). */
const ContractListSchema = z.looseObject({ models: z.array(ModelCardSchema) });

const modalities = z.array(z.string()).optional();
/** One entry of an OpenAI-style list (llama.cpp's router, LiteLLM, OpenRouter): `{id, output_modalities?...}`. */
const OpenAiModelSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string().optional(),
  description: z.string().optional(),
  created: z.number().optional(),
  output_modalities: modalities,
  architecture: z.looseObject({ output_modalities: modalities }).optional(),
});
type OpenAiModel = z.infer<typeof OpenAiModelSchema>;
const OpenAiListSchema = z.looseObject({ data: z.array(OpenAiModelSchema) });

const modalitiesOf = (m: OpenAiModel): string[] | undefined =>
  m.output_modalities ?? m.architecture?.output_modalities;

/** An OpenAI-style entry as a contract card; the `created` epoch becomes a release date. */
const cardOf = (m: OpenAiModel): ModelCard => ({
  name: m.id,
  ...(m.description !== undefined
    ? { description: m.description }
    : m.name !== undefined && m.name !== m.id
      ? { description: m.name }
      : {}),
  ...(m.created !== undefined && m.created > 0
    ? { release_date: new Date(m.created * 1000).toISOString().slice(0, 10) }
    : {}),
});

/**
 * A model list in any shape servers return, as the contract's `{models: [...]}`: the contract's own list, an
 * OpenAI-style `{data: [{id}]}` list (keeping only decision models where the server marks any with
 * `output_modalities`), or both at once (llamacpp-jev sends both; an id is kept once).
 */
export const ModelListSchema = z
  .union([
    z.looseObject({ models: z.array(ModelCardSchema), data: z.array(OpenAiModelSchema).optional() }),
    z.looseObject({ models: z.array(ModelCardSchema).optional(), data: z.array(OpenAiModelSchema) }),
  ])
  .transform((list): { models: ModelCard[] } => {
    const cards = [...(list.models ?? [])];
    const data = list.data ?? [];
    const marked = data.some((m) => modalitiesOf(m) !== undefined);
    for (const m of data) {
      if (marked && !(modalitiesOf(m) ?? []).includes('decisions')) continue;
      if (!cards.some((c) => c.name === m.id)) cards.push(cardOf(m));
    }
    return { models: cards };
  });
export type ModelList = z.infer<typeof ModelListSchema>;

/** Which shape a raw model list came in: what a target check reports. */
export function modelListShape(json: unknown): 'contract' | 'openai' | 'both' | 'other' {
  const contract = ContractListSchema.safeParse(json).success;
  const openai = OpenAiListSchema.safeParse(json).success;
  return contract && openai ? 'both' : contract ? 'contract' : openai ? 'openai' : 'other';
}
