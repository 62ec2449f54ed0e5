// Stand-in for a generic gateway in front of System One models, on the reference judge. Not any one gateway.
// Sources (docs/servers.md §2): gateways that keep the System One body on their own path and auth: a named header
// carrying the raw key (laya-mlx-http's X-API-Key; Portkey's x-portkey-api-key), vendor-prefixed ids such as
// typesafe/jev-1.13 (Merge Gateway, Inworld), the contract's model list (vlm.run's /typesafe/v1/models), and a
// request id in the body (AssemblyAI's request_id).
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { asResponse, jsonBody, referenceJudge, referenceMessage, serveStandin } from './common';
import type { RunningStandin } from './common';

const MODELS: Record<string, string> = {
  'typesafe/jev-latest': 'model-1.13.0',
  'typesafe/jev-1.13.0': 'model-1.13.0',
};
const ECHO: Record<string, string> = { 'model-1.13.0': 'typesafe/jev-1.13.0' };

export function gatewayApp(key: string): Hono {
  const judge = referenceJudge();
  const app = new Hono();
  const authorized = (value: string | undefined) => value === key;
  app.get('/v1/models', (c) =>
    authorized(c.req.header('x-api-key'))
      ? c.json({
          models: [
            {
              name: 'typesafe/jev-latest',
              description: 'Jev, routed to TypeSafe',
              release_date: '2026-09-15',
            },
          ],
        })
      : c.json({ error: { message: 'Missing or invalid x-api-key' } }, 401),
  );
  app.post('/v1/systemone', async (c) => {
    if (!authorized(c.req.header('x-api-key')))
      return c.json({ error: { message: 'Missing or invalid x-api-key' } }, 401);
    const body = await jsonBody(c.req.raw);
    if (!body) return c.json({ error: { message: 'The body is not JSON.' } }, 400);
    const model = typeof body.model === 'string' ? body.model : '';
    const runs = MODELS[model];
    if (!runs) return c.json({ error: { message: `Unknown model ${model}` } }, 422);
    const answer = await judge.evaluate({ ...body, model: runs });
    if (answer.status !== 200) return c.json({ error: { message: referenceMessage(answer.json) } }, 422);
    const response = asResponse(answer.json);
    return c.json({ ...response, model: ECHO[response.model] ?? response.model, request_id: randomUUID() });
  });
  app.notFound((c) => c.json({ error: { message: 'Not Found' } }, 404));
  return app;
}

/** Serves the gateway stand-in; its entry uses the `gateway` preset with auth by header x-api-key. */
export const serveGateway = (key: string): Promise<RunningStandin> =>
  serveStandin(gatewayApp(key), key, {
    preset: 'gateway',
    auth: 'header',
    header: 'x-api-key',
    keyVar: 'GATEWAY_TEST_KEY',
  });
