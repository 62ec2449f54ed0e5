// A server that wraps its answers: Cloudflare Workers AI answers `{result, success, errors, messages}` around the
// System One body, and `{success: false, errors: [{code, message}]}` on failure (docs/dialects.md, [CF1]).
import { z } from 'zod';

export const CloudflareEnvelopeSchema = z.looseObject({
  result: z.unknown(),
  success: z.boolean(),
  errors: z
    .array(z.looseObject({ code: z.union([z.number(), z.string()]).optional(), message: z.string() }))
    .optional(),
  messages: z.array(z.unknown()).optional(),
});

export type Unwrapped = { ok: true; body: unknown } | { ok: false; problem: string };

/** The body inside a successful envelope; a problem when the body is not one. */
export function unwrapCloudflare(json: unknown): Unwrapped {
  const parsed = CloudflareEnvelopeSchema.safeParse(json);
  if (!parsed.success)
    return { ok: false, problem: 'the answer is not in the {result, success} envelope this target uses' };
  if (!parsed.data.success) return { ok: false, problem: 'the envelope says success: false' };
  if (parsed.data.result === undefined || parsed.data.result === null)
    return { ok: false, problem: 'the envelope holds no result' };
  return { ok: true, body: parsed.data.result };
}

/** Wraps a result the way Cloudflare does (the Cloudflare stand-in answers with it). */
export const wrapCloudflare = (result: unknown) => ({ result, success: true, errors: [], messages: [] });

/** Cloudflare's error envelope. */
export const cloudflareError = (code: number, message: string) => ({
  result: null,
  success: false,
  errors: [{ code, message }],
  messages: [],
});
