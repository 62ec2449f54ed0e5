// A target check, the pure half: the small requests it sends (one per question type, and one the contract refuses)
// and the plain sentences it draws from what the server answered. The I/O half (src/server/targets/check.ts) sends
// them with the key and hands the raw answers here, before the proxy smooths anything.
import { classifyModelId, ModelListSchema, modelListShape, PLAIN_WIRE, readErrorBody } from '../contract';
import type { CheckFinding, CheckSeverity, Questions, WireSettings } from '../contract';
import { typeWord } from './words';
import { isRecord } from '../contract/guards';

/** The three question types, each probed alone so one failing type does not hide the others. */
export const PROBE_TYPES = ['noul', 'choice', 'score'] as const;
export type ProbeType = (typeof PROBE_TYPES)[number];

/** The state every probe sends: short, so a check costs a few hundred input tokens. */
export const CHECK_STATE =
  'Order 1042: the customer was charged twice for one invoice and asks for a refund this week.';

/** One small question per type. */
export const CHECK_QUESTIONS: Readonly<Record<ProbeType, Questions>> = {
  noul: { refund: { type: 'noul', instructions: 'Does the customer ask for a refund?' } },
  choice: {
    team: {
      type: 'choice',
      instructions: 'Which team should handle this?',
      criteria: { billing: 'Payments and refunds', technical: 'Bugs and integrations' },
    },
  },
  score: {
    urgency: {
      type: 'score',
      instructions: 'How urgent is this?',
      criteria: ['Not urgent', 'Somewhat urgent', 'Very urgent'],
    },
  },
};

/** A request the contract refuses with 422 (a score needs at least two levels): shows the server's error shape. */
export const INVALID_QUESTIONS: Questions = {
  check: { type: 'score', instructions: 'How urgent is this?', criteria: ['Only one level'] },
};

/** What one request got: a status and body, or a network error (status null). */
export interface ProbeResult {
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** Why no answer came (unreachable, timeout, redirect), when status is null. */
  error?: string;
  /** The body read back into the interface's form, as a run reads it, when the target's wire differs. */
  read?: string;
  /** Why `body` could not be read back in the target's form. */
  readProblem?: string;
}

