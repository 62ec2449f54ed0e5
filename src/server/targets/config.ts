// The targets the user configures: `workbench.targets.json` (git-ignored) plus the EVAL_* variables as the `direct` and
// `gateway` entries, resolved against their presets into one description each. Plain module: the proxy, `npm start`
// and the command line call it. Reads no file itself (see readTargetsFile) and never holds a key in a description.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import {
  AuthKindSchema,
  DialectSchema,
  EnvelopeSchema,
  EnvVarNameSchema,
  HeaderNameSchema,
  PRESETS,
  PresetIdSchema,
  TargetIdSchema,
  TargetLimitsSchema,
  UpstreamPathSchema,
  hostOf,
} from '../../contract';
import type { PresetId, TargetDescription, TargetLimits, WireSettings } from '../../contract';

/** Variables as they come from the process or a file. */
export type TargetsEnv = Readonly<Record<string, string | undefined>>;

/** The default name of the targets file, at the repository root. */
export const TARGETS_FILE = 'workbench.targets.json';
/** Variable naming another targets file (relative to the root); an empty value reads none. */
export const TARGETS_FILE_VAR = 'WORKBENCH_TARGETS_FILE';

/** The targets file as read: its name (for sentences) and its text. */
export interface TargetsFile {
  name: string;
  /** Null when WORKBENCH_TARGETS_FILE names a file that does not exist. */
  text: string | null;
}

/** What EVAL_* configure, already validated by the environment's schema. */
export interface EnvTargets {
  /** `wire` and `limits` come from EVAL_DIALECT, EVAL_ENVELOPE, EVAL_MODEL_IN_PATH and EVAL_LIMITS (and EVAL_GATEWAY_*). */
  direct?: { baseUrl: string; evaluatePath: string; wire?: WireSettings; limits?: TargetLimits };
  gateway?: {
    baseUrl: string;
    evaluatePath: string;
    authHeader: string;
    wire?: WireSettings;
    limits?: TargetLimits;
  };
}

/** Every configured target, in order (the environment's first, then the file's, the local reference last). */
export interface TargetsConfig {
  targets: TargetDescription[];
  /** Each target's key, by target id, for the targets whose key variable is set. Server-side only. */
  keys: Record<string, string>;
  /** One sentence per problem in the configuration; a problem skips its entry, never the rest. */
  problems: string[];
}

/** The local reference's label, shown in the picker. */
export const LOCAL_LABEL = 'Local reference (not a language model)';
// The in-process reference is reached without a socket; this origin only gives its requests a well-formed URL.
export const LOCAL_ORIGIN = 'http://local-reference.invalid';
/** Ids the workbench gives itself; a file entry may not take them. */
const RESERVED_IDS = new Set(['local', 'direct', 'gateway']);
/** Headers that must never carry a key (a targets entry's or EVAL_GATEWAY_AUTH_HEADER): every hop or the browser reads them. */
export const FORBIDDEN_KEY_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'cookie',
  'connection',
  'content-length',
  'content-type',
  'transfer-encoding',
]);

const httpUrl = z
  .string()
  .refine(
    (v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol),
    'must be an http:// or https:// URL',
  );

/** One entry of workbench.targets.json. Strict: a misspelt field is named, never silently ignored. */
export const TargetEntrySchema = z.strictObject({
  id: TargetIdSchema,
  label: z.string().trim().min(1, 'must not be empty').optional(),
  preset: PresetIdSchema.exclude(['local'], {
    error: 'must be one of hosted, llamacpp, ollama, litellm, openrouter, gateway, custom',
  }).default('custom'),
  baseUrl: httpUrl.optional(),
  evaluatePath: UpstreamPathSchema.optional(),
  /** null: the server has no model list. */
  modelsPath: UpstreamPathSchema.nullable().optional(),
  auth: AuthKindSchema.optional(),
  header: HeaderNameSchema.refine(
    (h) => !FORBIDDEN_KEY_HEADERS.has(h.toLowerCase()),
    'must not be Host, Cookie or another header every hop reads',
  ).optional(),
  keyVar: EnvVarNameSchema.optional(),
  requestsPerMinute: z.number().int().positive().nullable().optional(),
  tokensPerSecond: z.number().int().positive().nullable().optional(),
  inputPrice: z.number().nonnegative().nullable().optional(),
  dialect: DialectSchema.optional(),
  envelope: EnvelopeSchema.optional(),
  modelInPath: z.boolean().optional(),
  limits: TargetLimitsSchema.optional(),
});
export type TargetEntry = z.infer<typeof TargetEntrySchema>;

/** Fields that would put a key in the file: refused with a sentence that says where keys go. */
const KEY_FIELDS = ['key', 'apiKey', 'api_key', 'token', 'secret', 'password'];

