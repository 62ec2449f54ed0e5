// Targets of another dialect, envelope or model-in-path, through the real proxy and client over loopback stand-ins:
// the page sends and reads the interface's form whatever the target speaks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, isEvaluationError } from '../../../../src/client';
import { proxyClientTarget } from '../../../../src/client/workbenchApi';
import { TargetDescriptionSchema } from '../../../../src/contract';
import type { EvaluateRequest, EvaluateResponse } from '../../../../src/contract';
import { createProxyApp } from '../../../../src/server/proxy/app';
import { createLogger } from '../../../../src/server/proxy/log';
import { HostPolicy } from '../../../../src/server/proxy/security';
import { remoteTarget } from '../../../../src/server/targets/target';
import type { ProxyTarget } from '../../../../src/server/targets/target';
import { localTarget } from '../../../../src/server/workbench';
import { serveCloudflareStandin } from '../../../helpers/standins/cloudflareServer';
import { serveDecisionsStandin } from '../../../helpers/standins/decisionsServer';
import type { RunningStandin } from '../../../helpers/standins/dialectListen';

const KEY = 'dialect-test-key';
let luna: RunningStandin;
let clef: RunningStandin;
let proxyFetch: typeof fetch;
const logs: string[] = [];

// A target of another wire, described as a targets file would (its key given here), then held as the proxy holds it.
const target = (
  id: string,
  url: string,
  evaluatePath: string,
  extra: Pick<Partial<ProxyTarget>, 'wire' | 'limits'>,
): ProxyTarget =>
  remoteTarget(
    TargetDescriptionSchema.parse({
      id,
      label: id,
      preset: 'custom',
      kind: 'direct',
      baseUrl: url,
      evaluatePath,
      modelsPath: null,
      auth: 'bearer',
      header: 'Authorization',
      keyVar: 'DIALECT_TEST_KEY',
      requestsPerMinute: null,
      tokensPerSecond: null,
      inputPrice: null,
      ...extra.wire,
      ...(extra.limits ? { limits: extra.limits } : {}),
    }),
    KEY,
  );

beforeAll(async () => {
  luna = await serveDecisionsStandin({ apiKey: KEY, refuse: /password/i, costHeaderPricePerMillion: 0.1 });
  clef = await serveCloudflareStandin({ apiKey: KEY, dailyAllocation: 2 });
  const app = createProxyApp({
    targets: [
      target('luna', luna.url, '/v1/decisions', {
        wire: { dialect: 'decisions', envelope: 'none', modelInPath: false },
      }),
      target('clef', clef.url, '/client/v4/accounts/acct/ai/run/@cf/cloudflare', {
        wire: { dialect: 'systemone', envelope: 'cloudflare', modelInPath: true },
        limits: { questions: 64 },
      }),
      localTarget({}),
    ],
    hostPolicy: new HostPolicy(() => ({ hostnames: ['127.0.0.1'], port: 5173 })),
    upstreamTimeoutMs: 10_000,
    bodyLimitBytes: 1024 * 1024,
    logger: createLogger({ secrets: [KEY], write: (_, line) => logs.push(line) }),
  });
  // The page's requests as the browser makes them: same origin, with the Host the workbench is served at.
  proxyFetch = (input, init) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    headers.set('host', '127.0.0.1:5173');
    return Promise.resolve(app.fetch(new Request(request, { headers })));
  };
});
afterAll(async () => {
  await Promise.all([luna?.close(), clef?.close()]);
});

const rubric = (model: string): EvaluateRequest => ({
  state: 'Help! My payouts have been failing for 3 days and I need them today.',
  model,
  questions: {
    is_urgent: {
      type: 'noul',
      instructions: 'Does this convey urgency?',
      criteria: { true: 'Explicitly time-sensitive', false: 'No urgency expressed' },
    },
    department: {
      type: 'choice',
      instructions: 'Which team should handle this?',
      criteria: { billing: 'Payments, payouts and refunds', technical: 'Bugs and integrations', other: null },
    },
    frustration: {
      type: 'score',
      instructions: 'How frustrated is the customer?',
      criteria: ['Calm, just stating facts', 'Frustrated but civil', 'Angry or threatening to leave'],
    },
  },
});

const via = (id: string) => proxyClientTarget(id, 'http://127.0.0.1:5173', proxyFetch);
const noRetry = { maxRetries: 0 };

function sumsToOne(response: EvaluateResponse): void {
  for (const a of Object.values(response.answers))
    if (a.type === 'choice' || a.type === 'score')
      expect(Object.values(a.probabilities).reduce((x, y) => x + y, 0)).toBeCloseTo(1, 9);
}

