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

function fromJson(json: unknown): ReadError | null {
  const ref = ErrorBodySchema.safeParse(json);
  if (ref.success)
    return {
      message: sentence(ref.data.detail.message),
      errors: asFieldErrors(ref.data.detail.errors ?? []),
    };
  if (typeof json === 'string' && json.trim()) return { message: sentence(json), errors: [] };
  if (!json || typeof json !== 'object') return null;
  const o = json as Record<string, unknown>;
  if (Array.isArray(o.detail)) {
    const errors = asFieldErrors(o.detail);
    if (errors.length) return { message: sentence(errors.map((e) => e.msg).join('; ')), errors };
  }
  for (const key of ['detail', 'error', 'message', 'msg', 'title']) {
    const v = o[key];
    if (typeof v === 'string' && v.trim()) return { message: sentence(v), errors: asFieldErrors(o.errors) };
    if (v && typeof v === 'object') {
      const inner = fromJson(v);
      if (inner) return inner;
    }
  }
  return null;
}

/** Reads any error body (JSON of several shapes, plain text, HTML, nothing) into one sentence plus locations. */
export function readErrorBody(status: number, text: string): ReadError {
  const trimmed = text.trim();
  if (trimmed) {
    try {
      const fromBody = fromJson(JSON.parse(trimmed));
      if (fromBody && fromBody.message) return fromBody;
    } catch {
      // Not JSON: a short plain-text body is the message; HTML or long pages are not.
      if (!trimmed.startsWith('<') && trimmed.length <= 300)
        return { message: sentence(trimmed), errors: [] };
    }
  }
  return { message: statusSentence(status), errors: [] };
}
