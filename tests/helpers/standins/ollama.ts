// Stand-in for Ollama 0.35+ serving System One, on the reference judge. Not Ollama.
// Sources (docs/servers.md §3.2): docs.ollama.com/api/systemone and its mirror (w3cschool.cn/ollamadocs, v0.40.12:
// POST http://localhost:11434/v1/systemone, `model` echoed as sent, e.g. "nimble"; top-level `images` and
// `keep_alive`); ollama/ollama docs/capabilities/decision.mdx (max 64 questions, 2–26 levels); live captures of 0.35.0
// (errors as {"error": "<string>"}: 400 for an invalid request or a non-decision model, 404 "try pulling it first").
// Ollama's OpenAI-compatible /v1/models lists every pulled model and marks no output modality.
import { Hono } from 'hono';
import { asResponse, jsonBody, referenceJudge, referenceMessage, serveStandin } from './common';
import type { RunningStandin } from './common';

/** Pulled models: the name Ollama lists, and the reference model it runs on ('' for a chat model). */
const PULLED: Record<string, string> = {
  'nimble:latest': 'model-1.13.0',
  'clef-flash:latest': 'model-1.12.0',
  'llama3.2:latest': '',
};

/** Ollama resolves a bare name to its `:latest` tag. */
const pulledName = (model: string): string => (model.includes(':') ? model : `${model}:latest`);

export function ollamaApp(): Hono {
  const judge = referenceJudge();
  const app = new Hono();
  app.get('/v1/models', (c) =>
    c.json({
      object: 'list',
      data: Object.keys(PULLED).map((id) => ({
        id,
        object: 'model',
        created: 1_790_000_000,
        owned_by: 'library',
      })),
    }),
  );
  app.post('/v1/systemone', async (c) => {
    const body = await jsonBody(c.req.raw);
    if (!body) return c.json({ error: 'invalid request: the body is not JSON' }, 400);
    const model = typeof body.model === 'string' ? body.model : '';
    const runs = PULLED[pulledName(model)];
    if (runs === undefined) return c.json({ error: `model '${model}' not found, try pulling it first` }, 404);
    if (runs === '') return c.json({ error: `${model} is not supported by System One` }, 400);
    const questions = body.questions;
    if (typeof questions === 'object' && questions !== null && Object.keys(questions).length > 64) {
      return c.json({ error: 'invalid request: at most 64 questions' }, 400);
    }
    // Ollama's own fields: the judge has no use for them.
    const { images: _images, keep_alive: _keepAlive, ...rest } = body;
    const answer = await judge.evaluate({ ...rest, model: runs });
    if (answer.status !== 200) return c.json({ error: referenceMessage(answer.json) }, 400);
    return c.json({ ...asResponse(answer.json), model });
  });
  // Ollama answers an unknown route in plain text.
  app.notFound((c) => c.text('404 page not found', 404));
  return app;
}

/** Serves the Ollama stand-in: keyless on this machine. */
export const serveOllama = (): Promise<RunningStandin> =>
  serveStandin(ollamaApp(), null, { preset: 'ollama' });
