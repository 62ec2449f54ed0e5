import { describe, expect, it } from 'vitest';
import { countTokens, modelText, requestTokens, tokenLimitProblems } from '../../../src/core/tokens';
import { exampleRequest } from '../../helpers/fixtures';

describe('tokens', () => {
  it('counts with cl100k_base', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
  });

  it('reads structured values as JSON', () => {
    expect(modelText({ claim: 'x' })).toBe('{"claim":"x"}');
    expect(modelText(null)).toBe('');
  });

  it('counts the state and every question part, summing to the total', () => {
    const req = exampleRequest();
    const t = requestTokens(req);
    expect(t.state).toBe(countTokens(req.state as string));
    const dept =
      countTokens('Which team should handle this?') +
      countTokens('billing') +
      countTokens('Payments and refunds') +
      countTokens('technical') +
      countTokens('Bugs and integrations') +
      countTokens('other');
    expect(t.questions.department).toBe(dept);
    const sum = Object.values(t.questions).reduce((a, b) => a + b, 0);
    expect(t.total).toBe(t.state + sum);
    expect(t.statePlusLongest).toBe(t.state + Math.max(...Object.values(t.questions)));
  });

  it('reports each limit passed, and nothing when the request fits', () => {
    expect(tokenLimitProblems({ state: 10, questions: {}, total: 10, statePlusLongest: 10 })).toEqual([]);
    const problems = tokenLimitProblems({
      state: 40_000,
      questions: {},
      total: 70_000,
      statePlusLongest: 40_000,
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/64,000/);
    expect(problems[1]).toMatch(/32,000/);
  });
});
