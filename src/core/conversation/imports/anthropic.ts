// Anthropic Messages: `messages` of user and assistant turns whose `content` is text or blocks (`text`, `tool_use`
// with an id and an input object, `tool_result` naming its `tool_use_id`), and a top-level `system`, as the
// `@anthropic-ai/sdk` package types MessageParam.
import type { ConversationItem } from '../../../contract';
import { plural } from '../../words';
import { isRecord } from '../../../contract/guards';
import { asText, counts } from './shared';
import type { Imported } from './shared';

const BLOCKS = ['text', 'tool_use', 'tool_result', 'image', 'document', 'thinking', 'redacted_thinking'];

/** True when the messages are user/assistant turns and at least one carries Anthropic content blocks. */
export function looksLikeAnthropic(messages: readonly unknown[]): boolean {
  let blocks = false;
  for (const m of messages) {
    if (!isRecord(m) || (m.role !== 'user' && m.role !== 'assistant')) return false;
    if (Array.isArray(m.content)) {
      if (!m.content.every((b) => isRecord(b) && BLOCKS.includes(String(b.type)))) return false;
      blocks ||= m.content.some((b) => isRecord(b) && (b.type === 'tool_use' || b.type === 'tool_result'));
    } else if (typeof m.content !== 'string') return false;
  }
  return blocks;
}

const blockText = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return asText(content);
  return content
    .filter((b) => isRecord(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => (b as { text: string }).text)
    .join('\n');
};

export function fromAnthropic(messages: readonly unknown[], system?: unknown): Imported {
  const items: ConversationItem[] = [];
  const systemText = system === undefined ? '' : blockText(system);
  if (systemText) items.push({ role: 'system', content: systemText });
  for (const [i, m] of messages.entries()) {
    if (!isRecord(m) || (m.role !== 'user' && m.role !== 'assistant'))
      return { ok: false, why: `Message ${i + 1} is neither a user nor an assistant turn.` };
    const role = m.role;
    if (typeof m.content === 'string') {
      items.push({ role, content: m.content });
      continue;
    }
    if (!Array.isArray(m.content)) return { ok: false, why: `Message ${i + 1} has no content.` };
    // Text blocks next to each other make one turn; a tool block ends it.
    let pending: string[] = [];
    const flush = (): void => {
      if (pending.length) items.push({ role, content: pending.join('\n') });
      pending = [];
    };
    for (const block of m.content) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string') pending.push(block.text);
      else if (block.type === 'tool_use') {
        flush();
        if (typeof block.id !== 'string' || typeof block.name !== 'string')
          return { ok: false, why: `A tool_use block of message ${i + 1} has no id or name.` };
        items.push({
          type: 'function_call',
          call_id: block.id,
          name: block.name,
          arguments: asText(block.input ?? {}),
        });
      } else if (block.type === 'tool_result') {
        flush();
        if (typeof block.tool_use_id !== 'string')
          return { ok: false, why: `A tool_result block of message ${i + 1} has no tool_use_id.` };
        const output = blockText(block.content ?? '');
        items.push({
          type: 'function_call_output',
          call_id: block.tool_use_id,
          output: block.is_error === true ? `[error] ${output}` : output,
        });
      }
    }
    flush();
  }
  // Anthropic keeps the system prompt apart and tool results inside user messages: say how they were read.
  const prompt = items[0] && 'role' in items[0] && items[0].role === 'system' ? ' and a system prompt' : '';
  const tools = items.some((i) => !('role' in i))
    ? ' (tool_use and tool_result blocks become tool calls and outputs)'
    : '';
  return {
    ok: true,
    conversation: items,
    found: `an Anthropic Messages transcript of ${plural(messages.length, 'message')}${prompt}: ${counts(items)}${tools}`,
  };
}
