// Stand-in for the LiteLLM proxy (1.104.2+) serving decision models, on the reference judge. Not LiteLLM.
// Sources (docs/servers.md §2): docs.litellm.ai/docs/decisions (POST /v1/systemone and /systemone take System One
// bodies; /v1/decisions takes OpenAI Decisions; proxy key auth; cost in the x-litellm-response-cost header) and the
// v1.104.2 release notes. The proxy's /v1/models is OpenAI-style ({data:[{id, object:"model", owned_by}]}) and lists
// the model_name of each model_list entry, decision or not, without modality marks.
import { Hono } from 'hono';
import { asResponse, jsonBody, referenceJudge, referenceMessage, serveStandin } from './common';
import type { RunningStandin } from './common';

/** The model_list of this proxy: the client-facing names and the reference model behind each. */
const MODEL_LIST: Record<string, string> = {
  'jev-latest': 'model-1.13.0',
  'jev-1.13.0': 'model-1.13.0',
  'clef-flash': 'model-1.12.0',
};

const liteError = (status: number, message: string, type = 'invalid_request_error') =>
  Response.json({ error: { message, type, param: null, code: String(status) } }, { status });

export function litellmApp(key: string): Hono {
  const judge = referenceJudge();
  const app = new Hono();
  const authorized = (header: string | undefined) => header === `Bearer ${key}`;
  app.get('/v1/models', (c) =>
    authorized(c.req.header('authorization'))
      ? c.json({
          object: 'list',
          data: Object.keys(MODEL_LIST).map((id) => ({
            id,
            object: 'model',
            created: 1_677_610_602,
            owned_by: 'openai',
          })),
        })
      : liteError(401, 'Authentication Error, Invalid proxy server token passed.', 'auth_error'),
  );
  const systemone = async (request: Request, header: string | undefined) => {
    if (!authorized(header))
      return liteError(401, 'Authentication Error, Invalid proxy server token passed.', 'auth_error');
    const body = await jsonBody(request);
    if (!body) return liteError(400, 'Invalid JSON body');
    const model = typeof body.model === 'string' ? body.model : '';
    const runs = MODEL_LIST[model];
    if (!runs)
      return liteError(
        400,
        `Invalid model name passed in model=${model}. Call /v1/models to view available models for your key.`,
      );
    const answer = await judge.evaluate({ ...body, model: runs });
    if (answer.status !== 200)
      return liteError(answer.status === 422 ? 400 : answer.status, referenceMessage(answer.json));
    const response = asResponse(answer.json);
    const cost = ((response.usage.input_tokens * 0.042) / 1_000_000).toFixed(10);
    return Response.json(response, { headers: { 'x-litellm-response-cost': cost } });
  };
  app.post('/v1/systemone', (c) => systemone(c.req.raw, c.req.header('authorization')));
  app.post('/systemone', (c) => systemone(c.req.raw, c.req.header('authorization')));
  app.notFound(() => liteError(404, 'Not Found', 'not_found'));
  return app;
}

/** Serves the LiteLLM stand-in; its entry uses the `litellm` preset with the proxy key in LITELLM_TEST_KEY. */
export const serveLitellm = (key: string): Promise<RunningStandin> =>
  serveStandin(litellmApp(key), key, { preset: 'litellm', keyVar: 'LITELLM_TEST_KEY' });
