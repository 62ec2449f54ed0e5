// Targets: the one description of a server that speaks this interface, read by the proxy, the app and the command line.
// A description never holds a key: it names the environment variable that does.
import { z } from 'zod';

/** How a target's key travels: `Authorization: Bearer`, a named header carrying the raw key, HTTP Basic, or nothing. */
export const AuthKindSchema = z.enum(['bearer', 'header', 'basic', 'none']);
export type AuthKind = z.infer<typeof AuthKindSchema>;

/** The request and answer shapes a target speaks: System One (this contract) or OpenAI's Decisions. */
export const DialectSchema = z.enum(['systemone', 'decisions']);
export type Dialect = z.infer<typeof DialectSchema>;

/** A wrapper around every answer: none, or Cloudflare's `{result, success, errors, messages}`. */
export const EnvelopeSchema = z.enum(['none', 'cloudflare']);
export type Envelope = z.infer<typeof EnvelopeSchema>;

/** Where a target's requests go: the in-process reference, a server that answers itself, or a gateway to others. */
export const TargetKindSchema = z.enum(['local', 'direct', 'gateway']);
export type TargetKind = z.infer<typeof TargetKindSchema>;

/** The servers the workbench knows by name (docs/servers.md), plus `custom` for anything else. */
export const PresetIdSchema = z.enum([
  'local',
  'hosted',
  'llamacpp',
  'ollama',
  'litellm',
  'openrouter',
  'gateway',
  'custom',
]);
export type PresetId = z.infer<typeof PresetIdSchema>;

const positiveInt = z.number().int().positive();

/** What a server accepts, where known: most questions per request, options per choice, levels per score, context. */
export const TargetLimitsSchema = z.strictObject({
  questions: positiveInt.optional(),
  options: positiveInt.optional(),
  levels: positiveInt.optional(),
  contextTokens: positiveInt.optional(),
});
export type TargetLimits = z.infer<typeof TargetLimitsSchema>;

/** A target id: lower-case letters, digits and dashes, as it appears in `/api/targets/<id>`. */
export const TargetIdSchema = z
  .string()
  .regex(
    /^[a-z][a-z0-9-]{0,39}$/,
    'an id is 1 to 40 lower-case letters, digits or dashes, starting with a letter',
  );

/** An environment variable name, such as OPENROUTER_API_KEY. */
export const EnvVarNameSchema = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    'a variable name is letters, digits and underscores, such as MY_API_KEY',
  );

/** An HTTP header field name (RFC 9110 token). */
export const HeaderNameSchema = z
  .string()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'a header name is a single token such as x-api-key');

/** A path on the target's server, starting with "/"; a query is allowed (OpenRouter's model list filters by one). */
export const UpstreamPathSchema = z
  .string()
  .regex(/^\/[^\s#]*$/, 'a path starts with "/", such as /v1/systemone');

/**
 * A target fully described: every field filled from its preset and its configuration. No key: `keyVar` names the
 * environment variable that holds it. `baseUrl` is server-side only (a URL may carry credentials).
 */
export const TargetDescriptionSchema = z.object({
  id: TargetIdSchema,
  label: z.string().min(1),
  preset: PresetIdSchema,
  kind: TargetKindSchema,
  baseUrl: z.string(),
  evaluatePath: UpstreamPathSchema,
  /** Null when the server offers no model list: a typed id still runs. */
  modelsPath: UpstreamPathSchema.nullable(),
  auth: AuthKindSchema,
  /** The header that carries the key: Authorization for bearer and basic, the configured name for `header`. */
  header: HeaderNameSchema.nullable(),
  /** The environment variable holding the key; null when auth is none. */
  keyVar: EnvVarNameSchema.nullable(),
  /** Rate limits that pace file runs; null when unknown (the workbench then uses the contract's published figures). */
  requestsPerMinute: positiveInt.nullable(),
  tokensPerSecond: positiveInt.nullable(),
  /** Price per million input tokens; 0 for a local server; null when unknown ("price unknown"). */
  inputPrice: z.number().nonnegative().nullable(),
  dialect: DialectSchema.default('systemone'),
  envelope: EnvelopeSchema.default('none'),
  /** True when the model travels in the path: `{model}` in `evaluatePath` is replaced by the request's model. */
  modelInPath: z.boolean().default(false),
  limits: TargetLimitsSchema.default({}),
});
export type TargetDescription = z.infer<typeof TargetDescriptionSchema>;

/**
 * One target as the browser sees it (`GET /api/targets`): the description without the base URL, the host alone, and
 * whether it can send. Never a key or a full URL.
 */
export const TargetInfoSchema = z.object({
  id: TargetIdSchema,
  label: z.string().min(1),
  kind: TargetKindSchema,
  /** The upstream's host and port, or "in-process" for the local reference. */
  host: z.string(),
  /** The path the target's evaluate route forwards to upstream. */
  evaluatePath: z.string(),
  preset: PresetIdSchema.default('custom'),
  modelsPath: z.string().nullable().default(null),
  auth: AuthKindSchema.default('bearer'),
  keyVar: z.string().nullable().default(null),
  /** "key missing: VAR_NAME" when the target's key variable is unset; such a target does not send. */
  keyMissing: z.string().nullable().default(null),
  requestsPerMinute: z.number().nullable().default(null),
  tokensPerSecond: z.number().nullable().default(null),
  inputPrice: z.number().nullable().default(null),
  dialect: DialectSchema.default('systemone'),
  envelope: EnvelopeSchema.default('none'),
  modelInPath: z.boolean().default(false),
  limits: TargetLimitsSchema.default({}),
  /** The local target's model file (REFERENCE_MODEL_FILE) and its alias; absent when only the lexical judge answers. */
  modelFile: z.object({ fileName: z.string().min(1), alias: z.string().min(1) }).optional(),
});
export type TargetInfo = z.infer<typeof TargetInfoSchema>;

export const TargetListSchema = z.object({
  targets: z.array(TargetInfoSchema),
  /** Why an entry of the targets file was skipped (one sentence each), so the page says it, not only the terminal. */
  problems: z.array(z.string()).default([]),
});
export type TargetList = z.infer<typeof TargetListSchema>;

/** The sentence shown on a target whose key variable is unset. */
export const keyMissingText = (keyVar: string): string => `key missing: ${keyVar}`;

/** True when a target can send: it needs no key, or its key is present. */
export const canSend = (target: Pick<TargetInfo, 'keyMissing'>): boolean => target.keyMissing === null;

/** The host (and port) of a base URL, never its user info or path. */
export function hostOf(baseUrl: string): string {
  return URL.canParse(baseUrl) ? new URL(baseUrl).host : 'invalid address';
}

/** The browser's view of a description: drops the base URL (it may carry credentials) and says if the key is missing. */
export function publicTarget(target: TargetDescription, keyPresent: boolean): TargetInfo {
  const { baseUrl, header: _header, ...rest } = target;
  return {
    ...rest,
    host: target.preset === 'local' ? 'in-process' : hostOf(baseUrl),
    keyMissing: target.keyVar !== null && !keyPresent ? keyMissingText(target.keyVar) : null,
  };
}
