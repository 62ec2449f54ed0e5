// Settings of the local reference service: keys, rate limits, overload, fault injection; parsed from the environment.
import { z } from 'zod';
import { RATE_LIMIT_INPUT_TOKENS_PER_SECOND, RATE_LIMIT_REQUESTS_PER_MINUTE } from '../../contract';
import type { AnswerPerturbation } from './perturb';
import { NO_PERTURBATION, perturbationFromEnv } from './perturb';
import type { Judge } from './judges';

/** Injected faults: probabilities per evaluation (they add up to at most 1) and an optional latency range in ms. */
export interface FaultSpec {
  p429: number;
  p529: number;
  timeout: number;
  reset: number;
  latency: [number, number] | null;
}

/** Everything the reference app can be configured with. */
export interface ReferenceOptions {
  /** Accepted bearer keys. */
  apiKeys: string[];
  /** Requests per minute, per key (token bucket of this capacity, refilled at rpm/60 per second). */
  rpm: number;
  /** Input tokens per second, per key (token bucket of this capacity, refilled at tps per second). */
  tps: number;
  /** Evaluations allowed in flight at once; one more answers 529. */
  maxInflight: number;
  faults: FaultSpec;
  /** Seed of the fault draws, so a run of requests meets the same faults every time. */
  seed: number;
  /** Injected 429/529 carry retry-after-ms of this and Retry-After rounded up to seconds; 0 sends neither. */
  faultRetryAfterMs: number;
  /** How long an injected timeout holds the response, unless the client gives up first. */
  timeoutHoldMs: number;
  /** Clock of the rate-limit buckets, in ms. */
  now: () => number;
  /** Opt-in order bias and noise applied to answers as they leave the judge (off by default). */
  perturbation: AnswerPerturbation;
  /** A judge answering beside the lexical one (a model file); its owner closes it. */
  modelJudge: Judge | null;
}

/** The key printed at start and used when REFERENCE_API_KEY is not set: a local development key, not a secret. */
export const DEFAULT_API_KEY = 'local-dev-key';

export const NO_FAULTS: FaultSpec = Object.freeze({ p429: 0, p529: 0, timeout: 0, reset: 0, latency: null });

/** Defaults: the published rate limits, no faults. */
export const DEFAULT_REFERENCE_OPTIONS: Readonly<ReferenceOptions> = Object.freeze({
  apiKeys: [DEFAULT_API_KEY],
  rpm: RATE_LIMIT_REQUESTS_PER_MINUTE,
  tps: RATE_LIMIT_INPUT_TOKENS_PER_SECOND,
  maxInflight: 64,
  faults: NO_FAULTS,
  seed: 1,
  // A second is what a real 429 tends to ask for; fault-storm tests set it lower.
  faultRetryAfterMs: 1000,
  // Longer than the client's 30 s per-attempt timeout, so the client's timeout is what ends it.
  timeoutHoldMs: 120_000,
  now: () => Date.now(),
  perturbation: NO_PERTURBATION,
  modelJudge: null,
});

const FAULT_KEYS = { '429': 'p429', '529': 'p529', timeout: 'timeout', reset: 'reset' } as const;
const MAX_LATENCY_MS = 600_000;

/** Parses "429=0.05,529=0.05,timeout=0.01,reset=0.01,latency=20-80"; throws an Error that names the bad entry. */
export function parseFaults(spec: string): FaultSpec {
  const faults: FaultSpec = { ...NO_FAULTS };
  const seen = new Set<string>();
  for (const raw of spec.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    const key = (eq < 0 ? entry : entry.slice(0, eq)).trim().toLowerCase();
    const value = eq < 0 ? '' : entry.slice(eq + 1).trim();
    const bad = (why: string): Error =>
      new Error(
        `Bad fault entry "${entry}": ${why} Expected for example "429=0.05,529=0.05,timeout=0.01,reset=0.01,latency=20-80".`,
      );
    if (seen.has(key)) throw bad(`"${key}" is given twice.`);
    seen.add(key);
    if (key === 'latency') {
      const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(value);
      if (!m) throw bad('the latency is a range of whole milliseconds, "min-max" or a single number.');
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : Number(m[2]);
      if (max < min) throw bad('the latency range must go from the smaller to the larger number.');
      if (max > MAX_LATENCY_MS) throw bad(`the latency may be at most ${MAX_LATENCY_MS} ms.`);
      faults.latency = [min, max];
      continue;
    }
    const field = (FAULT_KEYS as Record<string, (typeof FAULT_KEYS)[keyof typeof FAULT_KEYS] | undefined>)[
      key
    ];
    if (!field) throw bad(`"${key}" is not a fault; use 429, 529, timeout, reset or latency.`);
    const p = value === '' ? NaN : Number(value);
    if (!Number.isFinite(p) || p < 0 || p > 1) throw bad('the probability must be a number between 0 and 1.');
    faults[field] = p;
  }
  const total = faults.p429 + faults.p529 + faults.timeout + faults.reset;
  if (total > 1 + 1e-9) {
    throw new Error(`Bad fault spec "${spec}": the probabilities add up to ${total}, more than 1.`);
  }
  return faults;
}

