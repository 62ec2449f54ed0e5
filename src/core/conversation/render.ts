// How a conversation becomes the state of a target of the interface's own form, which takes a text or named fields:
// a rule the user sees and changes. A Decisions-dialect target needs no rule: it reads the conversation itself.
import { z } from 'zod';
import { contentText, isMessage, isToolCall } from '../../contract';
import type { Conversation, ConversationItem, State } from '../../contract';

export const RenderRuleSchema = z.object({
  /** 'transcript': one text, one line per turn; 'fields': named fields for the whole and the last assistant turn. */
  kind: z.enum(['transcript', 'fields']),
});
export type RenderRule = z.infer<typeof RenderRuleSchema>;

export const DEFAULT_RENDER_RULE: RenderRule = { kind: 'transcript' };

const ROLE_NAMES: Record<string, string> = {
  system: 'System',
  developer: 'Developer',
  user: 'User',
  assistant: 'Assistant',
};

/** One turn as one line: who spoke or what was called, then what; line breaks inside a turn become spaces. */
export function turnLine(item: ConversationItem): string {
  const flat = (s: string): string => s.replace(/\s*\n\s*/g, ' ').trim();
  if (isMessage(item)) return `${ROLE_NAMES[item.role]}: ${flat(contentText(item.content))}`;
  if (isToolCall(item))
    return item.type === 'function_call'
      ? `Tool call ${item.name}(${flat(item.arguments)}) [${item.call_id}]`
      : `Tool call ${item.name}: ${flat(item.input)} [${item.call_id}]`;
  return `Tool output [${item.call_id}]: ${flat(contentText(item.output))}`;
}

/** The index of the last assistant message, or -1. */
export function lastAssistantIndex(conversation: Conversation): number {
  for (let i = conversation.length - 1; i >= 0; i--) {
    const item = conversation[i]!;
    if (isMessage(item) && item.role === 'assistant') return i;
  }
  return -1;
}

/** The state a target of the interface's form receives for this conversation. */
export function renderConversation(
  conversation: Conversation,
  rule: RenderRule = DEFAULT_RENDER_RULE,
): State {
  const transcript = conversation.map(turnLine).join('\n');
  if (rule.kind === 'transcript') return transcript;
  const last = conversation[lastAssistantIndex(conversation)];
  return {
    conversation: transcript,
    last_assistant_turn: last && isMessage(last) ? contentText(last.content) : '',
  };
}

/** The tools the conversation calls, in order of first call. */
export function toolNames(conversation: Conversation): string[] {
  const names: string[] = [];
  for (const item of conversation) if (isToolCall(item) && !names.includes(item.name)) names.push(item.name);
  return names;
}
