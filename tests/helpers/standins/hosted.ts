// Stand-in for the hosted service (TypeSafe's System One API), built on the reference judge. Not the service.
// Sources (docs/servers.md §1): the OpenAPI in api-evangelist/typesafe-ai (openapi/typesafe-ai-systemone-api-openapi.yml,
// typesafe-ai-models-api-openapi.yml, errors/typesafe-ai-problem-types.yml); the model page of the docs
// (datawhalechina.github.io/jev-cookbook/models: jev-latest and jev-preview both point at jev-1.13.0 today).
// Differs from the contract as the service does: POST /v1/systemone (no /v1/evaluate: 404 {"detail":"Not Found"}),
// ids jev-*, FastAPI-style 422 bodies, the request id in x-typesafe-request-id.
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { asResponse, jsonBody, referenceJudge, serveStandin } from './common';
import type { RunningStandin } from './common';

/** The hosted ids and the reference model each one runs on. */
const MODELS: Record<string, string> = {
  'jev-latest': 'model-1.13.0',
  'jev-preview': 'model-1.13.0',
  'jev-1.13.0': 'model-1.13.0',
};
const ECHO: Record<string, string> = { 'model-1.13.0': 'jev-1.13.0' };

const CARDS = [
  {
    name: 'jev-latest',
    description: 'The most recent stable release (jev-1.13.0 today).',
    release_date: '2026-09-15',
  },
  {
    name: 'jev-preview',
    description: 'The most recent release, official or not (jev-1.13.0 today).',
    release_date: '2026-09-15',
  },
];

/** FastAPI's validation body: `{detail: [{loc, msg, type}]}`, with `body` first in each location. */
const fastApi422 = (loc: (string | number)[], msg: string) =>
  Response.json({ detail: [{ loc: ['body', ...loc], msg, type: 'value_error' }] }, { status: 422 });

export function hostedApp(key: string): Hono {
  const judge = referenceJudge();
  const app = new Hono();
  const authorized = (header: string | undefined) => header === `Bearer ${key}`;
  app.get('/v1/models', (c) =>
    authorized(c.req.header('authorization'))
      ? c.json({ models: CARDS })
      : c.json({ detail: 'Invalid API key' }, 401),
  );
  app.post('/v1/systemone', async (c) => {
    if (!authorized(c.req.header('authorization'))) return c.json({ detail: 'Invalid API key' }, 401);
    const body = await jsonBody(c.req.raw);
    if (!body) return fastApi422([], 'Input should be a valid JSON object');
    const model = typeof body.model === 'string' ? body.model : '';
    const runs = MODELS[model];
    if (!runs)
      return fastApi422(['model'], `Unknown model '${model}'; use jev-latest, jev-preview or jev-1.13.0.`);
    const answer = await judge.evaluate({ ...body, model: runs });
    const headers = { 'x-typesafe-request-id': randomUUID() };
    if (answer.status === 200) {
      const response = asResponse(answer.json);
      return c.json({ ...response, model: ECHO[response.model] ?? response.model }, 200, headers);
    }
    if (answer.status === 422) {
      const errors = (answer.json as { detail: { errors?: { loc: (string | number)[]; msg: string }[] } })
        .detail.errors ?? [{ loc: [], msg: 'invalid request' }];
      return c.json(
        { detail: errors.map((e) => ({ loc: ['body', ...e.loc], msg: e.msg, type: 'value_error' })) },
        422,
        headers,
      );
    }
    return c.json(answer.json as object, answer.status as 400, headers);
  });
  app.notFound((c) => c.json({ detail: 'Not Found' }, 404));
  return app;
}

/** Serves the hosted stand-in; its entry uses the `hosted` preset with this key in HOSTED_KEY. */
export const serveHosted = (key: string): Promise<RunningStandin> =>
  serveStandin(hostedApp(key), key, { preset: 'hosted', keyVar: 'HOSTED_KEY' });
