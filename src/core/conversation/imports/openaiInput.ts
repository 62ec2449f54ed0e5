// An OpenAI Responses or Decisions `input` list: already the workbench's model, except for fields a Responses export
// adds (ids, statuses, annotations), which are dropped, and `input_text`/`output_text` parts, which are kept.
import { ConversationSchema } from '../../../contract';
import type { ConversationItem } from '../../../contract';
import { isRecord } from '../../../contract/guards';
import { counts } from './shared';
import type { Imported } from './shared';

const ITEM_TYPES = [
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
];

/** True when the items use the Responses item types or its typed content parts. */
export function looksLikeOpenAIInput(items: readonly unknown[]): boolean {
  return (
    items.length > 0 &&
    items.every(
      (i) => isRecord(i) && (ITEM_TYPES.includes(String(i.type)) || (i.type === undefined && 'role' in i)),
    ) &&
    items.some(
      (i) =>
        isRecord(i) &&
        (i.type !== undefined ||
          (Array.isArray(i.content) &&
            i.content.some((p) => isRecord(p) && /^(input|output)_text$/.test(String(p.type))))),
    )
  );
}

const part = (p: unknown): unknown => {
  if (!isRecord(p)) return p;
  if (p.type === 'refusal') return { type: 'refusal', refusal: p.refusal };
  return { type: p.type, text: p.text };
};

/** Keeps the fields the Decisions input defines. */
function trimmed(item: Record<string, unknown>): unknown {
  const keep = (keys: string[]): Record<string, unknown> =>
    Object.fromEntries(keys.filter((k) => item[k] !== undefined).map((k) => [k, item[k]]));
  if ('role' in item) {
    const out = keep(['type', 'role', 'content', 'phase']);
    if (Array.isArray(out.content)) out.content = out.content.map(part);
    return out;
  }
  if (item.type === 'function_call') return keep(['type', 'call_id', 'name', 'arguments']);
  if (item.type === 'custom_tool_call') return keep(['type', 'call_id', 'name', 'input']);
  const out = keep(['type', 'call_id', 'output']);
  if (Array.isArray(out.output)) out.output = out.output.map(part);
  return out;
}

export function fromOpenAIInput(items: readonly unknown[]): Imported {
  const parsed = ConversationSchema.safeParse(items.map((i) => (isRecord(i) ? trimmed(i) : i)));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      ok: false,
      why: `It looks like an OpenAI Responses or Decisions input list, but item ${Number(first?.path[0] ?? 0) + 1} is not one the Decisions input takes (${first?.message ?? 'unknown shape'}).`,
    };
  }
  const conversation: ConversationItem[] = parsed.data;
  return {
    ok: true,
    conversation,
    found: `an OpenAI Responses or Decisions input list: ${counts(conversation)}`,
  };
}
