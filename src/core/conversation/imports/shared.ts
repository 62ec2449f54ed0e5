// What the transcript readers share: a conversation item per turn, and arguments written as the JSON text a model wrote.
import type { ConversationItem } from '../../../contract';
import { plural } from '../../words';

export type Imported =
  { ok: true; conversation: ConversationItem[]; found: string } | { ok: false; why: string };

/** Tool arguments or results as text: a string stays as it is, anything else is written as JSON. */
export const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? null));

/** "a, b and c": a list as a sentence says it. */
const listed = (parts: readonly string[]): string =>
  parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;

/**
 * What a transcript became, each kind named so the numbers add up to what was pasted: "3 messages (1 system, 1 user,
 * 1 assistant), 1 tool call and 1 tool output".
 */
export function counts(items: readonly ConversationItem[]): string {
  const roles = new Map<string, number>();
  let calls = 0;
  let outputs = 0;
  for (const item of items) {
    if ('role' in item) roles.set(item.role, (roles.get(item.role) ?? 0) + 1);
    else if (item.type === 'function_call' || item.type === 'custom_tool_call') calls++;
    else outputs++;
  }
  const messages = [...roles.values()].reduce((a, b) => a + b, 0);
  const byRole = ['system', 'developer', 'user', 'assistant']
    .filter((r) => roles.has(r))
    .map((r) => `${roles.get(r)} ${r}`);
  return listed([
    `${plural(messages, 'message')}${byRole.length > 0 ? ` (${byRole.join(', ')})` : ''}`,
    ...(calls > 0 ? [plural(calls, 'tool call')] : []),
    ...(outputs > 0 ? [plural(outputs, 'tool output')] : []),
  ]);
}
