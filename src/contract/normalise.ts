// Comparable numbers across servers: probabilities renormalised to sum to 1 (servers round to 2 or 4 decimals),
// confidence recomputed with the contract's formula (servers use other formulas, e.g. 1 - H/ln N), score as the
// expected zero-based level. The server's own values are kept beside them under `reported`.
import { z } from 'zod';
import type { EvaluateRequest, Question } from './request';
import type { Answer, EvaluateResponse } from './response';
import { choiceConfidence, expectedScore, scoreConfidence } from './response';
import type { ReportedCost } from './usageReport';

/** What the server itself said, where the workbench recomputed it. */
export const ReportedValuesSchema = z.looseObject({
  confidence: z.number().optional(),
  score: z.number().optional(),
  choice: z.string().optional(),
  /** The sum of the probabilities as sent, before renormalising. */
  probability_sum: z.number().optional(),
});
export type ReportedValues = z.infer<typeof ReportedValuesSchema>;

const byKeyOrder = (keys: readonly string[], probabilities: Record<string, number>): string[] => [
  ...keys.filter((k) => Object.hasOwn(probabilities, k)),
  ...Object.keys(probabilities).filter((k) => !keys.includes(k)),
];

function renormalise(order: readonly string[], probabilities: Record<string, number>) {
  const sum = order.reduce((s, k) => s + (probabilities[k] ?? 0), 0);
  const values = order.map((k) => (sum > 0 ? (probabilities[k] ?? 0) / sum : 0));
  return { sum, values, map: Object.fromEntries(order.map((k, i) => [k, values[i]!])) };
}

function normaliseAnswer(answer: Answer, question: Question | undefined): Answer {
  switch (answer.type) {
    case 'refusal':
      return answer;
    case 'noul': {
      // A noul carries no confidence in the contract; Gemini and coreai-kit send one, kept as the server's.
      const { confidence, ...rest } = answer as typeof answer & { confidence?: unknown };
      const noul = Math.min(1, Math.max(0, answer.noul));
      return typeof confidence === 'number' ? { ...rest, noul, reported: { confidence } } : { ...rest, noul };
    }
    case 'choice': {
      const labels = question?.type === 'choice' ? Object.keys(question.criteria) : [];
      const order = byKeyOrder(labels, answer.probabilities);
      const { sum, values, map } = renormalise(order, answer.probabilities);
      // Ties go to the first label in criteria order, as the contract says.
      const top = values.reduce((best, p, i) => (p > values[best]! ? i : best), 0);
      const choice = order[top] ?? answer.choice;
      const reported: ReportedValues = { confidence: answer.confidence, probability_sum: sum };
      if (choice !== answer.choice) reported.choice = answer.choice;
      return { ...answer, choice, probabilities: map, confidence: choiceConfidence(values), reported };
    }
    case 'score': {
      const n =
        question?.type === 'score' ? question.criteria.length : Object.keys(answer.probabilities).length;
      const levels = Array.from({ length: n }, (_, i) => String(i));
      const { sum, values, map } = renormalise(levels, answer.probabilities);
      const legend =
        question?.type === 'score'
          ? Object.fromEntries(question.criteria.map((level, i) => [String(i), level]))
          : answer.legend;
      return {
        ...answer,
        legend,
        probabilities: map,
        score: expectedScore(values),
        confidence: scoreConfidence(values),
        reported: { confidence: answer.confidence, score: answer.score, probability_sum: sum },
      };
    }
  }
}

/** The response with comparable numbers, the requested model beside the echoed one, and any reported cost. */
export function normaliseResponse(
  response: EvaluateResponse,
  request: EvaluateRequest,
  extra: { cost?: ReportedCost | null } = {},
): EvaluateResponse {
  const answers = Object.fromEntries(
    Object.entries(response.answers).map(([name, answer]) => [
      name,
      normaliseAnswer(answer, Object.hasOwn(request.questions, name) ? request.questions[name] : undefined),
    ]),
  );
  return {
    ...response,
    answers,
    requested_model: request.model,
    ...(extra.cost ? { cost: extra.cost } : {}),
  };
}
