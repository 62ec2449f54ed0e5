// Stand-in for OpenRouter's decision route, on the reference judge. Not OpenRouter.
// Sources (docs/servers.md §1.3): openrouter.ai/docs/guides/features/decisions (list with
// GET /api/v1/models?output_modalities=decisions; typesafe/jev-1.14 and ~typesafe/jev-latest); clients that use
// POST /api/v1/systemone (bare jev-latest mapped; typesafe/jev-latest without the tilde answers 400); responses with
// extra `id`, `provider`, `usage.cost` and a dated `model` such as typesafe/jev-1.13-20260917; errors as
// {"error":{"message","code"}} with 400 for validation. No /v1/models on this base.
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { asResponse, jsonBody, referenceJudge, referenceMessage, serveStandin } from './common';
import type { RunningStandin } from './common';

/** Ids this route accepts, the reference model each runs on, and the dated snapshot echoed back. */
const ROUTES: Record<string, { runs: string; echo: string }> = {
  'typesafe/jev-1.13': { runs: 'model-1.13.0', echo: 'typesafe/jev-1.13-20260917' },
  'typesafe/jev-1.14': { runs: 'model-1.14.0', echo: 'typesafe/jev-1.14-20261001' },
  '~typesafe/jev-latest': { runs: 'model-1.14.0', echo: 'typesafe/jev-1.14-20261001' },
  'jev-latest': { runs: 'model-1.14.0', echo: 'typesafe/jev-1.14-20261001' },
  'jev-1.13': { runs: 'model-1.13.0', echo: 'typesafe/jev-1.13-20260917' },
};

/** The catalogue: decision models and a chat model (the query filters it out). */
const CATALOGUE = [
  { id: 'typesafe/jev-1.14', name: 'TypeSafe: Jev 1.14', created: 1_790_812_800, modalities: ['decisions'] },
  { id: 'typesafe/jev-1.13', name: 'TypeSafe: Jev 1.13', created: 1_790_208_000, modalities: ['decisions'] },
  {
    id: '~typesafe/jev-latest',
    name: 'TypeSafe: Jev (latest)',
    created: 1_790_812_800,
    modalities: ['decisions'],
  },
  { id: 'openai/gpt-5.2', name: 'OpenAI: GPT-5.2', created: 1_780_000_000, modalities: ['text'] },
];

const orError = (status: number, message: string) =>
  Response.json({ error: { message, code: status } }, { status });

export function openrouterApp(key: string): Hono {
  const judge = referenceJudge();
  const app = new Hono();
  const authorized = (header: string | undefined) => header === `Bearer ${key}`;
  app.get('/api/v1/models', (c) => {
    const wanted = c.req.query('output_modalities');
    const models = CATALOGUE.filter((m) => !wanted || m.modalities.includes(wanted));
    return c.json({
      data: models.map((m) => ({
        id: m.id,
        name: m.name,
        created: m.created,
        architecture: { input_modalities: ['text'], output_modalities: m.modalities },
      })),
    });
  });
  app.post('/api/v1/systemone', async (c) => {
    if (!authorized(c.req.header('authorization'))) return orError(401, 'No cookie auth credentials found');
    const body = await jsonBody(c.req.raw);
    if (!body) return orError(400, 'Invalid JSON');
    const model = typeof body.model === 'string' ? body.model : '';
    const route = ROUTES[model];
    if (!route) return orError(400, `${model} is not a valid model ID`);
    const answer = await judge.evaluate({ ...body, model: route.runs });
    if (answer.status !== 200)
      return orError(answer.status === 422 ? 400 : answer.status, referenceMessage(answer.json));
    const response = asResponse(answer.json);
    return c.json({
      id: `gen-${randomUUID()}`,
      provider: 'TypeSafe',
      ...response,
      model: route.echo,
      usage: { ...response.usage, cost: (response.usage.input_tokens * 0.042) / 1_000_000 },
    });
  });
  app.notFound(() => orError(404, 'Not Found'));
  return app;
}

/** Serves the OpenRouter stand-in; its entry uses the `openrouter` preset with the key in OPENROUTER_TEST_KEY. */
export const serveOpenrouter = (key: string): Promise<RunningStandin> =>
  serveStandin(openrouterApp(key), key, { preset: 'openrouter', keyVar: 'OPENROUTER_TEST_KEY' });
