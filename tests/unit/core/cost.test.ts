import { describe, expect, it } from 'vitest';
import {
  MAX_REQUEST_INPUT_TOKENS,
  MAX_STATE_PLUS_QUESTION_TOKENS,
  estimateCost,
} from '../../../src/contract';
import { costBreakdown } from '../../../src/core/cost';
import { countTokens, requestTokens } from '../../../src/contract/tokens';
import { createReferenceApp } from '../../../src/server/reference/app';
import { DEFAULT_API_KEY } from '../../../src/server/reference/options';
import { choiceWith, exampleRequest } from '../../helpers/fixtures';

describe('costBreakdown', () => {
  it('counts the state and each question in order, as the reference bills them', async () => {
    const request = { ...exampleRequest(), state: { message: 'My payouts failed for 3 days.', plan: 'pro' } };
    const cost = costBreakdown(request);
    const app = createReferenceApp();
    const res = await app.fetch(
      new Request('http://reference/v1/evaluate', {
        method: 'POST',
        headers: { authorization: `Bearer ${DEFAULT_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(request),
      }),
    );
    expect(res.status).toBe(200);
    const billed = ((await res.json()) as { usage: { input_tokens: number } }).usage.input_tokens;
    expect(cost.total).toBe(billed);
    const tokens = requestTokens(request);
    expect(cost.state).toBe(tokens.state);
    expect(cost.questions).toEqual(
      ['is_urgent', 'department', 'frustration'].map((name) => ({
        name,
        tokens: tokens.questions[name],
        exact: true,
      })),
    );
    expect(cost.statePlusLongest).toBe(tokens.statePlusLongest);
    expect(cost.costPerRequest).toBe(estimateCost(billed));
    expect(cost.problems).toEqual([]);
  });

  it('names the longest question and measures both limits', () => {
    const request = {
      state: 'x'.repeat(10),
      model: 'model-latest',
      questions: { small: choiceWith(2), big: choiceWith(200) },
    };
    const cost = costBreakdown(request);
    expect(cost.longestQuestion).toBe('big');
    expect(cost.limits.request).toEqual({
      used: cost.total,
      limit: MAX_REQUEST_INPUT_TOKENS,
      ratio: cost.total / MAX_REQUEST_INPUT_TOKENS,
      over: false,
    });
    expect(cost.limits.statePlusLongest.limit).toBe(MAX_STATE_PLUS_QUESTION_TOKENS);
    expect(cost.limits.statePlusLongest.used).toBe(cost.state + cost.questions[1]!.tokens);
  });

  it('says which limit a large state passes', () => {
    // "word " is one token each in cl100k_base, so 40k of them pass 32k with any question, and not 64k.
    const state = 'word '.repeat(40_000);
    const cost = costBreakdown({ state, questions: exampleRequest().questions });
    expect(cost.state).toBe(countTokens(state));
    expect(cost.limits.statePlusLongest.over).toBe(true);
    expect(cost.limits.request.over).toBe(false);
    expect(cost.problems).toEqual([
      expect.stringMatching(/state plus the longest question .* limit is 32,000/),
    ]);
  });

  it('multiplies the cost by the runs of a comparison or file', () => {
    const one = costBreakdown(exampleRequest());
    const four = costBreakdown(exampleRequest(), { runs: 4 });
    expect(four.runs).toBe(4);
    expect(four.costTotal).toBeCloseTo(one.costPerRequest * 4, 15);
    expect(one.costTotal).toBe(one.costPerRequest);
  });

  it('estimates what the editors hold when it does not validate, without throwing', () => {
    const cost = costBreakdown({
      state: undefined,
      questions: {
        a: { type: 'boolean', instructions: 'Is it urgent?' },
        b: 'not a question',
        c: { type: 'score', criteria: [1, 2] },
      },
    });
    expect(cost.state).toBe(0);
    expect(cost.questions).toEqual([
      { name: 'a', tokens: countTokens('Is it urgent?'), exact: false },
      { name: 'b', tokens: countTokens('not a question'), exact: false },
      { name: 'c', tokens: countTokens('1') + countTokens('2'), exact: false },
    ]);
    expect(costBreakdown({ state: 'hi', questions: [1, 2] }).questions).toEqual([]);
  });
});