/** Everything a check saw. */
export interface CheckObservations {
  evaluatePath: string;
  modelsPath: string | null;
  /** Null when the target has no model list configured. */
  models: ProbeResult | null;
  /** The model the probes were sent with; null when none could be chosen. */
  model: string | null;
  probes: Partial<Record<ProbeType, ProbeResult>>;
  invalid: ProbeResult | null;
  /** The target's configured rate limit, for the sentence about pacing. */
  requestsPerMinute: number | null;
  /** How the target is set to differ from the interface's form (its dialect, envelope, model in the path). */
  wire?: WireSettings;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const list = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(', ');

/** The model a check sends when none is given: the first one the list offers. */
export function firstListedModel(models: ProbeResult | null): string | null {
  if (!models || models.status !== 200) return null;
  const parsed = ModelListSchema.safeParse(parseJson(models.body));
  return parsed.success ? (parsed.data.models[0]?.name ?? null) : null;
}

/** The shape of an error body, named as a person reads it. */
export function errorShape(text: string): string {
  const json = parseJson(text);
  if (json === undefined) return text.trim() === '' ? 'an empty body' : 'plain text';
  if (!isRecord(json)) return 'JSON that is not an object';
  const { detail, error } = json;
  if (isRecord(detail) && 'message' in detail)
    return "the contract's {detail: {error_type, message, errors}}";
  if (Array.isArray(detail)) return "FastAPI's {detail: [{loc, msg, type}]}";
  if (typeof detail === 'string') return '{detail: "…"}';
  if (typeof error === 'string') return '{error: "…"}';
  if (isRecord(error)) return `{error: {${Object.keys(error).join(', ')}}}`;
  if (json.success === false && Array.isArray(json.errors))
    return "Cloudflare's {success: false, errors: [{code, message}]}";
  return `{${Object.keys(json).join(', ')}}`;
}

/** Most decimal places among the numbers of a probabilities map. */
const decimals = (probabilities: Record<string, unknown>): number =>
  Math.max(
    0,
    ...Object.values(probabilities).map((p) =>
      typeof p === 'number' ? (String(p).split('.')[1]?.length ?? 0) : 0,
    ),
  );

const sumOf = (probabilities: Record<string, unknown>): number =>
  Object.values(probabilities).reduce<number>((s, p) => s + (typeof p === 'number' ? p : 0), 0);

/** What the contract defines on each answer type. */
const ANSWER_FIELDS: Record<ProbeType, string[]> = {
  noul: ['type', 'noul'],
  choice: ['type', 'choice', 'confidence', 'probabilities'],
  score: ['type', 'score', 'confidence', 'legend', 'probabilities'],
};
const RESPONSE_FIELDS = ['model', 'answers', 'usage'];
const REQUEST_ID_HEADERS = ['x-typesafe-request-id', 'cf-ai-req-id', 'cf-ray', 'request-id'];

/** Findings said so far: every one goes to `out`; `once` says a sentence once per check (extra fields, headers...). */
interface Said {
  out: CheckFinding[];
  once(key: string, finding: CheckFinding): void;
}

/** The answer's wrapping against the target's settings (envelope, dialect); returns the body inside any envelope. */
function wireFindings(json: Record<string, unknown>, wire: WireSettings, { once }: Said) {
  let body: Record<string, unknown> = json;
  const result = json.result;
  const wrapped = isRecord(result) && 'success' in json;
  // Advice is measured against the target's settings: what is already set is said as such, never advised again.
  if (wrapped) {
    once(
      'envelope',
      wire.envelope === 'cloudflare'
        ? {
            severity: 'ok',
            area: 'evaluate',
            text: 'Answers come wrapped in {result, success, errors, messages} (Cloudflare\'s envelope), as this target is set ("envelope": "cloudflare"); the proxy unwraps them.',
          }
        : {
            severity: 'difference',
            area: 'evaluate',
            text: 'Answers come wrapped in {result, success, errors, messages} (Cloudflare\'s envelope): set "envelope": "cloudflare" on this target.',
          },
    );
    body = result;
  } else if (wire.envelope === 'cloudflare') {
    once('envelope', {
      severity: 'problem',
      area: 'evaluate',
      text: 'This target is set to "envelope": "cloudflare", but its answers are not wrapped in {result, success, ...}: set "envelope": "none".',
    });
  }
  if (wire.dialect === 'decisions') {
    once('dialect', {
      severity: 'ok',
      area: 'evaluate',
      text: 'It speaks the Decisions dialect, as this target is set ("dialect": "decisions"): requests go out as {model, input, questions: [...]} and answers are read back by position.',
    });
  }
  return { body, wrapped };
}

/** The answer's own fields against the contract's for its type: missing, extra, its type, its probabilities. */
function answerShapeFindings(type: ProbeType, answer: Record<string, unknown>, { out, once }: Said): void {
  const missing = ANSWER_FIELDS[type].filter((f) => !(f in answer));
  if (missing.length > 0) {
    out.push({
      severity: 'difference',
      area: type,
      text: `The ${typeWord(type)} answer lacks ${list(missing)}; the card shows what is there.`,
    });
  }
  const extraAnswer = Object.keys(answer).filter((f) => !ANSWER_FIELDS[type].includes(f));
  if (extraAnswer.length > 0) {
    out.push({
      severity: 'normalised',
      area: type,
      text: `The ${typeWord(type)} answer adds ${list(extraAnswer)}, which the contract does not define; ignored.`,
    });
  }
  if (answer.type !== undefined && answer.type !== type) {
    out.push({
      severity: 'difference',
      area: type,
      text: `The ${typeWord(type)} answer says its type is "${String(answer.type)}".`,
    });
  }
  if (isRecord(answer.probabilities)) {
    const sum = sumOf(answer.probabilities);
    if (Math.abs(sum - 1) > 0.02) {
      out.push({
        severity: 'difference',
        area: type,
        text: `The ${type} probabilities sum to ${sum.toFixed(3)}, not about 1.`,
      });
    }
    if (decimals(answer.probabilities) > 2) {
      once('decimals', {
        severity: 'normalised',
        area: 'evaluate',
        text: `Probabilities come with ${decimals(answer.probabilities)} decimals (the contract rounds to 2); shown as sent.`,
      });
    }
  }
}

/** What every answer carries, said once per check: the model it echoes and its usage. */
function echoFindings(body: Record<string, unknown>, sentModel: string, { once }: Said): void {
  if (typeof body.model !== 'string') {
    once('model', {
      severity: 'difference',
      area: 'evaluate',
      text: 'Answers do not say which model answered (`model` is missing).',
    });
  } else if (body.model === sentModel && classifyModelId(sentModel) === 'alias') {
    once('model', {
      severity: 'difference',
      area: 'evaluate',
      text: `It echoes the alias "${sentModel}" as sent, not the version that answered: pinning is not offered.`,
    });
  } else if (body.model !== sentModel) {
    once('model', {
      severity: classifyModelId(body.model) === 'versioned' ? 'ok' : 'normalised',
      area: 'evaluate',
      text: `"${sentModel}" was answered by "${body.model}"${classifyModelId(body.model) === 'versioned' ? ', a version the workbench can pin' : ''}.`,
    });
  } else {
    once('model', {
      severity: 'ok',
      area: 'evaluate',
      text: `It echoes the model it was sent ("${sentModel}").`,
    });
  }
  const usage = body.usage;
  if (!isRecord(usage) || typeof usage.input_tokens !== 'number') {
    once('usage', {
      severity: 'difference',
      area: 'usage',
      text: "Answers carry no usage.input_tokens: cost is estimated from the workbench's own token count.",
    });
  } else {
    const extraUsage = Object.keys(usage).filter((k) => k !== 'input_tokens' && k !== 'output_tokens');
    once('usage', {
      severity: extraUsage.length > 0 ? 'normalised' : 'ok',
      area: 'usage',
      text:
        extraUsage.length > 0
          ? `Usage adds ${list(extraUsage)}; the workbench reads input_tokens (${usage.input_tokens} for this request).`
          : `Usage reports ${usage.input_tokens} input tokens.`,
    });
  }
}

/** The answer's headers: a request id, rate-limit headers. */
function headerFindings(probe: ProbeResult, requestsPerMinute: number | null, { once }: Said): void {
  const headers = Object.keys(probe.headers).map((h) => h.toLowerCase());
  if (!headers.includes('x-request-id')) {
    const other = REQUEST_ID_HEADERS.find((h) => headers.includes(h));
    once('request-id', {
      severity: 'difference',
      area: 'headers',
      text: other
        ? `It sends its request id as \`${other}\`, not \`x-request-id\`: the answer shows no request id.`
        : 'It sends no request id header: the answer shows none.',
    });
  }
  if (!headers.some((h) => /ratelimit/.test(h))) {
    once('rate-limit', {
      severity: 'difference',
      area: 'headers',
      text: `It sends no rate-limit headers: file runs are paced by ${requestsPerMinute === null ? 'the published limits' : `this target's ${requestsPerMinute} requests per minute`}.`,
    });
  }
}

/** Sentences about one answered probe; `seen` keeps sentences said once per check (extra fields, headers...). */
function answerFindings(
  type: ProbeType,
  probe: ProbeResult,
  sentModel: string,
  seen: Set<string>,
  requestsPerMinute: number | null,
  wire: WireSettings,
): CheckFinding[] {
  const out: CheckFinding[] = [];
  const said: Said = {
    out,
    once: (key, finding) => {
      if (seen.has(key)) return;
      seen.add(key);
      out.push(finding);
    },
  };
  const json = parseJson(probe.body);
  if (!isRecord(json)) {
    return [
      {
        severity: 'problem',
        area: type,
        text: `The ${typeWord(type)} request answered 200 with a body that is not a JSON object.`,
      },
    ];
  }
  const wrapping = wireFindings(json, wire, said);
  let body = wrapping.body;
  if (probe.readProblem !== undefined && !(wire.envelope === 'cloudflare' && !wrapping.wrapped)) {
    out.push({
      severity: 'problem',
      area: type,
      text: `The ${typeWord(type)} answer could not be read in this target's ${wire.dialect === 'decisions' ? 'Decisions dialect' : 'form'}: ${probe.readProblem.replace(/\.$/, '')}.`,
    });
    return out;
  }
  // The fields below are read as a run reads them: in the interface's form, unsmoothed.
  if (probe.read !== undefined) {
    const read = parseJson(probe.read);
    if (isRecord(read)) body = read;
  }
  const extra = Object.keys(body).filter((k) => !RESPONSE_FIELDS.includes(k));
  if (extra.length > 0) {
    said.once('extra', {
      severity: 'normalised',
      area: 'evaluate',
      text: `Answers carry fields the contract does not define (${list(extra)}); the workbench ignores them.`,
    });
  }
  const name = Object.keys(CHECK_QUESTIONS[type])[0]!;
  const answer = isRecord(body.answers) ? body.answers[name] : undefined;
  if (!isRecord(answer)) {
    out.push({
      severity: 'problem',
      area: type,
      text: `The ${typeWord(type)} request answered 200 without an answer under "${name}".`,
    });
    return out;
  }
  answerShapeFindings(type, answer, said);
  // Said once per check: the echo, usage and headers are the same for every question type.
  echoFindings(body, sentModel, said);
  headerFindings(probe, requestsPerMinute, said);
  return out;
}

/** One sentence for a probe that did not answer 200. */
function failedProbe(what: string, path: string, probe: ProbeResult): CheckFinding {
  if (probe.status === null) {
    return {
      severity: 'problem',
      area: what,
      text: `The ${typeWord(what)} request got no answer: ${probe.error ?? 'unreachable'}.`,
    };
  }
  const read = readErrorBody(probe.status, probe.body);
  if (probe.status === 404 || probe.status === 405) {
    return {
      severity: 'problem',
      area: what,
      text: `${path} answered ${probe.status}: the route is not there (${read.message.replace(/\.$/, '')}); check the target's path.`,
    };
  }
  if (probe.status === 401 || probe.status === 403) {
    return {
      severity: 'problem',
      area: what,
      text: `${path} refused the key (${probe.status}): ${read.message}`,
    };
  }
  return {
    severity: 'problem',
    area: what,
    text: `The ${typeWord(what)} request answered ${probe.status}: ${read.message} (body: ${errorShape(probe.body)}).`,
  };
}

/** What a model list answered with 200 says: the contract's shape, OpenAI's (turned into it), or neither. */
function modelListFinding(body: string): CheckFinding {
  const json = parseJson(body);
  const shape = modelListShape(json);
  const parsed = ModelListSchema.safeParse(json);
  const names = parsed.success ? parsed.data.models.map((c) => c.name) : [];
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, and ${names.length - 5} more` : '');
  if (shape === 'contract') {
    return {
      severity: 'ok',
      area: 'models',
      text: `It lists ${names.length} model${names.length === 1 ? '' : 's'} in the contract's shape: ${shown}.`,
    };
  }
  if (shape === 'openai' || shape === 'both') {
    const data = isRecord(json) && Array.isArray(json.data) ? json.data : [];
    const marked = data.some(
      (e) =>
        isRecord(e) &&
        ('output_modalities' in e || (isRecord(e.architecture) && 'output_modalities' in e.architecture)),
    );
    const kept = marked
      ? `keeping the ${names.length} marked as decision models${data.length !== names.length ? ` of ${data.length}` : ''}`
      : `keeping all ${names.length} (none is marked as a decision model or not)`;
    return {
      severity: 'normalised',
      area: 'models',
      text: `It lists models ${shape === 'both' ? 'in both shapes at once' : "in OpenAI's shape ({data: [{id}]})"}; the proxy turns the list into {models: [...]}, ${kept}: ${shown}.`,
    };
  }
  return {
    severity: 'difference',
    area: 'models',
    text: 'Its model list is neither {models: [...]} nor {data: [...]}: the picker takes a typed id.',
  };
}

