// A stand-in for a Decisions-dialect server (OpenAI's POST /v1/decisions; LiteLLM's and Fireworks' take the same
// body), built on the reference judge. NOT the real server: it answers as these sources show, see docs/dialects.md:
// - request and answer shapes, per-question refusals, usage details: the `openai` npm package 7.57.0,
//   `resources/decisions.d.ts` (1 to 400 questions, 2 to 255 unique choices, answers in question order);
// - error body `{error: {message, type, param, code}}`: the same package's `shared.d.ts` (ErrorObject);
// - the echoed model is the requested name (`gpt-6-luna`), and a LiteLLM proxy adds `x-litellm-response-cost`.
// Score levels are checked by the reference (2 to 10); OpenAI's own level limit is not published [U].
import { Hono } from 'hono';
import {
  ConversationSchema,
  MAX_OPTIONS,
  MIN_OPTIONS,
  fromDecisionsRequest,
  toDecisionsResponse,
} from '../../../src/contract';
import { renderConversation } from '../../../src/core/conversation/render';
import type { DecisionsRequest, EvaluateResponse, FieldError, Loc } from '../../../src/contract';
import { listenStandin, readBody, referenceBackend } from './dialectListen';
import type { RunningStandin } from './dialectListen';

export interface DecisionsStandinOptions {
  apiKey: string;
  /** Default /v1/decisions. */
  path?: string;
  /** Served model names and the reference version that answers for each. */
  models?: Record<string, string>;
  /** Questions whose instructions match are refused, as a safety refusal would be. */
  refuse?: RegExp;
  /** Adds LiteLLM's cost header, at this price per million input tokens. */
  costHeaderPricePerMillion?: number;
  /** Most choices per question: 255 at OpenAI, 208 on Fireworks' /inference/v1/decisions (docs/dialects.md). */
  maxChoices?: number;
}

const MAX_QUESTIONS = 400;

const openAiError = (message: string, param: string | null, code: string | null = null) => ({
  error: { message, type: 'invalid_request_error', param, code },
});

/** A loc as OpenAI writes `param`: questions[1].choices[0]. */
const paramOf = (loc: Loc): string =>
  loc.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${p}` : p), '');

/** A reference field error (interface loc) as a location in the Decisions body. */
function decisionsLoc(loc: Loc, body: DecisionsRequest, keys: readonly string[]): Loc {
  const [head, key, field, item] = loc;
  if (head === 'state') return ['input'];
  if (head !== 'questions' || typeof key !== 'string') return loc;
  const i = keys.indexOf(key);
  if (i < 0) return ['questions'];
  const q = body.questions[i]!;
  if (field === 'criteria') {
    if (q.type === 'score')
      return typeof item === 'number' ? ['questions', i, 'levels', item] : ['questions', i, 'levels'];
    if (q.type === 'choice') {
      const j = q.choices.findIndex((c) => String(c.value) === String(item));
      return j < 0 ? ['questions', i, 'choices'] : ['questions', i, 'choices', j];
    }
  }
  return field === undefined ? ['questions', i] : ['questions', i, field];
}

const textOf = (instructions: unknown): string =>
  typeof instructions === 'string' ? instructions : JSON.stringify(instructions);

export async function serveDecisionsStandin(options: DecisionsStandinOptions): Promise<RunningStandin> {
  const { apiKey, path = '/v1/decisions', models = { 'gpt-6-luna': 'model-1.13.0' } } = options;
  const judge = referenceBackend();
  const received: unknown[] = [];
  const app = new Hono();
  app.post(path, async (c) => {
    if (c.req.header('authorization') !== `Bearer ${apiKey}`)
      return c.json(openAiError('Incorrect API key provided.', null, 'invalid_api_key'), 401);
    const { json, ok } = await readBody(c.req.raw);
    received.push(json);
    if (!ok) return c.json(openAiError('We could not parse the JSON body of your request.', null), 400);
    // A conversation or trace as input (the SDK's DecisionCreateParams.input, docs/conversations.md): the stand-in's
    // judge reads it as its transcript, as a Decisions server reads the whole conversation.
    const sentInput = (json as { input?: unknown } | null)?.input;
    const conversation = Array.isArray(sentInput) ? ConversationSchema.safeParse(sentInput) : null;
    const judged =
      conversation?.success &&
      !(
        conversation.data.length === 1 &&
        'role' in conversation.data[0]! &&
        conversation.data[0].role === 'user'
      )
        ? { ...(json as object), input: renderConversation(conversation.data) }
        : json;
    const read = fromDecisionsRequest(judged);
    if (!read.ok) {
      const first: FieldError = read.errors[0]!;
      return c.json(openAiError(first.msg, paramOf(first.loc)), 400);
    }
    const body = json as DecisionsRequest;
    if (body.questions.length < 1 || body.questions.length > MAX_QUESTIONS)
      return c.json(
        openAiError(`Ask 1 to ${MAX_QUESTIONS} questions; got ${body.questions.length}.`, 'questions'),
        400,
      );
    const maxChoices = options.maxChoices ?? MAX_OPTIONS;
    for (const [i, q] of body.questions.entries()) {
      if (q.type === 'choice' && (q.choices.length < MIN_OPTIONS || q.choices.length > maxChoices))
        return c.json(
          openAiError(`Provide between ${MIN_OPTIONS} and ${maxChoices} choices.`, `questions[${i}].choices`),
          400,
        );
    }
    const version = Object.hasOwn(models, body.model) ? models[body.model]! : undefined;
    if (!version)
      return c.json(
        openAiError(
          `The model \`${body.model}\` does not exist or you do not have access to it.`,
          'model',
          'model_not_found',
        ),
        404,
      );

    const { request, keys, names } = read.value;
    const refused = new Set(
      keys.filter((k) => options.refuse?.test(textOf(request.questions[k]!.instructions)) ?? false),
    );
    const asked = Object.fromEntries(Object.entries(request.questions).filter(([k]) => !refused.has(k)));
    let answered: EvaluateResponse = {
      model: body.model,
      answers: {},
      usage: { input_tokens: 0, output_tokens: 0 },
    };
    if (Object.keys(asked).length > 0) {
      const reply = await judge({ ...request, model: version, questions: asked });
      if (reply.status !== 200) {
        const detail = (reply.json as { detail?: { message?: string; errors?: FieldError[] } }).detail;
        const first = detail?.errors?.[0];
        const headers: Record<string, string> = {};
        for (const h of ['retry-after', 'retry-after-ms']) {
          const v = reply.headers.get(h);
          if (v) headers[h] = v;
        }
        const param = first ? paramOf(decisionsLoc(first.loc, body, keys)) : null;
        const status = reply.status === 422 ? 400 : reply.status;
        return c.json(
          openAiError(first?.msg ?? detail?.message ?? 'The request failed.', param),
          status as 400,
          headers,
        );
      }
      answered = reply.json as EvaluateResponse;
    }
    for (const k of refused)
      answered.answers[k] = { type: 'refusal', question_type: request.questions[k]!.type };
    const decision = toDecisionsResponse({ ...answered, model: body.model }, body, keys, names);
    const input = answered.usage.input_tokens;
    const usage = {
      input_tokens: input,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 0,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input,
    };
    if (options.costHeaderPricePerMillion !== undefined)
      c.header('x-litellm-response-cost', String((input * options.costHeaderPricePerMillion) / 1_000_000));
    c.header('x-request-id', `req_standin_${received.length}`);
    return c.json({ ...decision, usage });
  });
  return listenStandin(app, received);
}