/** The variable a target reads its key from when neither the entry nor its preset names one: MY_TARGET_API_KEY. */
export const defaultKeyVar = (id: string): string => `${id.toUpperCase().replace(/-/g, '_')}_API_KEY`;

const present = (env: TargetsEnv, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/** A field path of a zod issue, as a person reads it: `limits.options`. */
const fieldOf = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/** Resolves one valid entry against its preset; a sentence instead when something required is missing. */
function resolveEntry(entry: TargetEntry, where: string): TargetDescription | string {
  const preset = PRESETS[entry.preset];
  const baseUrl = entry.baseUrl ?? preset.baseUrl;
  if (baseUrl === null) {
    return `${where}: field "baseUrl" is required for the ${entry.preset} preset (the server's address, such as https://gateway.example.com).`;
  }
  const auth = entry.auth ?? preset.auth;
  let header: string | null = null;
  if (auth === 'bearer' || auth === 'basic') header = 'Authorization';
  if (auth === 'header') {
    header = entry.header ?? (preset.auth === 'header' ? preset.header : null);
    if (header === null)
      return `${where}: field "header" is required when auth is "header" (the header that carries the key, such as x-api-key).`;
  }
  const keyVar = auth === 'none' ? null : (entry.keyVar ?? preset.keyVar ?? defaultKeyVar(entry.id));
  return {
    id: entry.id,
    label: entry.label ?? `${preset.name} (${hostOf(baseUrl)})`,
    preset: entry.preset,
    kind: preset.kind,
    baseUrl,
    evaluatePath: entry.evaluatePath ?? preset.evaluatePath,
    modelsPath: entry.modelsPath === undefined ? preset.modelsPath : entry.modelsPath,
    auth,
    header,
    keyVar,
    requestsPerMinute:
      entry.requestsPerMinute === undefined ? preset.requestsPerMinute : entry.requestsPerMinute,
    tokensPerSecond: entry.tokensPerSecond === undefined ? preset.tokensPerSecond : entry.tokensPerSecond,
    inputPrice: entry.inputPrice === undefined ? preset.inputPrice : entry.inputPrice,
    dialect: entry.dialect ?? 'systemone',
    envelope: entry.envelope ?? 'none',
    modelInPath: entry.modelInPath ?? false,
    limits: { ...preset.limits, ...entry.limits },
  };
}

/** Reads the entries of a targets file: one sentence per bad entry (naming it and its field), the good ones kept. */
function entriesOfFile(file: TargetsFile): { entries: TargetEntry[]; problems: string[] } {
  if (file.text === null) {
    return {
      entries: [],
      problems: [`${file.name} (named by ${TARGETS_FILE_VAR}) does not exist; no targets were read from it.`],
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(file.text);
  } catch (error) {
    return {
      entries: [],
      problems: [
        `${file.name} is not valid JSON (${(error as Error).message}); none of its targets were loaded.`,
      ],
    };
  }
  const list = z.object({ targets: z.array(z.unknown()) }).safeParse(json);
  if (!list.success) {
    return {
      entries: [],
      problems: [
        `${file.name} must be an object with a "targets" array, such as {"targets": [{"id": "my-server", "preset": "llamacpp"}]}; none of its targets were loaded.`,
      ],
    };
  }
  const entries: TargetEntry[] = [];
  const problems: string[] = [];
  list.data.targets.forEach((raw, index) => {
    const rawId =
      typeof raw === 'object' && raw !== null && 'id' in raw ? (raw as { id: unknown }).id : undefined;
    const where = `${file.name}, target ${typeof rawId === 'string' ? `"${rawId}"` : `#${index + 1}`}`;
    if (typeof raw === 'object' && raw !== null) {
      const keyField = KEY_FIELDS.find((f) => f in raw);
      if (keyField) {
        problems.push(
          `${where}: field "${keyField}" is not allowed (keys stay in the environment or .env.local); name the variable in "keyVar" instead. The target is skipped.`,
        );
        return;
      }
    }
    const parsed = TargetEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field =
        issue.code === 'unrecognized_keys' ? issue.keys.join('", "') : fieldOf(issue.path) || '(the entry)';
      const what = issue.code === 'unrecognized_keys' ? 'is not a target field' : issue.message;
      problems.push(`${where}: field "${field}" ${what}. The target is skipped.`);
      return;
    }
    entries.push(parsed.data);
  });
  return { entries, problems };
}

/** The description of the in-process local reference. */
export function localDescription(): TargetDescription {
  const preset = PRESETS.local;
  return {
    id: 'local',
    label: LOCAL_LABEL,
    preset: 'local',
    kind: 'local',
    baseUrl: LOCAL_ORIGIN,
    evaluatePath: preset.evaluatePath,
    modelsPath: preset.modelsPath,
    auth: 'bearer',
    header: 'Authorization',
    keyVar: null,
    requestsPerMinute: preset.requestsPerMinute,
    tokensPerSecond: preset.tokensPerSecond,
    inputPrice: preset.inputPrice,
    dialect: 'systemone',
    envelope: 'none',
    modelInPath: false,
    limits: preset.limits,
  };
}

/** The `direct` and `gateway` targets the EVAL_* variables describe (a URL without its key: listed, key missing). */
function envDescriptions(envTargets: EnvTargets): TargetDescription[] {
  const out: TargetDescription[] = [];
  const custom = PRESETS.custom;
  if (envTargets.direct) {
    const { baseUrl, evaluatePath } = envTargets.direct;
    out.push({
      ...localDescription(),
      id: 'direct',
      label: `Evaluation Service (${hostOf(baseUrl)})`,
      preset: 'custom',
      kind: 'direct',
      baseUrl,
      evaluatePath,
      modelsPath: custom.modelsPath,
      keyVar: 'EVAL_API_KEY',
      // The contract's published figures: EVAL_* name the contract's own service, unless EVAL_LIMITS says otherwise.
      limits: envTargets.direct.limits ?? PRESETS.local.limits,
      ...envTargets.direct.wire,
    });
  }
  if (envTargets.gateway) {
    const { baseUrl, evaluatePath, authHeader } = envTargets.gateway;
    const bearer = authHeader.toLowerCase() === 'authorization';
    out.push({
      ...localDescription(),
      id: 'gateway',
      label: `Gateway (${hostOf(baseUrl)})`,
      preset: 'gateway',
      kind: 'gateway',
      baseUrl,
      evaluatePath,
      modelsPath: PRESETS.gateway.modelsPath,
      auth: bearer ? 'bearer' : 'header',
      header: authHeader,
      keyVar: 'EVAL_GATEWAY_KEY',
      requestsPerMinute: null,
      tokensPerSecond: null,
      inputPrice: null,
      limits: envTargets.gateway.limits ?? {},
      ...envTargets.gateway.wire,
    });
  }
  return out;
}

/**
 * Resolves every target: the environment's `direct` and `gateway`, then the file's entries in order, then `local`.
 * A bad entry costs only itself: it is named in `problems` and the rest resolve.
 */
export function resolveTargets(input: {
  env: TargetsEnv;
  envTargets: EnvTargets;
  file: TargetsFile | null;
}): TargetsConfig {
  const problems: string[] = [];
  const targets = envDescriptions(input.envTargets);
  if (input.file) {
    const read = entriesOfFile(input.file);
    problems.push(...read.problems);
    for (const entry of read.entries) {
      const where = `${input.file.name}, target "${entry.id}"`;
      if (RESERVED_IDS.has(entry.id)) {
        problems.push(
          `${where}: field "id" may not be "${entry.id}" (the workbench names its ${entry.id === 'local' ? 'reference' : 'EVAL_* target'} so); choose another id. The target is skipped.`,
        );
        continue;
      }
      if (targets.some((t) => t.id === entry.id)) {
        problems.push(`${where}: field "id" repeats an earlier target's id; the later one is skipped.`);
        continue;
      }
      const resolved = resolveEntry(entry, where);
      if (typeof resolved === 'string') problems.push(`${resolved} The target is skipped.`);
      else targets.push(resolved);
    }
  }
  targets.push(localDescription());
  const keys: Record<string, string> = {};
  for (const t of targets) {
    const key = t.keyVar === null ? undefined : present(input.env, t.keyVar);
    if (key !== undefined) keys[t.id] = key;
  }
  return { targets, keys, problems };
}

/**
 * Reads the targets file under `root`: WORKBENCH_TARGETS_FILE names another one (an empty value reads none). Null
 * when there is no file, which is the usual case.
 */
export function readTargetsFile(root: string, env: TargetsEnv): TargetsFile | null {
  const named = env[TARGETS_FILE_VAR];
  if (named !== undefined && named.trim() === '') return null;
  const name = named?.trim() || TARGETS_FILE;
  const path = resolve(root, name);
  if (!existsSync(path)) return named === undefined ? null : { name, text: null };
  return { name, text: readFileSync(path, 'utf8') };
}

/**
 * The Authorization value of HTTP Basic: a `user:password` key is encoded, a key given already encoded (as Inworld's
 * console hands it out) is sent as it is.
 */
export const basicValue = (key: string): string =>
  `Basic ${key.includes(':') ? Buffer.from(key, 'utf8').toString('base64') : key}`;

/** Every form in which a target's key can appear on the wire: what redaction must catch. */
export function keyForms(target: Pick<TargetDescription, 'auth'>, key: string): string[] {
  return target.auth === 'basic' && key.includes(':') ? [key, basicValue(key).slice('Basic '.length)] : [key];
}

/** Names a preset for a sentence, such as "llama.cpp server". */
export const presetName = (id: PresetId): string => PRESETS[id].name;
