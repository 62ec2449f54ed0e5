// Request bodies read within a size limit and checked by the contract's zod schema: bad input gets a sentence naming
// the field, and nothing is stored.
import type { Context } from 'hono';
import type { z } from 'zod';
import { readLimitedBody } from '../proxy/app';
import { WorkspaceFault } from './fault';

/** Most requests are small; a published queue or an imported file may be large. */
export const SMALL_BODY = 1024 * 1024;
export const LARGE_BODY = 256 * 1024 * 1024;

export async function textBody(c: Context, limit: number): Promise<string> {
  const read = await readLimitedBody(c.req.raw, limit);
  if (read === null)
    throw new WorkspaceFault(
      413,
      'payload_too_large',
      `The request is over ${Math.round(limit / 1048576)} MB; send it in parts.`,
    );
  return read.toString('utf8');
}

/** A sentence per problem: where in the body, and what is wrong. */
export const issuesText = (error: z.ZodError): string =>
  error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`)
    .join('; ');

export async function jsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  limit = SMALL_BODY,
): Promise<z.output<S>> {
  const text = await textBody(c, limit);
  let json: unknown;
  try {
    json = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new WorkspaceFault(400, 'invalid_body', 'The request body is not JSON.');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new WorkspaceFault(400, 'invalid_body', `The request is not valid: ${issuesText(parsed.error)}.`);
  return parsed.data;
}
