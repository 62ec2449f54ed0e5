// The Decisions dialect's wire shapes (OpenAI's POST /v1/decisions; LiteLLM's, Fireworks' and AssemblyAI's too), as
// the `openai` npm package 7.57.0 types them in `resources/decisions.d.ts`. Only the parts the workbench sends or
// reads are modelled strictly; unknown fields pass (a server may add its own).
import { z } from 'zod';

/** A text part of an input or of instructions. */
export const DecisionsTextPartSchema = z.looseObject({ type: z.literal('input_text'), text: z.string() });
/** A JSON part: an object or an array of objects (`DecisionInputJSON`). */
export const DecisionsJsonPartSchema = z.looseObject({
  type: z.literal('input_json'),
  data: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]),
});
/** An image part; the workbench never sends one, a Decisions server accepts it. */
export const DecisionsImagePartSchema = z.looseObject({
  type: z.literal('input_image'),
  image_url: z.string(),
});
export const DecisionsPartSchema = z.discriminatedUnion('type', [
  DecisionsTextPartSchema,
  DecisionsJsonPartSchema,
  DecisionsImagePartSchema,
]);
export type DecisionsPart = z.infer<typeof DecisionsPartSchema>;

/** Instructions: a string or an ordered list of parts. */
export const DecisionsInstructionsSchema = z.union([z.string(), z.array(DecisionsPartSchema)]);
export type DecisionsInstructions = z.infer<typeof DecisionsInstructionsSchema>;

/** A message of the input. The SDK also types developer, system, assistant and tool-call items. */
export const DecisionsMessageSchema = z.looseObject({
  role: z.string(),
  type: z.string().optional(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
});
export const DecisionsInputSchema = z.union([z.string(), z.array(z.looseObject({}))]);
export type DecisionsInput = string | Record<string, unknown>[];

const NameSchema = z.string().optional();

export const DecisionsPredicateSchema = z.looseObject({
  type: z.literal('predicate'),
  name: NameSchema,
  instructions: DecisionsInstructionsSchema,
});
/** A choice option. Values are typed: `true` and `"true"` are distinct. */
export const DecisionsChoiceOptionSchema = z.looseObject({
  value: z.union([z.string(), z.boolean()]),
  description: z.string().optional(),
});
export const DecisionsChoiceSchema = z.looseObject({
  type: z.literal('choice'),
  name: NameSchema,
  instructions: DecisionsInstructionsSchema,
  choices: z.array(DecisionsChoiceOptionSchema),
});
export const DecisionsLevelSchema = z.looseObject({ label: z.string(), description: z.string().optional() });
export const DecisionsScoreSchema = z.looseObject({
  type: z.literal('score'),
  name: NameSchema,
  instructions: DecisionsInstructionsSchema,
  levels: z.array(DecisionsLevelSchema),
});
export const DecisionsQuestionSchema = z.discriminatedUnion('type', [
  DecisionsPredicateSchema,
  DecisionsChoiceSchema,
  DecisionsScoreSchema,
]);
export type DecisionsQuestion = z.infer<typeof DecisionsQuestionSchema>;
export type DecisionsChoiceOption = z.infer<typeof DecisionsChoiceOptionSchema>;

export const DecisionsRequestSchema = z.looseObject({
  model: z.string(),
  input: DecisionsInputSchema,
  questions: z.array(DecisionsQuestionSchema),
  safety_identifier: z.string().nullish(),
});
export interface DecisionsRequest {
  model: string;
  input: DecisionsInput;
  questions: DecisionsQuestion[];
}

const Probability = z.number().min(0).max(1);
const AnswerName = z.string().nullable();

export const DecisionsPredicateAnswerSchema = z.looseObject({
  type: z.literal('predicate'),
  name: AnswerName,
  probability: Probability,
});
export const DecisionsChoiceAnswerSchema = z.looseObject({
  type: z.literal('choice'),
  name: AnswerName,
  choice: z.union([z.string(), z.boolean()]),
  confidence: Probability,
  probabilities: z.array(
    z.looseObject({ value: z.union([z.string(), z.boolean()]), probability: Probability }),
  ),
});
export const DecisionsScoreAnswerSchema = z.looseObject({
  type: z.literal('score'),
  name: AnswerName,
  score: z.number(),
  confidence: Probability,
  probabilities: z.array(
    z.looseObject({ label: z.string(), value: z.number().int().min(0), probability: Probability }),
  ),
});
/** The model declined this one question; the others may still be answered. */
export const DecisionsRefusalSchema = z.looseObject({ type: z.literal('refusal'), name: AnswerName });
export const DecisionsAnswerSchema = z.discriminatedUnion('type', [
  DecisionsPredicateAnswerSchema,
  DecisionsChoiceAnswerSchema,
  DecisionsScoreAnswerSchema,
  DecisionsRefusalSchema,
]);
export type DecisionsAnswer = z.infer<typeof DecisionsAnswerSchema>;

/** Usage as the SDK types it; every detail is optional here because gateways drop some. */
export const DecisionsUsageSchema = z.looseObject({
  input_tokens: z.number().int().min(0),
  output_tokens: z.number().int().min(0).optional(),
  total_tokens: z.number().int().min(0).optional(),
  input_tokens_details: z
    .looseObject({
      cached_tokens: z.number().int().min(0).optional(),
      cache_write_tokens: z.number().int().min(0).optional(),
    })
    .optional(),
  output_tokens_details: z.looseObject({ reasoning_tokens: z.number().int().min(0).optional() }).optional(),
});

export const DecisionsResponseSchema = z.looseObject({
  model: z.string().min(1),
  answers: z.array(DecisionsAnswerSchema),
  usage: DecisionsUsageSchema,
});
export type DecisionsResponse = z.infer<typeof DecisionsResponseSchema>;
