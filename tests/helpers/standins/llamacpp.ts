// Stand-in for llama.cpp's llama-server in decision mode (b11361 and later), on the reference judge. Not llama.cpp.
// Sources (docs/servers.md §3.1): Quartermaster's docs/decision-models.md (System One on /v1/systemone in the TypeSafe
// request shape); the router's /v1/models with output_modalities ["decisions"] (Quartermaster v1.7.0 notes); the
// llama-server error envelope {"error":{"code","message","type"}} and 501 not_supported_error "This model is not a
// decision model" (server-decision.cpp as cited by cyrup's docs); usage.output_tokens 0; keyless unless --api-key.
// The echoed `model` is the name given with --alias.
import { Hono } from 'hono';
import { asResponse, jsonBody, referenceJudge, serveStandin } from './common';
import type { RunningStandin } from './common';

/** Models the router lists: two decision GGUFs and a chat model. */
const LISTED = [
  { id: 'Kev-4B', decision: true, runs: 'model-1.13.0' },
  { id: 'laya', decision: true, runs: 'model-1.12.0' },
  { id: 'qwen3-8b', decision: false, runs: '' },
];

const llamaError = (status: number, type: string, message: string) =>
  Response.json({ error: { code: status, message, type } }, { status });

export function llamacppApp(): Hono {
  const judge = referenceJudge();
  const app = new Hono();
  app.get('/v1/models', (c) =>
    c.json({
      object: 'list',
      data: LISTED.map((m) => ({
        id: m.id,
        object: 'model',
        owned_by: 'llamacpp',
        created: 1_790_000_000,
        output_modalities: m.decision ? ['decisions'] : ['text'],
      })),
    }),
  );
  app.post('/v1/systemone', async (c) => {
    const body = await jsonBody(c.req.raw);
    if (!body) return llamaError(400, 'invalid_request_error', 'Failed to parse the request body as JSON');
    const listed = LISTED.find((m) => m.id === body.model);
    if (!listed) return llamaError(400, 'invalid_request_error', `model '${String(body.model)}' not found`);
    if (!listed.decision) return llamaError(501, 'not_supported_error', 'This model is not a decision model');
    const answer = await judge.evaluate({ ...body, model: listed.runs });
    if (answer.status !== 200) {
      const detail = (answer.json as { detail?: { message?: string } }).detail;
      return llamaError(400, 'invalid_request_error', detail?.message ?? 'invalid request');
    }
    const response = asResponse(answer.json);
    return c.json({ ...response, model: listed.id, usage: { ...response.usage, output_tokens: 0 } });
  });
  app.notFound(() => llamaError(404, 'not_found_error', 'File Not Found'));
  return app;
}

/** Serves the llama.cpp stand-in: keyless, as llama-server runs without --api-key. */
export const serveLlamacpp = (): Promise<RunningStandin> =>
  serveStandin(llamacppApp(), null, { preset: 'llamacpp' });
