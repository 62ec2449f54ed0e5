// Presets: what each known server fills in for a target (paths, auth, rate limits, price, limits). Every figure comes
// from the server's own documentation or source, cited in docs/servers.md; a figure no source gives is left null.
import {
  MAX_LEVELS,
  MAX_OPTIONS,
  MAX_REQUEST_INPUT_TOKENS,
  PRICE_PER_MILLION_INPUT_TOKENS,
  RATE_LIMIT_INPUT_TOKENS_PER_SECOND,
  RATE_LIMIT_REQUESTS_PER_MINUTE,
  DEFAULT_EVALUATE_PATH,
  MODELS_PATH,
} from './limits';
import type { AuthKind, PresetId, TargetKind, TargetLimits } from './targets';

/** The public name of the evaluate route, served by every System One server in docs/servers.md. */
export const SYSTEMONE_PATH = '/v1/systemone';

/** What a preset fills in; a target's configuration overrides any of it. */
export interface Preset {
  id: PresetId;
  /** A short name for pickers and `npm start`'s list. */
  name: string;
  kind: TargetKind;
  /** Null when the user must give the address (a generic gateway, a custom server). */
  baseUrl: string | null;
  evaluatePath: string;
  modelsPath: string | null;
  auth: AuthKind;
  /** For auth `header`: the header that carries the raw key. */
  header: string | null;
  /** The variable a target of this preset reads its key from unless configured otherwise; null: derived from the id. */
  keyVar: string | null;
  requestsPerMinute: number | null;
  tokensPerSecond: number | null;
  /** Per million input tokens; 0 for a server on the user's machine; null when it depends on the model. */
  inputPrice: number | null;
  limits: TargetLimits;
  /** One line for the docs and the picker's hover text. */
  about: string;
}

export const PRESETS: Readonly<Record<PresetId, Preset>> = {
  local: {
    id: 'local',
    name: 'Local reference',
    kind: 'local',
    baseUrl: null,
    evaluatePath: DEFAULT_EVALUATE_PATH,
    modelsPath: MODELS_PATH,
    auth: 'bearer',
    header: 'Authorization',
    keyVar: null,
    requestsPerMinute: RATE_LIMIT_REQUESTS_PER_MINUTE,
    tokensPerSecond: RATE_LIMIT_INPUT_TOKENS_PER_SECOND,
    inputPrice: PRICE_PER_MILLION_INPUT_TOKENS,
    limits: { options: MAX_OPTIONS, levels: MAX_LEVELS, contextTokens: MAX_REQUEST_INPUT_TOKENS },
    about: 'The in-process reference service: a deterministic judge, not a language model.',
  },
  hosted: {
    id: 'hosted',
    name: 'Hosted service',
    kind: 'direct',
    baseUrl: 'https://api.typesafe.ai',
    evaluatePath: SYSTEMONE_PATH,
    modelsPath: MODELS_PATH,
    auth: 'bearer',
    header: 'Authorization',
    keyVar: null,
    // Published figures ("may change without notice"): 1,200 requests/min, 250k tokens/s, $0.042 per million input.
    requestsPerMinute: RATE_LIMIT_REQUESTS_PER_MINUTE,
    tokensPerSecond: RATE_LIMIT_INPUT_TOKENS_PER_SECOND,
    inputPrice: PRICE_PER_MILLION_INPUT_TOKENS,
    limits: { options: MAX_OPTIONS, levels: MAX_LEVELS, contextTokens: MAX_REQUEST_INPUT_TOKENS },
    about:
      'The hosted service: POST /v1/systemone with a bearer key, models listed as {models:[…]}, ids jev-*.',
  },
  llamacpp: {
    id: 'llamacpp',
    name: 'llama.cpp server',
    kind: 'direct',
    baseUrl: 'http://127.0.0.1:8080',
    evaluatePath: SYSTEMONE_PATH,
    modelsPath: MODELS_PATH,
    auth: 'none',
    header: null,
    keyVar: null,
    requestsPerMinute: null,
    tokensPerSecond: null,
    inputPrice: 0,
    limits: { levels: MAX_LEVELS },
    about:
      'llama-server (b11361 and later): keyless unless started with --api-key; an OpenAI-style model list marks decision models; 501 for a model that is not one.',
  },
  ollama: {
    id: 'ollama',
    name: 'Ollama',
    kind: 'direct',
    baseUrl: 'http://127.0.0.1:11434',
    evaluatePath: SYSTEMONE_PATH,
    modelsPath: MODELS_PATH,
    auth: 'none',
    header: null,
    keyVar: null,
    requestsPerMinute: null,
    tokensPerSecond: null,
    inputPrice: 0,
    limits: { questions: 64, options: MAX_OPTIONS, levels: 26 },
    about:
      'Ollama 0.35 and later: keyless on this machine; echoes the model name it was sent; errors as {"error": "…"}.',
  },
  litellm: {
    id: 'litellm',
    name: 'LiteLLM proxy',
    kind: 'gateway',
    baseUrl: 'http://127.0.0.1:4000',
    evaluatePath: SYSTEMONE_PATH,
    modelsPath: MODELS_PATH,
    auth: 'bearer',
    header: 'Authorization',
    keyVar: 'LITELLM_API_KEY',
    requestsPerMinute: null,
    tokensPerSecond: null,
    inputPrice: null,
    limits: {},
    about:
      'LiteLLM proxy (1.104.2 and later): /v1/systemone for System One bodies (/v1/decisions is OpenAI Decisions), a proxy key, an OpenAI-style model list.',
  },
  openrouter: {
    id: 'openrouter',
    name: 'OpenRouter',
    kind: 'gateway',
    baseUrl: 'https://openrouter.ai',
    evaluatePath: '/api/v1/systemone',
    modelsPath: '/api/v1/models?output_modalities=decisions',
    auth: 'bearer',
    header: 'Authorization',
    keyVar: 'OPENROUTER_API_KEY',
    requestsPerMinute: null,
    tokensPerSecond: null,
    inputPrice: null,
    limits: {},
    about:
      'OpenRouter: /api/v1/systemone, ids such as typesafe/jev-1.13 and ~typesafe/jev-latest, decision models listed by output modality.',
  },
  gateway: {
    id: 'gateway',
    name: 'Gateway',
    kind: 'gateway',
    baseUrl: null,
    evaluatePath: SYSTEMONE_PATH,
    modelsPath: MODELS_PATH,
    auth: 'bearer',
    header: 'Authorization',
    keyVar: null,
    requestsPerMinute: null,
    tokensPerSecond: null,
    inputPrice: null,
    limits: {},
    about: 'A gateway in front of one or more System One servers: give its address, auth and key variable.',
  },
  custom: {
    id: 'custom',
    name: 'Custom server',
    kind: 'direct',
    baseUrl: null,
    evaluatePath: DEFAULT_EVALUATE_PATH,
    modelsPath: MODELS_PATH,
    auth: 'bearer',
    header: 'Authorization',
    keyVar: null,
    requestsPerMinute: null,
    tokensPerSecond: null,
    inputPrice: null,
    limits: {},
    about: 'Any server of this interface: every field from the configuration.',
  },
};

/** The presets a user may name in workbench.targets.json (the local reference is built in). */
export const CONFIGURABLE_PRESETS = (Object.keys(PRESETS) as PresetId[]).filter((p) => p !== 'local');
