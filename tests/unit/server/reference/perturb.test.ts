// The reference's opt-in order bias and noise: off, answers are exactly the judge's; on, the first (or last) option
// gains and identical requests differ, reproducibly under REFERENCE_SEED; score levels never see an order bias.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluateRequest, EvaluateResponse } from '../../../../src/contract';
import { EvaluateResponseSchema } from '../../../../src/contract';
import { judge } from '../../../../src/server/reference/judge';
import { referenceOptionsFromEnv } from '../../../../src/server/reference/options';
import type { ReferenceOptions } from '../../../../src/server/reference/options';
import { parseNoise, parseOrderBias } from '../../../../src/server/reference/perturb';
import type { RunningReference } from '../../../../src/server/reference/serve';
import { evaluate, start } from './http';

const request: EvaluateRequest = {
  state: 'Help! My payouts have been failing for 3 days.',
  model: 'model-1.13.0',
  questions: {
    is_urgent: { type: 'noul', instructions: 'Does this convey urgency?' },
    department: {
      type: 'choice',
      instructions: 'Which team should handle this?',
      criteria: { billing: 'Payments and refunds', technical: 'Bugs and integrations', other: null },
    },
    frustration: {
      type: 'score',
      instructions: 'How frustrated is the customer?',
      criteria: ['Calm, just stating facts', 'Frustrated but civil', 'Angry or threatening to leave'],
    },
  },
};
const reversed: EvaluateRequest = {
  ...request,
  questions: {
    ...request.questions,
    department: {
      type: 'choice',
      instructions: 'Which team should handle this?',
      criteria: { other: null, technical: 'Bugs and integrations', billing: 'Payments and refunds' },
    },
  },
};

const servers: RunningReference[] = [];
const serve = async (env: Record<string, string>): Promise<string> => {
  const options: Partial<ReferenceOptions> = referenceOptionsFromEnv(env);
  const s = await start(options);
  servers.push(s);
  return s.url;
};
afterAll(async () => {
  for (const s of servers) await s.close();
});

const answer = async (
  url: string,
  body: EvaluateRequest,
): Promise<{ text: string; json: EvaluateResponse }> => {
  const reply = await evaluate(url, body);
  expect(reply.status).toBe(200);
  return { text: reply.text, json: EvaluateResponseSchema.parse(reply.json) };
};
const p = (r: EvaluateResponse, label: string): number =>
  (r.answers.department as { probabilities: Record<string, number> }).probabilities[label]!;

let plain: string;
let biased: string;
beforeAll(async () => {
  plain = await serve({});
  biased = await serve({ REFERENCE_ORDER_BIAS: 'first=1.5' });
});

describe('with both off', () => {
  it('answers byte for byte what the judge answers', async () => {
    for (const body of [request, reversed]) {
      const { text, json } = await answer(plain, body);
      expect(text).toBe(
        JSON.stringify({
          model: 'model-1.13.0',
          answers: judge(body, 'model-1.13.0'),
          usage: json.usage,
        }),
      );
    }
  });

  it('gives the same probabilities whatever the order of the options', async () => {
    const a = (await answer(plain, request)).json;
    const b = (await answer(plain, reversed)).json;
    for (const label of ['billing', 'technical', 'other']) expect(p(a, label)).toBe(p(b, label));
  });
});

describe('REFERENCE_ORDER_BIAS', () => {
  it('makes whatever option is sent first gain, in both orders, and leaves score and yes/no answers alone', async () => {
    const straight = (await answer(plain, request)).json;
    const flipped = (await answer(plain, reversed)).json;
    const biasedStraight = (await answer(biased, request)).json;
    const biasedFlipped = (await answer(biased, reversed)).json;
    expect(p(biasedStraight, 'billing')).toBeGreaterThan(p(straight, 'billing') + 0.1);
    expect(p(biasedFlipped, 'other')).toBeGreaterThan(p(flipped, 'other') + 0.05);
    expect(biasedStraight.answers.frustration).toEqual(straight.answers.frustration);
    expect(biasedStraight.answers.is_urgent).toEqual(straight.answers.is_urgent);
    // Still a contract answer: the choice is the most probable label and the probabilities sum to 1.
    const dept = biasedStraight.answers.department as {
      choice: string;
      probabilities: Record<string, number>;
    };
    const ps = Object.values(dept.probabilities);
    expect(ps.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(dept.probabilities[dept.choice]).toBe(Math.max(...ps));
  });

  it('favours the last option with "last="', async () => {
    const url = await serve({ REFERENCE_ORDER_BIAS: 'last=1.5' });
    const straight = (await answer(plain, request)).json;
    expect(p((await answer(url, request)).json, 'other')).toBeGreaterThan(p(straight, 'other') + 0.05);
  });
});

describe('REFERENCE_NOISE', () => {
  it('makes identical requests differ, and the same seed replays the same answers', async () => {
    const a = await serve({ REFERENCE_NOISE: '0.5', REFERENCE_SEED: '9' });
    const b = await serve({ REFERENCE_NOISE: '0.5', REFERENCE_SEED: '9' });
    const c = await serve({ REFERENCE_NOISE: '0.5', REFERENCE_SEED: '10' });
    const seqA: string[] = [];
    const seqB: string[] = [];
    const seqC: string[] = [];
    for (let i = 0; i < 4; i++) {
      seqA.push(JSON.stringify((await answer(a, request)).json.answers));
      seqB.push(JSON.stringify((await answer(b, request)).json.answers));
      seqC.push(JSON.stringify((await answer(c, request)).json.answers));
    }
    expect(new Set(seqA).size).toBeGreaterThan(1);
    expect(seqB).toEqual(seqA);
    expect(seqC).not.toEqual(seqA);
  });
});

describe('parsing', () => {
  it('reads "first=", "last=" and a bare number, and refuses anything else with the variable named', () => {
    expect(parseOrderBias('')).toBeNull();
    expect(parseOrderBias('0')).toBeNull();
    expect(parseOrderBias('1.2')).toEqual({ position: 'first', logit: 1.2 });
    expect(parseOrderBias('last=0.8')).toEqual({ position: 'last', logit: 0.8 });
    expect(() => parseOrderBias('middle=1')).toThrow(/REFERENCE_ORDER_BIAS "middle=1"/);
    expect(parseNoise('0.3')).toBe(0.3);
    expect(() => parseNoise('-1')).toThrow(/REFERENCE_NOISE/);
    expect(() => referenceOptionsFromEnv({ REFERENCE_NOISE: 'lots', REFERENCE_RPM: 'x' })).toThrow(
      /REFERENCE_RPM.*REFERENCE_NOISE|REFERENCE_NOISE.*REFERENCE_RPM/,
    );
    expect(referenceOptionsFromEnv({}).perturbation).toEqual({ orderBias: null, noise: 0 });
  });
});
