// Harmless differences between a server and the contract, smoothed at the proxy so every screen reads one shape: a
// model list in OpenAI's shape (or both shapes at once) becomes the contract's `{models: [...]}`, decision models only.
// Real differences (missing fields, other error bodies) are left as they came, for the target check to name.
import { ModelListSchema, modelListShape } from '../../contract';

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
