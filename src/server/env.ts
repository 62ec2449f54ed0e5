// The server's environment: process variables over `.env.local`, parsed once with zod. Reads one file from disk.
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { DEFAULT_EVALUATE_PATH, WIRE_DIALECTS, WIRE_ENVELOPES } from '../contract';
import type { TargetLimits, WireSettings } from '../contract';
import { FORBIDDEN_KEY_HEADERS, keyForms, readTargetsFile, resolveTargets } from './targets/config';
import type { TargetsConfig, TargetsFile } from './targets/config';

/** Variables as they come from the process or a file: every value is a string or missing. */
export type RawEnv = Record<string, string | undefined>;

/** Where a target's calls go and how they are authenticated. */
export interface UpstreamConfig {
  baseUrl: string;
  evaluatePath: string;
  apiKey: string;
  /** Set when the target's wire differs from the interface (EVAL_DIALECT, EVAL_ENVELOPE, EVAL_MODEL_IN_PATH). */
  wire?: WireSettings;
  /** The target's own limits (EVAL_LIMITS, e.g. "questions=64,levels=10"). */
  limits?: TargetLimits;
}

/** What the workbench server needs from the environment. */
export interface ServerEnv {
  port: number;
  host: string;
  /** The real service, when EVAL_BASE_URL and EVAL_API_KEY are both set. */
  direct?: UpstreamConfig;
  /** A gateway, when EVAL_GATEWAY_URL and EVAL_GATEWAY_KEY are both set; `authHeader` carries the key. */
  gateway?: UpstreamConfig & { authHeader: string };
  /** Time the proxy waits for a target's answer before it answers 504. */
  upstreamTimeoutMs: number;
  /** Largest request body the proxy accepts, in bytes (413 above). */
  bodyLimitBytes: number;
  /** Sentences about the configuration worth printing at start (a half-configured target, an exposed host). */
  warnings: string[];
  /** Every variable, for the parts that read their own (the reference's REFERENCE_*). */
  raw: RawEnv;
  /** Every configured target (EVAL_* and workbench.targets.json), their keys, and the file's problems. */
  targets: TargetsConfig;
}

export const DEFAULT_PORT = 5173;
export const DEFAULT_HOST = '127.0.0.1';
// Longer than the client's 30 s per-attempt timeout, so in the browser the client's own timeout decides.
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 60_000;
// 64k input tokens is about 256 kB of text; JSON escaping can double it. 2 MiB leaves room without inviting abuse.
export const DEFAULT_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

// An HTTP header field name (RFC 9110 token).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const httpUrl = (name: string) =>
  z
    .string()
    .trim()
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), {
      message: `${name} must be an http:// or https:// URL.`,
    });
const path = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^\/[^\s?#]*$/, `${name} must be a path starting with "/" (no query), such as /v1/evaluate.`);
const intIn = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number.` })
    .int(`${name} must be a whole number.`)
    .min(min, `${name} must be at least ${min}.`)
    .max(max, `${name} must be at most ${max}.`);

const LIMIT_KEYS = ['questions', 'options', 'levels', 'contextTokens'] as const;
/** "questions=64,levels=10" as limits; each key once, each value a whole number above 0. */
const limitsVar = (name: string) =>
  z.string().transform((text, ctx): TargetLimits => {
    const limits: TargetLimits = {};
    for (const part of text
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [key, value] = part.split('=').map((p) => p.trim());
      const n = Number(value);
      if (!(LIMIT_KEYS as readonly string[]).includes(key ?? '') || !Number.isInteger(n) || n < 1) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} takes ${LIMIT_KEYS.join(', ')} as key=number pairs, such as questions=64; "${part}" is not one.`,
        });
        return z.NEVER;
      }
      limits[key as (typeof LIMIT_KEYS)[number]] = n;
    }
    return limits;
  });

const wireOf = (
  dialect: WireSettings['dialect'] | undefined,
  envelope: WireSettings['envelope'] | undefined,
  modelInPath: 'true' | 'false' | undefined,
): { wire?: WireSettings } =>
  dialect || envelope || modelInPath === 'true'
    ? {
        wire: {
          dialect: dialect ?? 'systemone',
          envelope: envelope ?? 'none',
          modelInPath: modelInPath === 'true',
        },
      }
    : {};

