// Comparable numbers across servers: renormalised probabilities, the contract's confidence, the expected level.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { choiceConfidence, normaliseResponse, scoreConfidence } from '../../../src/contract';
import type { EvaluateRequest, EvaluateResponse } from '../../../src/contract';

const request: EvaluateRequest = {
  state: 's',
  model: 'clef',
  questions: {
    team: { type: 'choice', instructions: 'Team?', criteria: { billing: 'B', technical: 'T', other: null } },
    tone: { type: 'score', instructions: 'Tone?', criteria: ['calm', 'civil', 'angry'] },
    urgent: { type: 'noul', instructions: 'Urgent?' },
    skipped: { type: 'noul', instructions: 'Refused?' },
  },
};

describe('normaliseResponse', () => {
  it('renormalises 4-decimal probabilities, recomputes confidence and score, and keeps what the server said', () => {
    const response: EvaluateResponse = {
      model: 'clef',
      usage: { input_tokens: 12, output_tokens: 3 },
      answers: {
        team: {
          type: 'choice',
          choice: 'technical',
          confidence: 0.91,
          probabilities: { billing: 0.1001, technical: 0.8, other: 0.0998 },
        },
        // A server that gives the score on a 0-1 scale: the workbench reads the expected zero-based level instead.
        tone: {
          type: 'score',
          score: 0.7,
          confidence: 0.2,
          legend: { '0': 'calm', '1': 'civil', '2': 'angry' },
          probabilities: { '0': 0.1, '1': 0.4, '2': 0.48 },
        },
        urgent: { type: 'noul', noul: 0.9551, confidence: 0.8 },
        skipped: { type: 'refusal', question_type: 'noul' },
      },
    };
    const out = normaliseResponse(response, request);
    expect(out.requested_model).toBe('clef');
    const team = out.answers.team!;
    if (team.type !== 'choice') throw new Error('choice expected');
    const sum = 0.1001 + 0.8 + 0.0998;
    expect(team.probabilities.technical).toBeCloseTo(0.8 / sum, 12);
    expect(Object.values(team.probabilities).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(team.confidence).toBeCloseTo(choiceConfidence([0.1001 / sum, 0.8 / sum, 0.0998 / sum]), 12);
    expect(team.reported).toEqual({ confidence: 0.91, probability_sum: sum });
    const tone = out.answers.tone!;
    if (tone.type !== 'score') throw new Error('score expected');
    expect(tone.score).toBeCloseTo((0.4 + 2 * 0.48) / 0.98, 12);
    expect(tone.confidence).toBeCloseTo(scoreConfidence([0.1 / 0.98, 0.4 / 0.98, 0.48 / 0.98]), 12);
    expect(tone.reported).toEqual({ confidence: 0.2, score: 0.7, probability_sum: 0.98 });
    expect(out.answers.urgent).toEqual({ type: 'noul', noul: 0.9551, reported: { confidence: 0.8 } });
    expect(out.answers.skipped).toEqual({ type: 'refusal', question_type: 'noul' });
  });

  it('moves the choice to the most probable label, first in criteria order on a tie, and says what the server chose', () => {
    const out = normaliseResponse(
      {
        model: 'm',
        usage: { input_tokens: 1 },
        answers: {
          team: {
            type: 'choice',
            choice: 'other',
            confidence: 0,
            probabilities: { other: 0.5, technical: 0.5, billing: 0 },
          },
        },
      },
      request,
    );
    expect(out.answers.team).toMatchObject({ choice: 'technical', reported: { choice: 'other' } });
  });

  it('always gives distributions that sum to 1 and confidences in 0..1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 3, maxLength: 3 }),
        (c, s) => {
          fc.pre(c.some((x) => x > 0) && s.some((x) => x > 0));
          const out = normaliseResponse(
            {
              model: 'm',
              usage: { input_tokens: 1 },
              answers: {
                team: {
                  type: 'choice',
                  choice: 'billing',
                  confidence: 0.5,
                  probabilities: { billing: c[0]! / 1e4, technical: c[1]! / 1e4, other: c[2]! / 1e4 },
                },
                tone: {
                  type: 'score',
                  score: 1,
                  confidence: 0.5,
                  legend: {},
                  probabilities: { '0': s[0]! / 100, '1': s[1]! / 100, '2': s[2]! / 100 },
                },
              },
            },
            request,
          );
          for (const a of Object.values(out.answers)) {
            if (a.type !== 'choice' && a.type !== 'score') continue;
            expect(Object.values(a.probabilities).reduce((x, y) => x + y, 0)).toBeCloseTo(1, 9);
            expect(a.confidence).toBeGreaterThanOrEqual(0);
            expect(a.confidence).toBeLessThanOrEqual(1 + 1e-12);
            if (a.type === 'score') {
              expect(a.score).toBeGreaterThanOrEqual(0);
              expect(a.score).toBeLessThanOrEqual(2 + 1e-12);
            }
          }
        },
      ),
    );
  });
});
