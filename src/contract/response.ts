// The evaluation response: the resolved model, one typed answer per question, usage.
import { z } from 'zod';
import { DescriptionSchema, QUESTION_TYPES } from './request';
import type { EvaluateRequest } from './request';

const Probability = z.number().min(0).max(1);
const Distribution = z.record(z.string(), Probability);

export const NoulAnswerSchema = z.looseObject({ type: z.literal('noul'), noul: Probability });
export const ChoiceAnswerSchema = z.looseObject({
  type: z.literal('choice'),
  choice: z.string(),
  confidence: Probability,
  probabilities: Distribution,
});
export const ScoreAnswerSchema = z.looseObject({
  type: z.literal('score'),
  score: z.number().min(0),
  confidence: Probability,
  legend: z.record(z.string(), DescriptionSchema),
  probabilities: Distribution,
});
/**
 * The server declined to answer this one question (the Decisions dialect's per-question `refusal`). It carries no
 * probability: a refusal is never shown or counted as one.
 */
export const RefusalAnswerSchema = z.looseObject({
  type: z.literal('refusal'),
  /** The type of the question that was refused. */
  question_type: z.enum(QUESTION_TYPES).optional(),
});
export const AnswerSchema = z.discriminatedUnion('type', [
  ChoiceAnswerSchema,
  ScoreAnswerSchema,
  NoulAnswerSchema,
  RefusalAnswerSchema,
]);
export type RefusalAnswer = z.infer<typeof RefusalAnswerSchema>;
/** An answer that carries numbers: every answer but a refusal. */
export type ValueAnswer = Exclude<Answer, RefusalAnswer>;
export const isRefusal = (answer: Answer): answer is RefusalAnswer => answer.type === 'refusal';
export type NoulAnswer = z.infer<typeof NoulAnswerSchema>;
export type ChoiceAnswer = z.infer<typeof ChoiceAnswerSchema>;
export type ScoreAnswer = z.infer<typeof ScoreAnswerSchema>;
export type Answer = z.infer<typeof AnswerSchema>;

export const UsageSchema = z.looseObject({
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0).optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const EvaluateResponseSchema = z.looseObject({
  model: z.string().min(1),
  answers: z.record(z.string(), AnswerSchema),
  usage: UsageSchema,
});
export type EvaluateResponse = z.infer<typeof EvaluateResponseSchema>;

/** Problems where a response does not answer its request: a missing, extra or mistyped answer. */
export function responseMismatches(request: EvaluateRequest, response: EvaluateResponse): string[] {
  const problems: string[] = [];
  for (const [name, question] of Object.entries(request.questions)) {
    const answer = response.answers[name];
    if (!answer) problems.push(`No answer came back for "${name}".`);
    else if (answer.type !== question.type && answer.type !== 'refusal')
      problems.push(`"${name}" was answered as ${answer.type}, not ${question.type}.`);
  }
  for (const name of Object.keys(response.answers)) {
    if (!(name in request.questions))
      problems.push(`An answer came back for "${name}", which was not asked.`);
  }
  return problems;
}

/** Rounds a probability, score or confidence to the contract's 2 decimals. */
export const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Confidence of a choice distribution over n labels: (n * p_top - 1) / (n - 1). */
export function choiceConfidence(probabilities: readonly number[]): number {
  const n = probabilities.length;
  if (n < 2) return 1;
  const top = Math.max(...probabilities);
  return Math.min(1, Math.max(0, (n * top - 1) / (n - 1)));
}

/** Confidence of a score distribution: max(0, 1 - sum p_i |i - t| / U), U = floor(n^2/4) / n, t the most probable level. */
export function scoreConfidence(probabilities: readonly number[]): number {
  const n = probabilities.length;
  if (n < 2) return 1;
  let t = 0;
  probabilities.forEach((p, i) => {
    if (p > (probabilities[t] ?? 0)) t = i;
  });
  const spread = probabilities.reduce((sum, p, i) => sum + p * Math.abs(i - t), 0);
  const u = Math.floor((n * n) / 4) / n;
  return Math.max(0, 1 - spread / u);
}

/** Expected level of a score distribution: sum of i * p_i over zero-based levels. */
export const expectedScore = (probabilities: readonly number[]): number =>
  probabilities.reduce((sum, p, i) => sum + i * p, 0);
