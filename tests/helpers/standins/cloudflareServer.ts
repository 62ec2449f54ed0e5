// A stand-in for Cloudflare Workers AI's Clef route, built on the reference judge. NOT the real server: it answers
// as `juspay/neurolink` docs/getting-started/providers/cloudflare-clef.md records from live calls (docs/dialects.md):
// - POST /client/v4/accounts/<account>/ai/run/@cf/cloudflare/<model>, Bearer token; `model` in the body must
//   match the path (status not recorded [U]: 400 here) and may be left out;
// - answers wrapped in {result, success: true, errors: [], messages: []}; the echoed model is the path's name;
//   the request id in `cf-ai-req-id`;
// - errors {success: false, errors: [{code, message}]}: 401/10000, 400/5006 (no questions, bad type),
//   400/7000 (unknown model path), 400/6003 (not JSON), 422/5012 (65 questions, an empty instruction, validation,
//   with the model's own FastAPI body nested in the message, its locations under "body"), 429/4006 (daily free
//   allocation used up, no Retry-After, not to be retried).
import { Hono } from 'hono';
import { cloudflareError, wrapCloudflare } from '../../../src/contract';
import { listenStandin, readBody, referenceBackend } from './dialectListen';
import type { RunningStandin } from './dialectListen';

export interface CloudflareStandinOptions {
  apiKey: string;
  account?: string;
  /** Served model names and the reference version that answers for each. */
  models?: Record<string, string>;
  /** Evaluations answered before the daily allocation is used up (429/4006 after). Unlimited by default. */
  dailyAllocation?: number;
}

export const CLOUDFLARE_MAX_QUESTIONS = 64;
const DAILY_ALLOCATION_MESSAGE =
  "you have used up your daily free allocation of 10,000 neurons, please upgrade to Cloudflare's Workers Paid plan if you would like to continue usage.";

export async function serveCloudflareStandin(options: CloudflareStandinOptions): Promise<RunningStandin> {
  const {
    apiKey,
    account = 'acct',
    models = { clef: 'model-1.13.0', 'clef-flash': 'model-1.12.0' },
  } = options;
  const judge = referenceBackend();
  const received: unknown[] = [];
  const prefix = `/client/v4/accounts/${account}/ai/run/@cf/cloudflare/`;
  let used = 0;
  const app = new Hono();
  app.post('/client/v4/*', async (c) => {
    const requestId = `cf-${received.length + 1}`;
    c.header('cf-ai-req-id', requestId);
    if (c.req.header('authorization') !== `Bearer ${apiKey}`)
      return c.json(cloudflareError(10000, 'Authentication error'), 401);
    const model = c.req.path.startsWith(prefix) ? decodeURIComponent(c.req.path.slice(prefix.length)) : '';
    if (!Object.hasOwn(models, model)) return c.json(cloudflareError(7000, 'No route for that URI'), 400);
    const { json, ok } = await readBody(c.req.raw);
    received.push(json);
    if (!ok || !json || typeof json !== 'object')
      return c.json(cloudflareError(6003, 'Invalid request: could not parse the JSON body'), 400);
    const body = json as { model?: unknown; questions?: unknown };
    if (body.model !== undefined && body.model !== model)
      return c.json(
        cloudflareError(
          5006,
          `Invalid input: model "${String(body.model)}" does not match the route's model "${model}"`,
        ),
        400,
      );
    const questions = body.questions && typeof body.questions === 'object' ? Object.keys(body.questions) : [];
    if (questions.length === 0)
      return c.json(cloudflareError(5006, 'Invalid input: at least one question is required'), 400);
    if (options.dailyAllocation !== undefined && used >= options.dailyAllocation)
      return c.json(cloudflareError(4006, DAILY_ALLOCATION_MESSAGE), 429);
    const nested = (detail: unknown): string =>
      `AiError: Bad input: ${JSON.stringify(detail)} (${requestId})`;
    if (questions.length > CLOUDFLARE_MAX_QUESTIONS)
      return c.json(
        cloudflareError(
          5012,
          nested({
            detail: [
              {
                loc: ['body', 'questions'],
                msg: `At most ${CLOUDFLARE_MAX_QUESTIONS} questions per request; got ${questions.length}.`,
              },
            ],
          }),
        ),
        422,
      );
    const emptyInstruction = questions.find((name) => {
      const q = (body.questions as Record<string, { instructions?: unknown } | null>)[name];
      return typeof q?.instructions === 'string' && q.instructions.trim() === '';
    });
    if (emptyInstruction !== undefined)
      return c.json(
        cloudflareError(
          5012,
          nested({
            detail: [
              {
                loc: ['body', 'questions', emptyInstruction, 'instructions'],
                msg: 'String should have at least 1 character',
                type: 'string_too_short',
              },
            ],
          }),
        ),
        422,
      );
    const reply = await judge({ ...body, model: models[model] });
    if (reply.status === 422) return c.json(cloudflareError(5012, nested(reply.json)), 422);
    if (reply.status !== 200) return c.json(cloudflareError(5012, 'Clef inference failed'), 529 as 500);
    used++;
    return c.json(wrapCloudflare({ ...(reply.json as object), model }));
  });
  return listenStandin(app, received);
}