const EnvSchema = z.object({
  PORT: intIn('PORT', 0, 65_535).default(DEFAULT_PORT),
  HOST: z.string().trim().min(1).default(DEFAULT_HOST),
  EVAL_BASE_URL: httpUrl('EVAL_BASE_URL').optional(),
  EVAL_API_KEY: z.string().trim().optional(),
  EVAL_EVALUATE_PATH: path('EVAL_EVALUATE_PATH').default(DEFAULT_EVALUATE_PATH),
  EVAL_GATEWAY_URL: httpUrl('EVAL_GATEWAY_URL').optional(),
  EVAL_GATEWAY_KEY: z.string().trim().optional(),
  EVAL_GATEWAY_AUTH_HEADER: z
    .string()
    .trim()
    .regex(HEADER_NAME, 'EVAL_GATEWAY_AUTH_HEADER must be a header name such as Authorization or x-api-key.')
    .refine((h) => !FORBIDDEN_KEY_HEADERS.has(h.toLowerCase()), {
      message: 'EVAL_GATEWAY_AUTH_HEADER must not be Host, Cookie or another header that every hop reads.',
    })
    .default('Authorization'),
  EVAL_GATEWAY_EVALUATE_PATH: path('EVAL_GATEWAY_EVALUATE_PATH').default(DEFAULT_EVALUATE_PATH),
  // NOTE: the smallest stand-in for issue 11's per-target settings: one set for `direct`, one for `gateway`.
  EVAL_DIALECT: z.enum(WIRE_DIALECTS, { error: 'EVAL_DIALECT must be systemone or decisions.' }).optional(),
  EVAL_ENVELOPE: z.enum(WIRE_ENVELOPES, { error: 'EVAL_ENVELOPE must be none or cloudflare.' }).optional(),
  EVAL_MODEL_IN_PATH: z
    .enum(['true', 'false'], { error: 'EVAL_MODEL_IN_PATH must be true or false.' })
    .optional(),
  EVAL_LIMITS: limitsVar('EVAL_LIMITS').optional(),
  EVAL_GATEWAY_DIALECT: z
    .enum(WIRE_DIALECTS, { error: 'EVAL_GATEWAY_DIALECT must be systemone or decisions.' })
    .optional(),
  EVAL_GATEWAY_ENVELOPE: z
    .enum(WIRE_ENVELOPES, { error: 'EVAL_GATEWAY_ENVELOPE must be none or cloudflare.' })
    .optional(),
  EVAL_GATEWAY_MODEL_IN_PATH: z
    .enum(['true', 'false'], { error: 'EVAL_GATEWAY_MODEL_IN_PATH must be true or false.' })
    .optional(),
  EVAL_GATEWAY_LIMITS: limitsVar('EVAL_GATEWAY_LIMITS').optional(),
  PROXY_TIMEOUT_MS: intIn('PROXY_TIMEOUT_MS', 1, 600_000).default(DEFAULT_UPSTREAM_TIMEOUT_MS),
  PROXY_BODY_LIMIT_BYTES: intIn('PROXY_BODY_LIMIT_BYTES', 1024, 64 * 1024 * 1024).default(
    DEFAULT_BODY_LIMIT_BYTES,
  ),
});

/** True for the loopback names and addresses a browser on this machine uses. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

// An empty variable means "not set", as .env files and shells write it (`EVAL_API_KEY=`).
const unsetEmpty = (env: RawEnv): RawEnv =>
  Object.fromEntries(
    Object.entries(env).map(([k, v]) => [k, v === undefined || v.trim() === '' ? undefined : v]),
  );

/** A startup error in the environment: its message names every bad variable, never a value. */
export class EnvError extends Error {
  override readonly name = 'EnvError';
}

type ParsedEnv = z.infer<typeof EnvSchema>;

/** A URL and key set together, with a warning when only one of them is. */
function keyPair(
  url: string | undefined,
  key: string | undefined,
  names: { url: string; key: string; target: string },
  warnings: string[],
): { baseUrl: string; apiKey: string } | undefined {
  if (url && !key)
    warnings.push(
      `${names.url} is set but ${names.key} is not: the ${names.target} target is listed as "key missing" and does not send.`,
    );
  if (key && !url)
    warnings.push(`${names.key} is set but ${names.url} is not: the ${names.target} target is off.`);
  return url && key ? { baseUrl: url, apiKey: key } : undefined;
}

/** How the direct target is set beside its URL and key: its path, wire form and limits. */
const directSettings = (e: ParsedEnv) => ({
  evaluatePath: e.EVAL_EVALUATE_PATH,
  ...wireOf(e.EVAL_DIALECT, e.EVAL_ENVELOPE, e.EVAL_MODEL_IN_PATH),
  ...(e.EVAL_LIMITS ? { limits: e.EVAL_LIMITS } : {}),
});

