// JSON Schemas generated from the zod contract, for the editor's validation, completion and hovers.
import { z } from 'zod';
import { ConversationSchema } from './conversation';
import { EvaluateRequestSchema, QuestionsSchema, StateSchema } from './request';

const toSchema = (schema: z.ZodType): Record<string, unknown> =>
  z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;

/** JSON Schema of the whole request body. */
export const requestJsonSchema = (): Record<string, unknown> => toSchema(EvaluateRequestSchema);
/** JSON Schema of the questions map, which the questions editor holds. */
export const questionsJsonSchema = (): Record<string, unknown> => toSchema(QuestionsSchema);
/** JSON Schema of the state, which the state editor holds in JSON mode. */
export const stateJsonSchema = (): Record<string, unknown> => toSchema(StateSchema);
/** JSON Schema of a conversation, which the state editor holds in conversation mode. */
export const conversationJsonSchema = (): Record<string, unknown> => toSchema(ConversationSchema);
