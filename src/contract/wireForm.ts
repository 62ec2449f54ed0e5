// How a target's wire differs from the interface, and the translation both ways: the one entry point the proxy calls.
// The browser always sends and reads the interface's own form; a target's dialect, envelope and model-in-path are
// settings of the target, never guessed from its path (`/v1/decisions` carries either dialect, docs/dialects.md).
import { fromDecisionsResponse } from './decisionsAnswers';
import { decisionsLocToRequestLoc, toDecisionsRequest } from './decisionsRequest';
import { unwrapCloudflare } from './envelope';
import { errorBody, readErrorBody } from './errors';
import type { ErrorBody } from './errors';
import { modelInPath } from './modelPath';
import { normaliseResponse } from './normalise';
import type { EvaluateRequest } from './request';
import { EvaluateResponseSchema } from './response';
import { readUsage } from './usageReport';
import { fieldErrors, validateRequestShape } from './validation';
import { z } from 'zod';
import { CONVERSATION_FIELD, ConversationSchema } from './conversation';
import type { Conversation } from './conversation';
import { DescriptionSchema, StateSchema } from './request';

export const WIRE_DIALECTS = ['systemone', 'decisions'] as const;
export type WireDialect = (typeof WIRE_DIALECTS)[number];
export const WIRE_ENVELOPES = ['none', 'cloudflare'] as const;
export type WireEnvelope = (typeof WIRE_ENVELOPES)[number];

/** How a target's wire differs from the interface's own form. */
export interface WireSettings {
  /** 'systemone': the interface's form (state + a map of questions); 'decisions': OpenAI's (input + an array). */
  dialect: WireDialect;
  /** 'cloudflare': answers wrapped in {result, success, errors, messages}. */
  envelope: WireEnvelope;
  /** The model's name is appended to the evaluate path (Cloudflare's /ai/run/@cf/cloudflare/<model>). */
  modelInPath: boolean;
}

export const PLAIN_WIRE: WireSettings = { dialect: 'systemone', envelope: 'none', modelInPath: false };

/** True when the target's wire is the interface's own: the body goes out as the browser wrote it. */
export const isPlainWire = (w: Partial<WireSettings>): boolean =>
  (w.dialect ?? 'systemone') === 'systemone' && (w.envelope ?? 'none') === 'none' && !w.modelInPath;

// The request's structure without the contract's counts (levels, labels, questions): those are each server's to
// judge with its own limits, as the browser lets a user send a body the contract's checks warn about.
const StructureSchema = z.strictObject({
  state: StateSchema,
  model: z.string(),
  questions: z.record(
    z.string(),
    z.discriminatedUnion('type', [
      z.strictObject({
        type: z.literal('noul'),
        instructions: DescriptionSchema.optional(),
        criteria: z
          .strictObject({ true: DescriptionSchema.optional(), false: DescriptionSchema.optional() })
          .optional(),
      }),
      z.strictObject({
        type: z.literal('choice'),
        instructions: DescriptionSchema.optional(),
        criteria: z.record(z.string(), DescriptionSchema.nullable()),
      }),
      z.strictObject({
        type: z.literal('score'),
        instructions: DescriptionSchema.optional(),
        criteria: z.array(z.string()),
      }),
    ]),
  ),
});

/** What to send upstream, or the answer to give the browser at once (a body the target's form cannot carry). */
export type Outgoing =
  { ok: true; path: string; body: string } | { ok: false; status: number; body: ErrorBody };

const parsedRequest = (body: string): EvaluateRequest | null => {
  try {
    const json: unknown = JSON.parse(body);
    // The request's own fields: a carried conversation is the proxy's to place, not part of the interface's form.
    if (json !== null && typeof json === 'object')
      delete (json as Record<string, unknown>)[CONVERSATION_FIELD];
    const checked = validateRequestShape(json);
    if (checked.ok) return checked.value;
    const structure = StructureSchema.safeParse(json);
    return structure.success ? (structure.data as EvaluateRequest) : null;
  } catch {
    return null;
  }
};

const refuse = (message: string, errors?: { loc: (string | number)[]; msg: string }[]): Outgoing => ({
  ok: false,
  status: 422,
  body: errorBody('invalid_request', message, errors),
});

/**
 * A request carrying a conversation (CONVERSATION_FIELD): the field taken out and checked. Found by a string test
 * first, so an ordinary body is not parsed twice.
 */
