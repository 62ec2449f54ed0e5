// OpenTelemetry GenAI spans exported as JSON (OTLP's resourceSpans, or a list of spans): the chat span's
// `gen_ai.system_instructions`, `gen_ai.input.messages` and `gen_ai.output.messages` attributes (semantic conventions
// for generative AI; messages of `parts`: `text` with `content`, `tool_call` with id, name and arguments,
// `tool_call_response` with id and response). A trace's later chat span repeats the earlier turns, so the latest one
// that carries messages is read.
import type { ConversationItem } from '../../../contract';
import { plural } from '../../words';
import { isRecord } from '../../../contract/guards';
import { asText, counts } from './shared';
import type { Imported } from './shared';

const INPUT = 'gen_ai.input.messages';
const OUTPUT = 'gen_ai.output.messages';
const SYSTEM = 'gen_ai.system_instructions';

interface Span {
  name: string;
  end: number;
  attributes: Map<string, unknown>;
}

/** An attribute's value: OTLP's typed `{stringValue}` (and the rest), or a plain value. */
function attributeValue(v: unknown): unknown {
  if (!isRecord(v)) return v;
  for (const key of ['stringValue', 'intValue', 'doubleValue', 'boolValue']) if (key in v) return v[key];
  if (isRecord(v.arrayValue) && Array.isArray(v.arrayValue.values))
    return v.arrayValue.values.map(attributeValue);
  return v;
}

function spanOf(raw: unknown): Span | null {
  if (!isRecord(raw)) return null;
  const attributes = new Map<string, unknown>();
  if (Array.isArray(raw.attributes)) {
    for (const a of raw.attributes)
      if (isRecord(a) && typeof a.key === 'string') attributes.set(a.key, attributeValue(a.value));
  } else if (isRecord(raw.attributes))
    for (const [k, v] of Object.entries(raw.attributes)) attributes.set(k, v);
  else return null;
  const end = Number(raw.endTimeUnixNano ?? raw.end_time ?? 0);
  return {
    name: typeof raw.name === 'string' ? raw.name : 'span',
    end: Number.isFinite(end) ? end : 0,
    attributes,
  };
}

/** Every span in an OTLP export, a list of spans or one span. */
export function spansOf(value: unknown): Span[] {
  const raws: unknown[] = [];
  if (isRecord(value) && Array.isArray(value.resourceSpans)) {
    for (const rs of value.resourceSpans)
      for (const ss of isRecord(rs) && Array.isArray(rs.scopeSpans) ? rs.scopeSpans : [])
        for (const span of isRecord(ss) && Array.isArray(ss.spans) ? ss.spans : []) raws.push(span);
  } else if (Array.isArray(value)) raws.push(...value);
  else raws.push(value);
  return raws.map(spanOf).filter((s): s is Span => s !== null);
}

export const looksLikeOtel = (value: unknown): boolean => spansOf(value).some((s) => s.attributes.has(INPUT));

/** The attribute's messages: a JSON text (as exporters write it) or a list. */
function listOf(v: unknown): unknown[] | null {
  if (typeof v === 'string') {
    try {
      const parsed: unknown = JSON.parse(v);
      return Array.isArray(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }
  return Array.isArray(v) ? v : null;
}

function messageItems(m: unknown, where: string): ConversationItem[] | string {
  if (!isRecord(m) || !Array.isArray(m.parts)) return `${where} has no parts.`;
  const role = m.role;
  const items: ConversationItem[] = [];
  const texts: string[] = [];
  const flush = (): void => {
    if (!texts.length) return;
    const content = texts.join('\n');
    if (role === 'assistant') items.push({ role: 'assistant', content });
    else items.push({ role: role === 'system' ? 'system' : 'user', content });
    texts.length = 0;
  };
  for (const part of m.parts) {
    if (!isRecord(part)) continue;
    if (part.type === 'text') texts.push(asText(part.content));
    else if (part.type === 'tool_call') {
      flush();
      if (typeof part.id !== 'string' || typeof part.name !== 'string')
        return `A tool call in ${where} has no id or name.`;
      items.push({
        type: 'function_call',
        call_id: part.id,
        name: part.name,
        arguments: asText(part.arguments ?? {}),
      });
    } else if (part.type === 'tool_call_response') {
      flush();
      if (typeof part.id !== 'string') return `A tool call response in ${where} has no id.`;
      items.push({ type: 'function_call_output', call_id: part.id, output: asText(part.response) });
    }
  }
  flush();
  return items;
}

export function fromOtel(value: unknown): Imported {
  const spans = spansOf(value).filter((s) => s.attributes.has(INPUT));
  const span = spans.reduce<Span | null>((a, b) => (a === null || b.end >= a.end ? b : a), null);
  if (!span) return { ok: false, why: `No span carries ${INPUT}.` };
  const items: ConversationItem[] = [];
  const system = listOf(span.attributes.get(SYSTEM));
  if (system) {
    const text = system
      .filter((p) => isRecord(p) && p.type === 'text')
      .map((p) => asText((p as { content: unknown }).content));
    if (text.length) items.push({ role: 'system', content: text.join('\n') });
  }
  for (const key of [INPUT, OUTPUT]) {
    const messages = listOf(span.attributes.get(key));
    if (messages === null) {
      if (key === OUTPUT && !span.attributes.has(OUTPUT)) continue;
      return { ok: false, why: `The span "${span.name}" has ${key}, but it is not a JSON list of messages.` };
    }
    for (const [i, m] of messages.entries()) {
      const read = messageItems(m, `message ${i + 1} of ${key}`);
      if (typeof read === 'string') return { ok: false, why: read };
      items.push(...read);
    }
  }
  const which = spans.length > 1 ? `, the latest of ${plural(spans.length, 'span')} with messages` : '';
  return {
    ok: true,
    conversation: items,
    found: `an OpenTelemetry GenAI span "${span.name}"${which}: ${counts(items)}`,
  };
}
