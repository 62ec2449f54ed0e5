// What the transcript readers share: a conversation item per turn, and arguments written as the JSON text a model wrote.
import type { ConversationItem } from '../../../contract';
import { plural } from '../../words';

export type Imported =
  { ok: true; conversation: ConversationItem[]; found: string } | { ok: false; why: string };

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Tool arguments or results as text: a string stays as it is, anything else is written as JSON. */
export const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? null));

/** "6 turns, 1 tool call": the count a found-sentence ends with. */
export function counts(items: readonly ConversationItem[]): string {
  const calls = items.filter(
    (i) => !('role' in i) && (i.type === 'function_call' || i.type === 'custom_tool_call'),
  );
  const messages = items.filter((i) => 'role' in i).length;
  return calls.length
    ? `${plural(messages, 'message')} and ${plural(calls.length, 'tool call')}`
    : plural(messages, 'message');
}
