// A conversation or an agent's trace as the state: the workbench's one model of it, shaped exactly as the Decisions
// form's `input` items (the `openai` npm package 7.57.0, `resources/decisions.d.ts`, `DecisionCreateParams`), so it
// goes to a Decisions-dialect target unchanged. Text only: image parts are not part of the workbench's state.
import { z } from 'zod';
import type { EvaluateRequest } from './request';

const Text = z.string().meta({ description: 'The text of this part.' });
const CallId = z.string().min(1).meta({ description: 'The id that ties a tool call to its output.' });
const Status = z.enum(['in_progress', 'completed', 'incomplete']).nullable().optional();

export const InputTextPartSchema = z.strictObject({ type: z.literal('input_text'), text: Text });
export const OutputTextPartSchema = z.strictObject({ type: z.literal('output_text'), text: Text });
export const RefusalPartSchema = z.strictObject({ type: z.literal('refusal'), refusal: Text });

/** A system, developer or user message: text, or text parts. */
export const InputMessageSchema = z
  .strictObject({
    type: z.literal('message').optional(),
    role: z.enum(['system', 'developer', 'user']),
    content: z.union([z.string(), z.array(InputTextPartSchema)]),
  })
  .meta({ description: 'A message from the system, the developer or the user.' });

/** An assistant message: its output text, or a refusal. */
export const AssistantMessageSchema = z
  .strictObject({
    type: z.literal('message').optional(),
    role: z.literal('assistant'),
    content: z.union([z.string(), z.array(z.union([OutputTextPartSchema, RefusalPartSchema]))]),
    phase: z.enum(['commentary', 'final_answer']).nullable().optional(),
  })
  .meta({ description: "An assistant's turn." });

/** A function (tool) call with its JSON arguments as a string. */
export const FunctionCallSchema = z
  .strictObject({
    type: z.literal('function_call'),
    call_id: CallId,
    name: z.string().min(1).meta({ description: 'The tool called.' }),
    arguments: z.string().meta({ description: 'The arguments, as the JSON text the model wrote.' }),
    id: z.string().nullable().optional(),
    namespace: z.string().nullable().optional(),
    status: Status,
  })
  .meta({ description: 'A tool call the assistant made.' });

/** What a function call returned, matched to it by `call_id`. */
export const FunctionCallOutputSchema = z
  .strictObject({
    type: z.literal('function_call_output'),
    call_id: CallId,
    output: z.union([z.string(), z.array(InputTextPartSchema)]),
    id: z.string().nullable().optional(),
    status: Status,
  })
  .meta({ description: 'What a tool call returned; its call_id names the call.' });

/** A custom (free-form input) tool call and its output. */
export const CustomToolCallSchema = z.strictObject({
  type: z.literal('custom_tool_call'),
  call_id: CallId,
  name: z.string().min(1),
  input: z.string(),
  id: z.string().nullable().optional(),
  namespace: z.string().nullable().optional(),
  status: Status,
});
export const CustomToolCallOutputSchema = z.strictObject({
  type: z.literal('custom_tool_call_output'),
  call_id: CallId,
  output: z.union([z.string(), z.array(InputTextPartSchema)]),
  id: z.string().nullable().optional(),
  status: Status,
});

export const ConversationItemSchema = z.union([
  InputMessageSchema,
  AssistantMessageSchema,
  FunctionCallSchema,
  FunctionCallOutputSchema,
  CustomToolCallSchema,
  CustomToolCallOutputSchema,
]);
export type ConversationItem = z.infer<typeof ConversationItemSchema>;

/** The conversation: its items in order, at least one. */
export const ConversationSchema = z.array(ConversationItemSchema).min(1).meta({
  description: 'A conversation or an agent trace: messages, tool calls and their outputs, in order.',
});
export type Conversation = z.infer<typeof ConversationSchema>;

export type ToolCall = Extract<ConversationItem, { type: 'function_call' | 'custom_tool_call' }>;
export type ToolOutput = Extract<
  ConversationItem,
  { type: 'function_call_output' | 'custom_tool_call_output' }
>;
export type Message = Extract<ConversationItem, { role: string }>;

export const isMessage = (item: ConversationItem): item is Message => 'role' in item;
export const isToolCall = (item: ConversationItem): item is ToolCall =>
  !isMessage(item) && (item.type === 'function_call' || item.type === 'custom_tool_call');
export const isToolOutput = (item: ConversationItem): item is ToolOutput =>
  !isMessage(item) && (item.type === 'function_call_output' || item.type === 'custom_tool_call_output');

/** The plain text of a message's content or a tool output (parts joined by a line break). */
export function contentText(content: string | readonly ({ text: string } | { refusal: string })[]): string {
  if (typeof content === 'string') return content;
  return content.map((p) => ('text' in p ? p.text : `[refusal] ${p.refusal}`)).join('\n');
}

/**
 * The workbench-only field of a request to the proxy that carries a conversation: a Decisions-dialect target gets it
 * natively as `input`; every other target gets the state rendered from it, and the field is removed before sending.
 */
export const CONVERSATION_FIELD = 'workbench_conversation';

/** A request to the proxy that may carry its conversation beside the rendered state. */
export type CarriedRequest = EvaluateRequest & { [CONVERSATION_FIELD]?: Conversation };
