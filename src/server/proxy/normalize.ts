// Harmless differences between a server and the contract, smoothed at the proxy so every screen reads one shape: a
// model list in OpenAI's shape (or both shapes at once) becomes the contract's `{models: [...]}`, decision models only.
// Real differences (missing fields, other error bodies) are left as they came, for the target check to name.
import { ModelListSchema, modelListShape } from '../../contract';
import type { TargetDescription } from '../../contract';

/** The model list body as the contract shapes it, or the same buffer when it already is (or is not a list at all). */
export function normalizeModelList(body: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return body;
  }
  if (modelListShape(json) === 'contract') return body;
  const parsed = ModelListSchema.safeParse(json);
  return parsed.success ? Buffer.from(JSON.stringify(parsed.data), 'utf8') : body;
}

/**
 * The upstream evaluate path of a request: `{model}` in the target's path is replaced by the request's model when the
 * target carries the model in its path (Cloudflare's `/ai/run/@cf/cloudflare/<model>`). Null with a sentence when
 * the body names no model to put there.
 */
export function evaluatePathFor(
  target: Pick<TargetDescription, 'evaluatePath' | 'modelInPath'>,
  body: Buffer<ArrayBuffer>,
): { path: string } | { problem: string } {
  if (!target.modelInPath || !target.evaluatePath.includes('{model}')) return { path: target.evaluatePath };
  let model: unknown;
  try {
    model = (JSON.parse(body.toString('utf8')) as { model?: unknown }).model;
  } catch {
    model = undefined;
  }
  if (typeof model !== 'string' || model.trim() === '') {
    return { problem: 'This target carries the model in its path, and the request names no model.' };
  }
  // Slashes are kept (Cloudflare's ids are `@cf/vendor/name`); anything else that would change the path is encoded,
  // and a dot segment is refused: it would walk the key to another route of the same host.
  const parts = model.trim().split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) {
    return { problem: `The model "${model}" cannot be put in this target's path (an empty or dot segment).` };
  }
  const segment = parts.map((part) => encodeURIComponent(part)).join('/');
  return { path: target.evaluatePath.replace('{model}', segment) };
}
