// The evaluation request: one state, one model, a map of named typed questions.
import { z } from 'zod';
import { MAX_LEVELS, MAX_OPTIONS, MIN_LEVELS, MIN_OPTIONS } from './limits';

/** Any JSON value, as sent on the wire. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export const JsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(JsonValueSchema),
    z.record(z.string(), JsonValueSchema),
  ]),
);

const JsonObjectSchema = z.record(z.string(), JsonValueSchema);

/** Text, an object or an array: how instructions and descriptions are written. */
export const DescriptionSchema = z
  .union([z.string(), JsonObjectSchema, z.array(JsonValueSchema)])
  .meta({ description: 'Text, or an object or array that carries the text and referenced data.' });
export type Description = z.infer<typeof DescriptionSchema>;

const InstructionsSchema = DescriptionSchema.meta({
  description:
    'What to judge, in a short rubric. May name state fields in backticks, e.g. `claim`. The model never sees the question name, so the meaning lives here.',
});

export const NoulQuestionSchema = z
  .strictObject({
    type: z.literal('noul').meta({ description: 'A yes/no judgment answered with the probability of yes.' }),
    instructions: InstructionsSchema.optional(),
    criteria: z
      .strictObject({
        true: DescriptionSchema.optional().meta({ description: 'What a "yes" looks like.' }),
        false: DescriptionSchema.optional().meta({ description: 'What a "no" looks like.' }),
      })
      .optional()
      .meta({ description: 'Optional descriptions of yes and no.' }),
  })
  .meta({
    title: 'noul question',
    description: 'Yes/no judgment; the answer is the probability of yes, 0..1.',
  });

export const ChoiceQuestionSchema = z
  .strictObject({
    type: z.literal('choice').meta({ description: 'Pick one label of a closed set.' }),
    instructions: InstructionsSchema.optional(),
    criteria: z
      .record(
        z.string().min(1, 'A label must not be empty.'),
        DescriptionSchema.nullable().meta({ description: 'What this label means (may be null).' }),
      )
      .refine((c) => Object.keys(c).length >= MIN_OPTIONS, {
        message: `A choice question needs at least ${MIN_OPTIONS} labels.`,
      })
      .refine((c) => Object.keys(c).length <= MAX_OPTIONS, {
        message: `A choice question takes at most ${MAX_OPTIONS} labels; split a larger taxonomy into groups.`,
      })
      .meta({
        description: `Labels mapped to their descriptions, ${MIN_OPTIONS} to ${MAX_OPTIONS} labels. A label is only a label: the service never executes it.`,
      }),
  })
  .meta({ title: 'choice question', description: 'Pick one of a closed set of labels.' });

const LevelSchema = z
  .string()
  .refine((s) => s.trim() !== '', 'A score level must be a descriptive phrase, not empty.')
  .meta({ description: 'A descriptive phrase for this level, not a bare number.' });

export const ScoreQuestionSchema = z
  .strictObject({
    type: z.literal('score').meta({ description: 'Rate on an ordered scale.' }),
    instructions: InstructionsSchema.optional(),
    criteria: z
      .array(LevelSchema)
      .min(MIN_LEVELS, `A score question needs at least ${MIN_LEVELS} levels.`)
      .max(MAX_LEVELS, `A score question takes at most ${MAX_LEVELS} levels.`)
      .meta({
        description: `Level descriptions, lowest first, ${MIN_LEVELS} to ${MAX_LEVELS}; numbered 0..n-1 in the answer.`,
      }),
  })
  .meta({ title: 'score question', description: 'Rate on an ordered scale of 2 to 10 described levels.' });

export const QUESTION_TYPES = ['choice', 'score', 'noul'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const QuestionSchema = z.discriminatedUnion(
  'type',
  [ChoiceQuestionSchema, ScoreQuestionSchema, NoulQuestionSchema],
  {
    error: (issue) => {
      const input = issue.input as { type?: unknown } | undefined;
      if (input && typeof input === 'object' && input.type === 'boolean') {
        return '`boolean` is not a question type of this service: use `noul` (the gateway calls it boolean).';
      }
      if (issue.code === 'invalid_union')
        return 'The question type must be one of `choice`, `score` or `noul`.';
      return undefined;
    },
  },
);
export type Question = z.infer<typeof QuestionSchema>;
export type NoulQuestion = z.infer<typeof NoulQuestionSchema>;
export type ChoiceQuestion = z.infer<typeof ChoiceQuestionSchema>;
export type ScoreQuestion = z.infer<typeof ScoreQuestionSchema>;

export const StateSchema = z
  .union([z.string(), JsonObjectSchema, z.array(JsonValueSchema)], {
    error: 'The state must be text, an object of named fields or an array; it must not be null.',
  })
  .meta({
    description: 'The content to judge: text or named fields. Everything here is billed and can distract.',
  });
export type State = z.infer<typeof StateSchema>;

export const QuestionsSchema = z
  .record(z.string().min(1, 'A question name must not be empty.'), QuestionSchema)
  .refine((q) => Object.keys(q).length >= 1, { message: 'Send at least one question.' })
  .meta({ description: 'Question names mapped to questions; answers come back under the same names.' });
export type Questions = z.infer<typeof QuestionsSchema>;

export const EvaluateRequestSchema = z
  .strictObject({
    state: StateSchema,
    model: z
      .string({ error: 'The model is required: an alias or a versioned id.' })
      .min(1, 'The model is required: an alias or a versioned id.')
      .meta({ description: 'An alias (model-latest) or a versioned id (model-1.13.0).' }),
    questions: QuestionsSchema,
  })
  .meta({ title: 'Evaluation request' });
export type EvaluateRequest = z.infer<typeof EvaluateRequestSchema>;

/** Names of the top-level fields; anything else is rejected with a 422. */
export const REQUEST_FIELDS = ['state', 'model', 'questions'] as const;