describe('a Decisions-dialect target', () => {
  it('answers the interface form, with the same judge as the local target, normalised', async () => {
    const local = await evaluate(via('local'), rubric('model-1.13.0'));
    const { response } = await evaluate(via('luna'), rubric('gpt-6-luna'));
    const sent = luna.received.at(-1) as { input: string; questions: { type: string; name: string }[] };
    expect(sent.input).toBe(rubric('x').state);
    expect(sent.questions.map((q) => `${q.type}:${q.name}`)).toEqual([
      'choice:is_urgent',
      'choice:department',
      'score:frustration',
    ]);
    expect(response.model).toBe('gpt-6-luna');
    expect(response.requested_model).toBe('gpt-6-luna');
    expect(response.cost).toEqual({
      amount: (response.usage.input_tokens * 0.1) / 1e6,
      source: 'the x-litellm-response-cost header',
    });
    sumsToOne(response);
    const dept = response.answers.department!;
    const localDept = local.response.answers.department!;
    if (dept.type !== 'choice' || localDept.type !== 'choice') throw new Error('choices expected');
    expect(dept.choice).toBe(localDept.choice);
    expect(dept.reported).toMatchObject({ confidence: localDept.confidence });
    const urgent = response.answers.is_urgent!;
    const localUrgent = local.response.answers.is_urgent!;
    if (urgent.type !== 'noul' || localUrgent.type !== 'noul') throw new Error('nouls expected');
    expect(urgent.noul).toBeCloseTo(localUrgent.noul, 9);
  });

  it('keeps a refused question a refusal and answers the others', async () => {
    const request = rubric('gpt-6-luna');
    request.questions.leak = { type: 'noul', instructions: 'Does the message contain a password?' };
    const { response } = await evaluate(via('luna'), request);
    expect(response.answers.leak).toEqual({ type: 'refusal', question_type: 'noul' });
    expect(response.answers.department!.type).toBe('choice');
  });

  it('puts a 400 field error of the Decisions body on the interface field', async () => {
    const request = rubric('gpt-6-luna');
    request.questions.frustration = {
      type: 'score',
      instructions: 'How frustrated?',
      criteria: Array.from({ length: 11 }, (_, i) => `level ${i}`),
    };
    const error = await evaluate(via('luna'), request, noRetry).catch((e: unknown) => e);
    if (!isEvaluationError(error)) throw error;
    expect(error.status).toBe(400);
    expect(error.kind).toBe('validation');
    expect(error.fieldErrors[0]!.loc).toEqual(['questions', 'frustration', 'criteria']);
    expect(error.message).toMatch(
      /^The request failed validation \(400\) at questions\.frustration\.criteria: /,
    );
  });

  it('refuses before sending what the Decisions form cannot carry', async () => {
    const before = luna.received.length;
    const request = rubric('gpt-6-luna');
    request.questions.bare = { type: 'noul' };
    const error = await evaluate(via('luna'), request, noRetry).catch((e: unknown) => e);
    if (!isEvaluationError(error)) throw error;
    expect(error.status).toBe(422);
    expect(error.fieldErrors).toEqual([
      {
        loc: ['questions', 'bare', 'instructions'],
        msg: 'The Decisions form needs instructions on every question: say what to judge.',
      },
    ]);
    expect(luna.received.length).toBe(before);
  });
});

describe('a Cloudflare target (envelope, model in the path)', () => {
  it('reads a 422 with the model body nested in the envelope message, located', async () => {
    const request = rubric('clef');
    request.questions.frustration = { type: 'score', instructions: 'How?', criteria: ['only one'] };
    const error = await evaluate(via('clef'), request, noRetry).catch((e: unknown) => e);
    if (!isEvaluationError(error)) throw error;
    expect(error.status).toBe(422);
    expect(error.fieldErrors.map((e) => e.loc)).toEqual([['questions', 'frustration', 'criteria']]);
  });

  it('unwraps its answers, puts the model in the path, then stops on the daily allocation without retrying', async () => {
    const { response } = await evaluate(via('clef'), rubric('clef'));
    expect(response.model).toBe('clef');
    sumsToOne(response);
    await evaluate(via('clef'), rubric('clef-flash'));
    const before = clef.received.length;
    const error = await evaluate(via('clef'), rubric('clef')).catch((e: unknown) => e);
    if (!isEvaluationError(error)) throw error;
    expect(error.kind).toBe('quota');
    expect(error.attempts).toHaveLength(1);
    expect(clef.received.length).toBe(before + 1);
    expect(error.message).toMatch(
      /^The target's quota is used up \(429, code 4006: you have used up your daily free allocation/,
    );
  });
});
