// Model identifiers: aliases move between versions, versioned ids pin one, a product line is only a name.
import { z } from 'zod';

export const MODEL_ALIASES = ['model-latest', 'model-preview'] as const;
export type ModelAlias = (typeof MODEL_ALIASES)[number];

const VERSIONED = /^model-(\d+)\.(\d+)\.(\d+)$/;
const PRODUCT_LINE = /^model-(\d+)\.(\d+)$/;
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

export type ModelIdKind = 'alias' | 'versioned' | 'product-line' | 'unknown';

/** Says what kind of identifier a model string is, by its shape alone. */
export function classifyModelId(id: string): ModelIdKind {
  if ((MODEL_ALIASES as readonly string[]).includes(id)) return 'alias';
  if (VERSIONED.test(id) || LOCAL_FILE_VERSIONED.test(id)) return 'versioned';
  if (LOCAL_FILE_ALIAS.test(id)) return 'alias';
  if (PRODUCT_LINE.test(id)) return 'product-line';
  return 'unknown';
}

export const isAlias = (id: string): boolean => classifyModelId(id) === 'alias';
export const isVersionedId = (id: string): boolean => classifyModelId(id) === 'versioned';
export const isProductLine = (id: string): boolean => classifyModelId(id) === 'product-line';

/** One sentence about a model id a user typed, or null when it is fine to send. */
export function modelIdProblem(id: string, listed: readonly string[] = []): string | null {
  const trimmed = id.trim();
  if (trimmed === '')
    return 'Choose a model: an alias such as model-latest or a versioned id such as model-1.13.0.';
  if (listed.includes(trimmed)) return null;
  switch (classifyModelId(trimmed)) {
    case 'alias':
    case 'versioned':
      return null;
    case 'product-line':
      return `"${trimmed}" names a product line, not a model; pin a versioned id such as ${trimmed}.0.`;
    case 'unknown':
      return `"${trimmed}" is not a model id: use an alias from the list or a versioned id such as model-1.13.0.`;
  }
}

export const ModelCardSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  release_date: z.string().optional(),
});
export type ModelCard = z.infer<typeof ModelCardSchema>;

export const ModelListSchema = z.looseObject({ models: z.array(ModelCardSchema) });
export type ModelList = z.infer<typeof ModelListSchema>;
