// Turns zod issues into the contract's field errors: a JSON path into the body and one sentence.
import type { z } from 'zod';
import { EvaluateRequestSchema, REQUEST_FIELDS } from './request';
import type { EvaluateRequest } from './request';

export type Loc = (string | number)[];
/** One problem with a request body, located by its JSON path. */
export interface FieldError {
  loc: Loc;
  msg: string;
}

const MISSING = Symbol('missing');
function valueAt(body: unknown, path: Loc): unknown {
  let at: unknown = body;
  for (const part of path) {
    if (at === null || typeof at !== 'object' || !(part in (at as object))) return MISSING;
    at = (at as Record<string | number, unknown>)[part];
  }
  return at;
}

function describeIssue(issue: z.core.$ZodIssue, path: Loc, body: unknown): FieldError[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      loc: [...path, key],
      msg:
        path.length === 0
          ? `Unknown top-level field "${key}": a request holds only ${REQUEST_FIELDS.join(', ')}.`
          : `Unknown field "${key}".`,
    }));
  }
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_union') && valueAt(body, path) === MISSING) {
    return [{ loc: path, msg: `The field "${String(path[path.length - 1])}" is required.` }];
  }
  return [{ loc: path, msg: issue.message }];
}

/** Field errors for a zod error on `body`, one per problem, in body order. */
export function fieldErrors(error: z.ZodError, body: unknown): FieldError[] {
  return error.issues.flatMap((issue) =>
    describeIssue(
      issue,
      issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
      body,
    ),
  );
}

export type Validation<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** Checks a body against the request schema, without token limits (those need the tokenizer). */
export function validateRequestShape(body: unknown): Validation<EvaluateRequest> {
  const parsed = EvaluateRequestSchema.safeParse(body);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, errors: fieldErrors(parsed.error, body) };
}

/**
 * "questions.tone.criteria" for a loc, for lists a person reads: the field as the editor names it, without the
 * leading "body" FastAPI servers (and Cloudflare's nested errors) put before a body field, as `splitLoc` skips it.
 */
export function formatLoc(loc: Loc): string {
  const field = loc[0] === 'body' && loc.length > 1 ? loc.slice(1) : loc;
  return field.reduce<string>((out, part) => {
    if (typeof part === 'number') return `${out}[${part}]`;
    return out === '' ? part : `${out}.${part}`;
  }, '');
}
