// Error bodies: the reference service's shape, and a tolerant reader for any body a service may send.
import { z } from 'zod';
import type { FieldError, Loc } from './validation';

export const ERROR_TYPES = [
  'authentication_error',
  'invalid_request',
  'rate_limit',
  'overloaded',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'server_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

const LocSchema = z.array(z.union([z.string(), z.number()]));
const FieldErrorSchema = z.object({ loc: LocSchema, msg: z.string() });

/** The reference service's error body. */
export const ErrorBodySchema = z.object({
  detail: z.object({
    error_type: z.enum(ERROR_TYPES),
    message: z.string(),
    errors: z.array(FieldErrorSchema).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Builds the reference service's error body. */
export function errorBody(error_type: ErrorType, message: string, errors?: FieldError[]): ErrorBody {
  return { detail: errors ? { error_type, message, errors } : { error_type, message } };
}

/** What any error body says: one sentence for a person, and field locations when the body gives them. */
export interface ReadError {
  message: string;
  errors: FieldError[];
  /** The service's own error code, when the body names one (Cloudflare's 4006, OpenAI's `insufficient_quota`...). */
  code?: string;
  /** A quota the service says will not come back soon (a daily allocation, a billing quota): retrying cannot help. */
  quota?: boolean;
  /** The model exists but does not answer decisions (llama.cpp's 501, Ollama's and Fireworks' 400). */
  notDecisionModel?: boolean;
}

const STATUS_SENTENCES: Record<number, string> = {
  400: 'The service refused the request as malformed.',
  401: 'The API key is missing or wrong.',
  403: 'The request was refused.',
  404: 'That route does not exist on this service.',
  405: 'That method is not allowed on this route.',
  408: 'The service timed out waiting for the request.',
  413: 'The request body is too large.',
  422: 'The request failed validation.',
  429: 'Too many requests: the rate limit was reached.',
  500: 'The service had an internal error.',
  501: 'The service does not implement this for this model.',
  502: 'The service could not be reached through its gateway.',
  503: 'The service is unavailable.',
  504: 'The service gateway timed out.',
  529: 'The service is overloaded.',
};

/** A default sentence for a status, used when a body says nothing readable. */
export function statusSentence(status: number): string {
  return STATUS_SENTENCES[status] ?? `The service answered with status ${status}.`;
}

const sentence = (s: string): string => {
  const t = s.trim().replace(/\s+/g, ' ');
  if (t === '') return t;
  const capital = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
};

const asFieldErrors = (list: unknown): FieldError[] => {
  const parsed = z.array(FieldErrorSchema).safeParse(list);
  return parsed.success ? parsed.data.map((e) => ({ loc: e.loc as Loc, msg: e.msg })) : [];
};

/** "questions[1].choices[0].value" or "questions.tone.criteria" as a loc: ['questions', 1, 'choices', 0, 'value']. */
export function parseParamPath(param: string): Loc {
  const loc: Loc = [];
  for (const match of param.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    if (match[2] !== undefined) loc.push(Number(match[2]));
    else if (/^\d+$/.test(match[1]!)) loc.push(Number(match[1]));
    else loc.push(match[1]!);
  }
  return loc;
}

const codeOf = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;

/** Reads `{message, param|field|loc, code}` objects: OpenAI, Perplexity, llama-server, laya-serve, llamacpp-jev. */
function fromMessageObject(o: Record<string, unknown>): ReadError | null {
  const message = typeof o.message === 'string' ? o.message : typeof o.msg === 'string' ? o.msg : null;
  if (message === null || !message.trim()) return null;
  const where = typeof o.param === 'string' ? o.param : typeof o.field === 'string' ? o.field : null;
  const loc = Array.isArray(o.loc) ? asFieldErrors([{ loc: o.loc, msg: message }]) : [];
  const errors = loc.length
    ? loc
    : where
      ? [{ loc: parseParamPath(where), msg: message }]
      : asFieldErrors(o.errors);
  const code = codeOf(o.code) ?? codeOf(o.type);
  const nested = nestedError(message);
  return {
    message: nested?.message ?? sentence(message),
    errors: errors.length ? errors : (nested?.errors ?? []),
    ...(code ? { code } : {}),
  };
}

/** A message that carries a second error body inside it (Cloudflare nests the model's own envelope), read. */
function nestedError(message: string): ReadError | null {
  const start = message.indexOf('{');
  const end = message.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const inner = fromJson(JSON.parse(message.slice(start, end + 1)));
    return inner?.message ? inner : null;
  } catch {
    return null;
  }
}

function fromJson(json: unknown): ReadError | null {
  const ref = ErrorBodySchema.safeParse(json);
  if (ref.success)
    return {
      message: sentence(ref.data.detail.message),
      errors: asFieldErrors(ref.data.detail.errors ?? []),
    };
  if (typeof json === 'string' && json.trim())
    return nestedError(json) ?? { message: sentence(json), errors: [] };
  if (!json || typeof json !== 'object') return null;
  const o = json as Record<string, unknown>;
  if (Array.isArray(o.detail)) {
    const errors = asFieldErrors(o.detail);
    if (errors.length) return { message: sentence(errors.map((e) => e.msg).join('; ')), errors };
  }
  // Cloudflare's envelope: {success: false, errors: [{code, message}]}.
  if (Array.isArray(o.errors) && o.errors.length > 0 && !Array.isArray(o.detail)) {
    const items = o.errors.filter((e): e is Record<string, unknown> => !!e && typeof e === 'object');
    const read = items.map(fromMessageObject).filter((r): r is ReadError => r !== null);
    if (read.length) {
      const code = read.find((r) => r.code)?.code;
      return {
        message: read.map((r) => r.message).join(' '),
        errors: read.flatMap((r) => r.errors),
        ...(code ? { code } : {}),
      };
    }
  }
  for (const key of ['detail', 'error', 'message', 'msg', 'title']) {
    const v = o[key];
    if (typeof v === 'string' && v.trim()) {
      const code = codeOf(o.code);
      return { message: sentence(v), errors: asFieldErrors(o.errors), ...(code ? { code } : {}) };
    }
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const inner = fromMessageObject(v as Record<string, unknown>) ?? fromJson(v);
      if (inner) return inner;
    }
  }
  return null;
}

// A quota that does not come back within a run: Cloudflare's daily free allocation (429, code 4006) and OpenAI's
// `insufficient_quota` (429); a rate limit (Cloudflare 3040, "capacity temporarily exceeded") is not one.
const QUOTA_CODES = new Set(['4006', 'insufficient_quota']);
const QUOTA_TEXT = /daily (free )?allocation|quota (is )?(exceeded|exhausted|used up)|insufficient[_ ]quota/i;
const NOT_DECISION_TEXT =
  /not a decision model|not supported by system one|does not support decisions|cannot serve decisions|not_supported_error/i;

function classify(status: number, read: ReadError, raw: string): ReadError {
  const quota =
    status === 429 && ((read.code !== undefined && QUOTA_CODES.has(read.code)) || QUOTA_TEXT.test(raw));
  const notDecisionModel = (status === 501 || status === 400) && NOT_DECISION_TEXT.test(raw);
  return { ...read, ...(quota ? { quota } : {}), ...(notDecisionModel ? { notDecisionModel } : {}) };
}

/** Reads any error body (JSON of several shapes, plain text, HTML, nothing) into one sentence plus locations. */
export function readErrorBody(status: number, text: string): ReadError {
  const trimmed = text.trim();
  if (trimmed) {
    try {
      const fromBody = fromJson(JSON.parse(trimmed));
      if (fromBody && fromBody.message) return classify(status, fromBody, trimmed);
    } catch {
      // Not JSON: a short plain-text body is the message; HTML or long pages are not.
      if (!trimmed.startsWith('<') && trimmed.length <= 300)
        return classify(status, { message: sentence(trimmed), errors: [] }, trimmed);
    }
  }
  return classify(status, { message: statusSentence(status), errors: [] }, trimmed.slice(0, 2000));
}
