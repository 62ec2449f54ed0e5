import { describe, expect, it } from 'vitest';
import {
  EvaluateResponseSchema,
  choiceConfidence,
  expectedScore,
  responseMismatches,
  round2,
  scoreConfidence,
} from '../../../src/contract';
import { exampleRequest, exampleResponse as fixtureResponse } from '../../helpers/fixtures';

const exampleResponse = fixtureResponse();

describe('response', () => {
  it('parses the contract example and keeps unknown fields a real service may add', () => {
    const parsed = EvaluateResponseSchema.parse({ ...exampleResponse, extra: 1 });
    expect(parsed.answers.department).toMatchObject({ choice: 'technical' });
    expect((parsed as Record<string, unknown>).extra).toBe(1);
  });

  it('rejects a probability above 1 and a missing usage', () => {
    const bad = structuredClone(exampleResponse);
    bad.answers.is_urgent = { type: 'noul', noul: 1.2 };
    expect(EvaluateResponseSchema.safeParse(bad).success).toBe(false);
    const { usage: _usage, ...noUsage } = exampleResponse;
    expect(EvaluateResponseSchema.safeParse(noUsage).success).toBe(false);
  });

  it('finds missing, extra and mistyped answers', () => {
    const response = EvaluateResponseSchema.parse(exampleResponse);
    expect(responseMismatches(exampleRequest(), response)).toEqual([]);
    const broken = structuredClone(response);
    delete broken.answers.is_urgent;
    broken.answers.extra = { type: 'noul', noul: 0.5 };
    broken.answers.department = { type: 'noul', noul: 0.1 };
    expect(responseMismatches(exampleRequest(), broken)).toEqual([
      'No answer came back for "is_urgent".',
      '"department" was answered as noul, not choice.',
      'An answer came back for "extra", which was not asked.',
    ]);
  });

  it('computes the choice confidence of the contract example', () => {
    // (3 * 0.81 - 1) / 2 = 0.715 -> 0.72 after rounding, as in the example.
    expect(round2(choiceConfidence([0.14, 0.81, 0.05]))).toBe(0.72);
    expect(choiceConfidence([0.5, 0.5])).toBe(0);
    expect(choiceConfidence([1, 0, 0, 0])).toBe(1);
  });

  it('computes the score confidence and expected score of the contract example', () => {
    // t = 2; spread = 0.12*2 + 0.34*1 = 0.58; U = floor(9/4)/3 = 2/3; 1 - 0.58/(2/3) = 0.13.
    expect(round2(scoreConfidence([0.12, 0.34, 0.54]))).toBe(0.13);
    // 0*0.12 + 1*0.34 + 2*0.54 = 1.42.
    expect(round2(expectedScore([0.12, 0.34, 0.54]))).toBe(1.42);
    // Half on each end of a 2-level scale: U = 1/2, spread 0.5 -> 0.
    expect(scoreConfidence([0.5, 0.5])).toBe(0);
    expect(scoreConfidence([0, 1, 0])).toBe(1);
  });

  it('rounds to two decimals', () => {
    expect(round2(0.715)).toBe(0.72);
    expect(round2(0.004)).toBe(0);
  });
});