/** The model list's finding: none configured, a failed request (a missing route only a difference), or its shape. */
function modelsFinding(obs: CheckObservations): CheckFinding {
  const m = obs.models;
  if (m === null) {
    return {
      severity: 'difference',
      area: 'models',
      text: 'This target has no model list configured: type a model id in the picker.',
    };
  }
  if (m.status === 200) return modelListFinding(m.body);
  const f = failedProbe('models', `GET ${obs.modelsPath ?? ''}`, m);
  if (m.status !== 404 && m.status !== 405) return f;
  return {
    ...f,
    severity: 'difference',
    text: `${f.text.replace(/; check the target's path\.$/, '')}: the picker takes a typed id.`,
  };
}

/** How the target refused the request the contract refuses: 422 with field locations is the contract's way. */
function invalidRequestFinding(bad: ProbeResult): CheckFinding {
  let severity: CheckSeverity = 'ok';
  let text: string;
  if (bad.status === 422) {
    const read = readErrorBody(422, bad.body);
    const shape = errorShape(bad.body);
    if (read.errors.length > 0) {
      text = `It refuses an invalid request with 422 and field locations (${shape}): errors land on the editor line.`;
      if (!shape.startsWith("the contract's")) severity = 'normalised';
    } else {
      severity = 'difference';
      text = `It refuses an invalid request with 422 but no field locations (${shape}): the message is shown, not placed on a line.`;
    }
  } else if (bad.status === 400 && readErrorBody(400, bad.body).errors.length > 0) {
    severity = 'difference';
    text = `It refuses an invalid request with 400, not 422, with field locations (${errorShape(bad.body)}): errors land on the editor line, never retried.`;
  } else if (bad.status === 200) {
    severity = 'difference';
    text =
      "It accepted a score question with one level, which the contract refuses: the workbench's own checks are the only guard.";
  } else if (bad.status === null) {
    severity = 'problem';
    text = `The invalid request got no answer: ${bad.error ?? 'unreachable'}.`;
  } else {
    severity = 'difference';
    text = `It refuses an invalid request with ${bad.status}, not 422, in ${errorShape(bad.body)}: "${readErrorBody(bad.status, bad.body).message}"; shown as a sentence, never retried.`;
  }
  return { severity, area: 'errors', text };
}

/** Every finding of a check, models first, in the order a person reads them. */
export function analyseCheck(obs: CheckObservations): CheckFinding[] {
  const findings: CheckFinding[] = [modelsFinding(obs)];
  if (obs.model === null) {
    findings.push({
      severity: 'problem',
      area: 'evaluate',
      text: 'No model to send: the target lists none; check again with a model id.',
    });
    return findings;
  }
  const seen = new Set<string>();
  for (const type of PROBE_TYPES) {
    const probe = obs.probes[type];
    if (!probe) continue;
    if (probe.status === 200) {
      findings.push(
        ...answerFindings(type, probe, obs.model, seen, obs.requestsPerMinute, obs.wire ?? PLAIN_WIRE),
      );
    } else findings.push(failedProbe(type, `POST ${obs.evaluatePath}`, probe));
  }
  const answered = PROBE_TYPES.filter((t) => obs.probes[t]?.status === 200);
  if (answered.length === PROBE_TYPES.length) {
    findings.push({
      severity: 'ok',
      area: 'evaluate',
      text: 'It answers yes/no, choice and score questions.',
    });
  }
  if (obs.invalid && answered.length > 0) findings.push(invalidRequestFinding(obs.invalid));
  return findings;
}
