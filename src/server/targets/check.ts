// A target check, the I/O half: lists the models and sends the probes of src/core/targetCheck.ts to the target's
// upstream with its key, raw (before the proxy smooths anything), then asks the pure half for the sentences. Used by
// the proxy's check route and by `npm run check-target`.
import {
  analyseCheck,
  CHECK_QUESTIONS,
  CHECK_STATE,
  firstListedModel,
  INVALID_QUESTIONS,
  PROBE_TYPES,
} from '../../core/targetCheck';
import type { ProbeResult, ProbeType } from '../../core/targetCheck';
import type { Questions, TargetCheckReport } from '../../contract';
import { incoming, isPlainWire, PLAIN_WIRE } from '../../contract';
import { prepareEvaluate } from './dialect';
import { forward, upstreamHeaders } from './forward';
import type { ProxyTarget } from './target';
import { Cancellation } from './transport';

/** How long one probe may take: a check should answer within a minute even when a server hangs. */
const PROBE_TIMEOUT_MS = 15_000;

const JSON_HEADERS = new Headers({ 'content-type': 'application/json', accept: 'application/json' });

/** One request to the target's upstream, as a probe result. */
async function probe(
  target: ProxyTarget,
  method: 'GET' | 'POST',
  path: string,
  body?: string,
): Promise<ProbeResult> {
  const outcome = await forward(target, {
    method,
    path,
    headers: upstreamHeaders(JSON_HEADERS, target),
    body: body === undefined ? undefined : Buffer.from(body, 'utf8'),
    timeoutMs: PROBE_TIMEOUT_MS,
    cancellation: new Cancellation(),
  });
  switch (outcome.type) {
    case 'response':
      return { status: outcome.status, headers: outcome.headers, body: outcome.body.toString('utf8') };
    case 'timeout':
      return { status: null, headers: {}, body: '', error: `no answer within ${PROBE_TIMEOUT_MS / 1000} s` };
    case 'redirect':
      return {
        status: null,
        headers: {},
        body: '',
        error: `a redirect (${outcome.status}), not followed with a key`,
      };
    case 'unreachable':
      return { status: null, headers: {}, body: '', error: outcome.detail };
    case 'cancelled':
      return { status: null, headers: {}, body: '', error: 'cancelled' };
    case 'failed':
      return {
        status: null,
        headers: {},
        body: '',
        error:
          outcome.problem === 'status'
            ? `a status the proxy cannot hand on (${outcome.status})`
            : outcome.problem === 'encoding'
              ? `an answer in an encoding the proxy cannot read (${outcome.encoding})`
              : `an answer over ${outcome.limit} bytes`,
      };
  }
}

/**
 * Sends one evaluate probe with `questions`, in the target's own form by the proxy's translation of a run (dialect,
 * envelope, model in the path); an answer of another form is also read back into the interface's, unsmoothed.
 */
async function evaluateProbe(target: ProxyTarget, model: string, questions: Questions): Promise<ProbeResult> {
  const written = JSON.stringify({ state: CHECK_STATE, model, questions });
  const prepared = prepareEvaluate(target, Buffer.from(written, 'utf8'));
  if (!prepared.ok)
    return { status: null, headers: {}, body: '', error: prepared.body.detail.message.replace(/\.$/, '') };
  const result = await probe(target, 'POST', prepared.path, prepared.body.toString('utf8'));
  const wire = target.wire ?? PLAIN_WIRE;
  if (result.status === null || isPlainWire(wire)) return result;
  const read = incoming(wire, { ...result, status: result.status }, written, { normalise: false });
  return { ...result, read: read.body, ...(read.problem ? { readProblem: read.problem } : {}) };
}

/**
 * Checks a target: its model list, one request per question type with `model` (default: the first listed), and one
 * invalid request. Five requests at most, a few hundred input tokens in all. Never throws for what a server does.
 */
export async function checkTarget(target: ProxyTarget, model?: string): Promise<TargetCheckReport> {
  const { modelsPath, evaluatePath, requestsPerMinute } = target.description;
  const checkedAt = new Date().toISOString();
  if (target.keyMissing !== null) {
    return {
      targetId: target.id,
      model: model ?? null,
      checkedAt,
      findings: [
        {
          severity: 'problem',
          area: 'evaluate',
          text: `Not checked: ${target.keyMissing}; set it in .env.local and restart the workbench server.`,
        },
      ],
    };
  }
  const models = modelsPath === null ? null : await probe(target, 'GET', modelsPath);
  const chosen = model ?? firstListedModel(models);
  const probes: Partial<Record<ProbeType, ProbeResult>> = {};
  let invalid: ProbeResult | null = null;
  if (chosen !== null) {
    // One at a time: a check should not trip a server's rate limit.
    for (const type of PROBE_TYPES) probes[type] = await evaluateProbe(target, chosen, CHECK_QUESTIONS[type]);
    invalid = await evaluateProbe(target, chosen, INVALID_QUESTIONS);
  }
  const findings = analyseCheck({
    evaluatePath,
    modelsPath,
    models,
    model: chosen,
    probes,
    invalid,
    requestsPerMinute,
    wire: target.wire ?? PLAIN_WIRE,
  });
  return { targetId: target.id, model: chosen, checkedAt, findings };
}
