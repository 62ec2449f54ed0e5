// Targets that take the model in the path: Cloudflare Workers AI serves
// `.../ai/run/@cf/cloudflare/<model>`, so the evaluate path is a prefix and the request's model its last segments.

// '@' is legal in a path segment and Cloudflare's model ids start with it (@cf/...).
const encodeSegment = (s: string): string => encodeURIComponent(s).replace(/%40/g, '@');

export type ModelPath = { ok: true; path: string } | { ok: false; problem: string };

/**
 * The evaluate path for `model`: the target's path with `{model}` replaced, or the path, a slash and the model, its
 * segments each URL-encoded. A model that
 * could climb out of the prefix ("..", "."), or is empty, is refused: the path must stay under what was configured.
 */
export function modelInPath(evaluatePath: string, model: string): ModelPath {
  const segments = model.split('/');
  if (model.trim() === '' || segments.some((s) => s === '' || s === '.' || s === '..'))
    return {
      ok: false,
      problem: `"${model}" cannot be placed in this target's path; use a plain model name such as clef.`,
    };
  const encoded = segments.map(encodeSegment).join('/');
  // A `{model}` placeholder says where the model goes; without one it ends the path.
  if (evaluatePath.includes('{model}')) return { ok: true, path: evaluatePath.replace('{model}', encoded) };
  return { ok: true, path: `${evaluatePath.replace(/\/+$/, '')}/${encoded}` };
}