/** Describes faults in a line, for the start-up banner. */
export function describeFaults(faults: FaultSpec): string {
  const parts: string[] = [];
  if (faults.p429) parts.push(`429=${faults.p429}`);
  if (faults.p529) parts.push(`529=${faults.p529}`);
  if (faults.timeout) parts.push(`timeout=${faults.timeout}`);
  if (faults.reset) parts.push(`reset=${faults.reset}`);
  if (faults.latency) parts.push(`latency=${faults.latency[0]}-${faults.latency[1]}ms`);
  return parts.length ? parts.join(', ') : 'none';
}

const positiveInt = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number.` })
    .int(`${name} must be a whole number.`)
    .positive(`${name} must be above 0.`);
const nonNegativeInt = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number.` })
    .int(`${name} must be a whole number.`)
    .min(0, `${name} must not be negative.`);

const EnvSchema = z.object({
  REFERENCE_API_KEY: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k !== ''),
    )
    .transform((keys) => (keys.length ? keys : [DEFAULT_API_KEY])),
  REFERENCE_RPM: positiveInt('REFERENCE_RPM').default(DEFAULT_REFERENCE_OPTIONS.rpm),
  REFERENCE_TPS: positiveInt('REFERENCE_TPS').default(DEFAULT_REFERENCE_OPTIONS.tps),
  REFERENCE_MAX_INFLIGHT: positiveInt('REFERENCE_MAX_INFLIGHT').default(
    DEFAULT_REFERENCE_OPTIONS.maxInflight,
  ),
  REFERENCE_FAULTS: z
    .string()
    .optional()
    .transform((spec, ctx) => {
      try {
        return parseFaults(spec ?? '');
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: `REFERENCE_FAULTS: ${(e as Error).message}` });
        return z.NEVER;
      }
    }),
  REFERENCE_SEED: z.coerce
    .number({ error: 'REFERENCE_SEED must be a number.' })
    .int('REFERENCE_SEED must be a whole number.')
    .default(DEFAULT_REFERENCE_OPTIONS.seed),
  REFERENCE_FAULT_RETRY_AFTER_MS: nonNegativeInt('REFERENCE_FAULT_RETRY_AFTER_MS').default(
    DEFAULT_REFERENCE_OPTIONS.faultRetryAfterMs,
  ),
  REFERENCE_TIMEOUT_HOLD_MS: nonNegativeInt('REFERENCE_TIMEOUT_HOLD_MS').default(
    DEFAULT_REFERENCE_OPTIONS.timeoutHoldMs,
  ),
});

// An empty variable means "not set", as shells and .env files write it.
const unsetEmpty = (env: Record<string, string | undefined>): Record<string, string | undefined> =>
  Object.fromEntries(
    Object.entries(env).map(([k, v]) => [k, v === undefined || v.trim() === '' ? undefined : v]),
  );

/** Reads REFERENCE_* variables; throws one Error listing every bad variable. */
export function referenceOptionsFromEnv(env: Record<string, string | undefined>): ReferenceOptions {
  const parsed = EnvSchema.safeParse(unsetEmpty(env));
  let perturbation = NO_PERTURBATION;
  const problems = parsed.success ? [] : parsed.error.issues.map((i) => i.message);
  try {
    perturbation = perturbationFromEnv(env);
  } catch (e) {
    problems.push((e as Error).message);
  }
  if (!parsed.success || problems.length) throw new Error(problems.join(' '));
  const e = parsed.data;
  return {
    ...DEFAULT_REFERENCE_OPTIONS,
    apiKeys: e.REFERENCE_API_KEY,
    rpm: e.REFERENCE_RPM,
    tps: e.REFERENCE_TPS,
    maxInflight: e.REFERENCE_MAX_INFLIGHT,
    faults: e.REFERENCE_FAULTS,
    seed: e.REFERENCE_SEED,
    faultRetryAfterMs: e.REFERENCE_FAULT_RETRY_AFTER_MS,
    timeoutHoldMs: e.REFERENCE_TIMEOUT_HOLD_MS,
    perturbation,
  };
}

/** Fills defaults into partial options and checks them; throws on settings that cannot work. */
export function resolveReferenceOptions(options: Partial<ReferenceOptions> = {}): ReferenceOptions {
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const o: ReferenceOptions = { ...DEFAULT_REFERENCE_OPTIONS, ...defined };
  if (o.apiKeys.length === 0 || o.apiKeys.some((k) => k === ''))
    throw new Error('apiKeys must hold at least one non-empty key.');
  for (const name of ['rpm', 'tps', 'maxInflight'] as const) {
    if (!(o[name] > 0)) throw new Error(`${name} must be above 0.`);
  }
  if (!(o.faultRetryAfterMs >= 0) || !(o.timeoutHoldMs >= 0))
    throw new Error('Fault delays must not be negative.');
  const { p429, p529, timeout, reset, latency } = o.faults;
  if (
    [p429, p529, timeout, reset].some((p) => !(p >= 0 && p <= 1)) ||
    p429 + p529 + timeout + reset > 1 + 1e-9
  ) {
    throw new Error('faults: each probability is between 0 and 1, and together they add up to at most 1.');
  }
  if (latency && !(latency[0] >= 0 && latency[1] >= latency[0]))
    throw new Error('faults: latency is [min, max] in ms.');
  return o;
}
