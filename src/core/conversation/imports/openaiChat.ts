// OpenAI Chat Completions `messages` (system, developer, user, assistant with `tool_calls`, and `tool` messages that
// answer them by `tool_call_id`), as the `openai` package types ChatCompletionMessageParam.
import type { ConversationItem } from '../../../contract';
import { plural } from '../../words';
import { isRecord } from '../../../contract/guards';
import { asText, counts } from './shared';
import type { Imported } from './shared';

const text = (content: unknown): string | null => {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) return null;
  const out: string[] = [];
  for (const part of content) {
    if (!isRecord(part)) return null;
    if (part.type === 'text' && typeof part.text === 'string') out.push(part.text);
    else if (part.type === 'refusal' && typeof part.refusal === 'string') out.push(part.refusal);
    else if (part.type !== 'image_url' && part.type !== 'input_audio' && part.type !== 'file') return null;
  }
  return out.join('\n');
};

/** True when every message has a Chat Completions role and at least one uses what only that form has. */
export function looksLikeOpenAIChat(messages: readonly unknown[]): boolean {
  return (
    messages.length > 0 &&
    messages.every(
      (m) => isRecord(m) && ['system', 'developer', 'user', 'assistant', 'tool'].includes(String(m.role)),
    ) &&
    messages.every((m) => isRecord(m) && text(m.content) !== null)
  );
}

export function fromOpenAIChat(messages: readonly unknown[]): Imported {
  const items: ConversationItem[] = [];
  for (const [i, m] of messages.entries()) {
    if (!isRecord(m)) return { ok: false, why: `Message ${i + 1} is not an object.` };
    const content = text(m.content);
    if (content === null)
      return { ok: false, why: `Message ${i + 1} has content the workbench cannot read as text.` };
    if (m.role === 'tool') {
      if (typeof m.tool_call_id !== 'string')
        return { ok: false, why: `Message ${i + 1} is a tool result without a tool_call_id.` };
      items.push({ type: 'function_call_output', call_id: m.tool_call_id, output: content });
      continue;
    }
    if (m.role === 'assistant') {
      if (content !== '' || !Array.isArray(m.tool_calls)) items.push({ role: 'assistant', content });
      for (const call of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
        if (!isRecord(call) || typeof call.id !== 'string')
          return { ok: false, why: `A tool call of message ${i + 1} has no id.` };
        const fn = isRecord(call.function) ? call.function : isRecord(call.custom) ? call.custom : null;
        if (!fn || typeof fn.name !== 'string')
          return { ok: false, why: `The tool call ${call.id} of message ${i + 1} names no function.` };
        items.push(
          call.type === 'custom'
            ? { type: 'custom_tool_call', call_id: call.id, name: fn.name, input: asText(fn.input) }
            : { type: 'function_call', call_id: call.id, name: fn.name, arguments: asText(fn.arguments) },
        );
      }
      continue;
    }
    items.push({ role: m.role as 'system' | 'developer' | 'user', content });
  }
  // A tool message is read as a tool output and an assistant message of only tool calls as its calls, so the
  // counts after the colon add up to the messages pasted whenever each assistant turn either speaks or calls.
  return {
    ok: true,
    conversation: items,
    found: `an OpenAI Chat Completions list of ${plural(messages.length, 'message')}: ${counts(items)}`,
  };
}