/** How the gateway target is set beside its URL and key: its path, key header, wire form and limits. */
const gatewaySettings = (e: ParsedEnv) => ({
  evaluatePath: e.EVAL_GATEWAY_EVALUATE_PATH,
  authHeader: e.EVAL_GATEWAY_AUTH_HEADER,
  ...wireOf(e.EVAL_GATEWAY_DIALECT, e.EVAL_GATEWAY_ENVELOPE, e.EVAL_GATEWAY_MODEL_IN_PATH),
  ...(e.EVAL_GATEWAY_LIMITS ? { limits: e.EVAL_GATEWAY_LIMITS } : {}),
});

/**
 * Parses variables (and the targets file, when one was read) into the server's settings; throws an EnvError naming
 * each bad variable. A bad targets entry does not throw: it is a warning, and the other targets still start.
 */
export function parseServerEnv(env: RawEnv, targetsFile: TargetsFile | null = null): ServerEnv {
  const parsed = EnvSchema.safeParse(unsetEmpty(env));
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((i) => i.message).join(' '));
  }
  const e = parsed.data;
  const warnings: string[] = [];
  const directNames = { url: 'EVAL_BASE_URL', key: 'EVAL_API_KEY', target: 'direct' };
  const direct = keyPair(e.EVAL_BASE_URL, e.EVAL_API_KEY, directNames, warnings);
  const gatewayNames = { url: 'EVAL_GATEWAY_URL', key: 'EVAL_GATEWAY_KEY', target: 'gateway' };
  const gateway = keyPair(e.EVAL_GATEWAY_URL, e.EVAL_GATEWAY_KEY, gatewayNames, warnings);
  const targets = resolveTargets({
    env: unsetEmpty(env),
    envTargets: {
      direct: e.EVAL_BASE_URL ? { baseUrl: e.EVAL_BASE_URL, ...directSettings(e) } : undefined,
      gateway: e.EVAL_GATEWAY_URL ? { baseUrl: e.EVAL_GATEWAY_URL, ...gatewaySettings(e) } : undefined,
    },
    file: targetsFile,
  });
  warnings.push(...targets.problems);
  if (!isLoopbackHost(e.HOST)) {
    warnings.push(
      `HOST=${e.HOST}: the workbench is reachable from other machines, and anyone who can reach it can spend the configured keys.`,
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    direct: direct && { ...direct, ...directSettings(e) },
    gateway: gateway && { ...gateway, ...gatewaySettings(e) },
    upstreamTimeoutMs: e.PROXY_TIMEOUT_MS,
    bodyLimitBytes: e.PROXY_BODY_LIMIT_BYTES,
    warnings,
    raw: env,
    targets,
  };
}

/** Every API key the environment configures, the reference's own included: what the logger redacts. */
export function configuredSecrets(env: ServerEnv): string[] {
  const referenceKeys = (env.raw.REFERENCE_API_KEY ?? '').split(',').map((k) => k.trim());
  const targetKeys = env.targets.targets.flatMap((t) => {
    const key = env.targets.keys[t.id];
    return key === undefined ? [] : keyForms(t, key);
  });
  const keys = [...targetKeys, ...referenceKeys].filter((k) => k !== '');
  return [...new Set(keys)];
}

export interface LoadEnvOptions {
  /** Directory holding `.env.local`. */
  root: string;
  /** Process variables; they win over the file. Default process.env. */
  processEnv?: RawEnv;
}

/**
 * The variables the server runs with: `.env.local` under `root`, overridden by the process's own variables (as
 * Node's --env-file does). WORKBENCH_ENV_FILE names another file; set to an empty string, no file is read.
 */
export function loadRawEnv({ root, processEnv = process.env }: LoadEnvOptions): RawEnv {
  const named = processEnv.WORKBENCH_ENV_FILE;
  const file =
    named === undefined ? resolve(root, '.env.local') : named.trim() === '' ? null : resolve(root, named);
  const fromFile = file && existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {};
  return { ...fromFile, ...processEnv };
}

/** Loads and parses the environment and the targets file (workbench.targets.json under `root`) in one step. */
export function loadServerEnv(options: LoadEnvOptions): ServerEnv {
  const raw = loadRawEnv(options);
  return parseServerEnv(raw, readTargetsFile(options.root, raw));
}
