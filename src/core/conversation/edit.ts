// The chat view's edits on a conversation, each returning a new conversation: the editor's JSON text is then
// rewritten from it, so the JSON and the chat view always show the same conversation.
import { contentText, isMessage, isToolCall } from '../../contract';
import type { Conversation, ConversationItem } from '../../contract';

/** The conversation as the editor holds it. */
export const conversationJson = (conversation: Conversation): string =>
  `${JSON.stringify(conversation, null, 2)}\n`;

/** A first conversation from a state written as text or fields: one user turn holding it, so nothing is lost. */
export function startConversation(stateText: string): string {
  const text = stateText.trim();
  return conversationJson([{ role: 'user', content: text === '' ? 'Hello.' : text }]);
}

export type TurnKind = 'user' | 'assistant' | 'system' | 'developer' | 'tool_call' | 'tool_output';

/** A new turn of a kind; a tool output answers the latest call (or a new id when there is none). */
export function newTurn(kind: TurnKind, conversation: Conversation): ConversationItem {
  if (kind === 'tool_call')
    return {
      type: 'function_call',
      call_id: `call_${conversation.length + 1}`,
      name: 'tool_name',
      arguments: '{}',
    };
  if (kind === 'tool_output') {
    const lastCall = [...conversation].reverse().find(isToolCall);
    return {
      type: 'function_call_output',
      call_id: lastCall?.call_id ?? `call_${conversation.length}`,
      output: '',
    };
  }
  return { role: kind, content: '' };
}

export const insertTurn = (c: Conversation, at: number, item: ConversationItem): Conversation => [
  ...c.slice(0, at),
  item,
  ...c.slice(at),
];

export const removeTurn = (c: Conversation, at: number): Conversation => c.filter((_, i) => i !== at);

/** Moves a turn one place up (-1) or down (+1); at an end it stays. */
export function moveTurn(c: Conversation, at: number, by: -1 | 1): Conversation {
  const to = at + by;
  if (to < 0 || to >= c.length) return c;
  const next = [...c];
  [next[at], next[to]] = [next[to]!, next[at]!];
  return next;
}

/** The text the chat view edits for a turn: a message's content, a call's arguments, an output. */
export function turnText(item: ConversationItem): string {
  if (isMessage(item)) return contentText(item.content);
  if (item.type === 'function_call') return item.arguments;
  if (item.type === 'custom_tool_call') return item.input;
  return contentText(item.output);
}

/** The turn with its text replaced (parts become one plain text). */
export function withTurnText(item: ConversationItem, text: string): ConversationItem {
  if (isMessage(item)) return { ...item, content: text };
  if (item.type === 'function_call') return { ...item, arguments: text };
  if (item.type === 'custom_tool_call') return { ...item, input: text };
  return { ...item, output: text };
}

export const replaceTurn = (c: Conversation, at: number, item: ConversationItem): Conversation =>
  c.map((x, i) => (i === at ? item : x));