function takeConversation(
  body: string,
): { json: unknown; conversation: Conversation } | { refused: Outgoing } | null {
  if (!body.includes(`"${CONVERSATION_FIELD}"`)) return null;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  if (json === null || typeof json !== 'object' || !(CONVERSATION_FIELD in json)) return null;
  const { [CONVERSATION_FIELD]: raw, ...rest } = json as Record<string, unknown>;
  const parsed = ConversationSchema.safeParse(raw);
  if (!parsed.success)
    return {
      refused: refuse(
        'The conversation sent with the request is not a list of messages, tool calls and outputs.',
        fieldErrors(parsed.error, raw).map((e) => ({ ...e, loc: [CONVERSATION_FIELD, ...e.loc] })),
      ),
    };
  return { json: rest, conversation: parsed.data };
}

/** The request as the target takes it: its path (with the model when the target wants it there) and its body. */
export function outgoing(wire: WireSettings, evaluatePath: string, body: string): Outgoing {
  const carried = takeConversation(body);
  if (carried && 'refused' in carried) return carried.refused;
  // A target of the interface's form gets the state rendered from the conversation, without the field.
  if (carried && wire.dialect === 'systemone') body = JSON.stringify(carried.json);
  if (isPlainWire(wire)) return { ok: true, path: evaluatePath, body };
  let json: unknown = carried?.json;
  if (!carried)
    try {
      json = JSON.parse(body);
    } catch {
      return refuse('The request body is not JSON, so it cannot be translated for this target.');
    }
  let path = evaluatePath;
  if (wire.modelInPath) {
    const model = (json as { model?: unknown } | null)?.model;
    if (typeof model !== 'string')
      return refuse('This target takes the model in its path: name a model.', [
        { loc: ['model'], msg: 'The model is required.' },
      ]);
    const placed = modelInPath(evaluatePath, model);
    if (!placed.ok) return refuse(placed.problem, [{ loc: ['model'], msg: placed.problem }]);
    path = placed.path;
  }
  if (wire.dialect === 'systemone') return { ok: true, path, body };
  const checked = StructureSchema.safeParse(json);
  if (!checked.success)
    return refuse(
      'The request is not shaped as the contract says, so it cannot be translated to the Decisions form.',
      fieldErrors(checked.error, json),
    );
  const translated = toDecisionsRequest(checked.data as EvaluateRequest);
  if (!translated.ok)
    return refuse(
      'This target speaks the Decisions form, which cannot carry part of this request.',
      translated.errors,
    );
  // A Decisions target reads the conversation itself, natively, in place of the rendered state.
  const value = carried ? { ...translated.value, input: carried.conversation } : translated.value;
  return { ok: true, path, body: JSON.stringify(value) };
}

/** An upstream answer read back into the interface's form. `problem` says why a 2xx could not be (sent unchanged). */
export interface Incoming {
  body: string;
  problem?: string;
}

const json = (value: unknown): string => JSON.stringify(value);

/**
 * The target's answer to `requestBody` in the interface's form: unwrapped, translated, and (when `normalise`) with
 * comparable numbers. Error bodies stay as sent, except a Decisions field error, whose location is moved to the
 * interface's field so the editor can mark the right line.
 */
export function incoming(
  wire: WireSettings,
  answer: { status: number; headers: Readonly<Record<string, string>>; body: string },
  requestBody: string,
  options: { normalise: boolean },
): Incoming {
  const ok = answer.status >= 200 && answer.status < 300;
  const plain = isPlainWire(wire);
  if (!ok) {
    if (wire.dialect !== 'decisions') return { body: answer.body };
    const read = readErrorBody(answer.status, answer.body);
    const request = read.errors.length ? parsedRequest(requestBody) : null;
    if (!request) return { body: answer.body };
    const errors = read.errors.map((e) => ({ loc: decisionsLocToRequestLoc(e.loc, request), msg: e.msg }));
    return {
      body: json({ ...errorBody('invalid_request', read.message, errors), upstream: tryJson(answer.body) }),
    };
  }
  if (plain && !options.normalise) return { body: answer.body };
  let body: unknown = tryJson(answer.body);
  if (body === undefined) return { body: answer.body, problem: 'the answer is not JSON' };
  const request = parsedRequest(requestBody);
  if (wire.envelope === 'cloudflare') {
    const unwrapped = unwrapCloudflare(body);
    if (!unwrapped.ok) return { body: answer.body, problem: unwrapped.problem };
    body = unwrapped.body;
  }
  if (wire.dialect === 'decisions') {
    if (!request) return { body: answer.body, problem: 'the request that was sent could not be read back' };
    const read = fromDecisionsResponse(body, request);
    if (!read.ok) return { body: answer.body, problem: read.problem };
    body = read.value;
  }
  if (options.normalise && request) {
    const parsed = EvaluateResponseSchema.safeParse(body);
    if (parsed.success)
      body = normaliseResponse(parsed.data, request, { cost: readUsage(body, answer.headers).cost });
  }
  return { body: json(body) };
}

function tryJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
