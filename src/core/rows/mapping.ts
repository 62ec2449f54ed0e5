// How a row becomes the request's state: the whole row as named fields, one column as text, or chosen columns.
import { z } from 'zod';
import type { Conversation, JsonValue, State } from '../../contract';
import { recogniseValue } from '../conversation/recognise';
import { DEFAULT_RENDER_RULE, RenderRuleSchema, renderConversation } from '../conversation/render';
import { LabelColumnSchema, excludedColumns } from '../labels';
import type { SourceRow } from './parse';
import { isRecord } from '../../contract/guards';

/**
 * Columns that never reach the state, whatever the mode: human labels of questions (read by src/core/labels) and
 * metadata kept with the row. Optional, so mappings stored before labels existed still parse.
 */
const leftOutFields = {
  labels: z.array(LabelColumnSchema).optional(),
  metadata: z.array(z.string().min(1)).optional(),
};

export const RowMappingSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('fields'), idColumn: z.string().nullable().default(null), ...leftOutFields }),
  z.object({
    mode: z.literal('text'),
    column: z.string().min(1),
    idColumn: z.string().nullable().default(null),
    ...leftOutFields,
  }),
  // A column holding a transcript (any shape recognise.ts reads): the state is its rendering, and a Decisions target
  // gets the conversation itself.
  z.object({
    mode: z.literal('conversation'),
    column: z.string().min(1),
    rule: RenderRuleSchema.default(DEFAULT_RENDER_RULE),
    idColumn: z.string().nullable().default(null),
    ...leftOutFields,
  }),
  z.object({
    mode: z.literal('columns'),
    columns: z.array(z.string().min(1)).min(1),
    idColumn: z.string().nullable().default(null),
    ...leftOutFields,
  }),
]);
/** How each row maps to a state, and which column (if any) names the row. */
export type RowMapping = z.infer<typeof RowMappingSchema>;

export type Mapped = { ok: true; state: State; conversation?: Conversation } | { ok: false; reason: string };

const asText = (v: JsonValue | undefined): string =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);

const blank = (v: JsonValue | undefined): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Columns mapped as labels or metadata: they never reach the state (the labels module's excludedColumns). */
export const leftOutColumns = (mapping: RowMapping): Set<string> => excludedColumns(mapping);

/** The one column a text or conversation state is read from, or why the row has none to send. */
function oneColumn(
  data: Record<string, JsonValue>,
  column: string,
  leftOut: ReadonlySet<string>,
): { ok: true; value: JsonValue } | { ok: false; reason: string } {
  if (leftOut.has(column))
    return {
      ok: false,
      reason: `The column \`${column}\` is mapped as a label or metadata, so it is never sent.`,
    };
  const value = data[column];
  if (value === undefined) return { ok: false, reason: `The row has no field \`${column}\`.` };
  if (blank(value)) return { ok: false, reason: `The field \`${column}\` is empty.` };
  return { ok: true, value };
}

/** The state a row maps to, or why it cannot be evaluated. */
export function mapRow(data: JsonValue, mapping: RowMapping): Mapped {
  const leftOut = leftOutColumns(mapping);
  if (mapping.mode === 'fields') {
    if (!isRecord(data)) {
      if (typeof data === 'string')
        return data.trim() === ''
          ? { ok: false, reason: 'The row is empty text.' }
          : { ok: true, state: data };
      if (Array.isArray(data)) return { ok: true, state: data };
      return data === null ? { ok: false, reason: 'The row is null.' } : { ok: true, state: String(data) };
    }
    const state: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(data)) if (k !== mapping.idColumn && !leftOut.has(k)) state[k] = v;
    if (Object.values(state).every(blank))
      return {
        ok: false,
        reason: leftOut.size
          ? 'Every field but the id, the labels and the metadata is blank.'
          : 'Every field but the id is blank.',
      };
    return { ok: true, state };
  }
  if (!isRecord(data)) return { ok: false, reason: 'The row is not an object with named fields.' };
  if (mapping.mode === 'conversation') {
    const cell = oneColumn(data, mapping.column, leftOut);
    if (!cell.ok) return cell;
    const value = cell.value;
    // A CSV cell holds the transcript as JSON text; a JSON Lines row may hold it as a value.
    let parsed: unknown = value;
    if (typeof value === 'string')
      try {
        parsed = JSON.parse(value);
      } catch {
        return {
          ok: false,
          reason: `The field \`${mapping.column}\` is not JSON, so it holds no conversation.`,
        };
      }
    const read = recogniseValue(parsed);
    if (!read.ok)
      return {
        ok: false,
        reason: `The field \`${mapping.column}\` holds no transcript the workbench reads (OpenAI chat or input, Anthropic messages, OpenTelemetry GenAI spans).`,
      };
    return {
      ok: true,
      state: renderConversation(read.conversation, mapping.rule),
      conversation: read.conversation,
    };
  }
  if (mapping.mode === 'text') {
    const cell = oneColumn(data, mapping.column, leftOut);
    return cell.ok ? { ok: true, state: asText(cell.value) } : cell;
  }
  const state: Record<string, JsonValue> = {};
  for (const c of mapping.columns) if (c in data && !leftOut.has(c)) state[c] = data[c] ?? null;
  if (Object.values(state).every(blank)) {
    return {
      ok: false,
      reason: `The chosen fields (${mapping.columns.map((c) => `\`${c}\``).join(', ')}) are all empty.`,
    };
  }
  return { ok: true, state };
}

/** The row's id for results and exports: the id column's value when set and present, else its record number. */
export function rowId(row: SourceRow, mapping: RowMapping): string {
  if (mapping.idColumn && isRecord(row.data)) {
    const v = row.data[mapping.idColumn];
    if (!blank(v)) return asText(v).trim();
  }
  return String(row.number);
}

const ID_NAMES = ['id', 'row_id', 'rowid', 'uuid', 'key', 'ticket_id', 'message_id'];
const TEXT_NAMES = [
  'text',
  'message',
  'content',
  'body',
  'comment',
  'review',
  'description',
  'transcript',
  'prompt',
];

const nameKey = (s: string): string =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

/** A column and the question it holds people's answers to. */
export interface NamedLabel {
  column: string;
  question: string;
}

/**
 * Columns named like a question (exactly, or despite case, spaces, `_` and `-`): each is that question's human label
 * until the user says otherwise, so a file of labelled rows never sends its labels by default. Columns in `taken`
 * (an id, the state, metadata, another label) and questions in `mapped` are left alone.
 */
export function labelsNamedLikeQuestions(
  columns: readonly string[],
  questions: readonly string[],
  taken: ReadonlySet<string> = new Set(),
  mapped: ReadonlySet<string> = new Set(),
): NamedLabel[] {
  const out: NamedLabel[] = [];
  const used = new Set(taken);
  for (const question of questions) {
    if (mapped.has(question)) continue;
    const column =
      columns.find((c) => c === question && !used.has(c)) ??
      columns.find((c) => nameKey(c) === nameKey(question) && !used.has(c));
    if (column === undefined) continue;
    used.add(column);
    out.push({ column, question });
  }
  return out;
}

/**
 * A sensible first mapping for a file's columns: an id column if one is named like it, one text column if obvious, and
 * each column named like one of the questions mapped as its human label (so it never reaches the state).
 */
export function suggestMapping(
  columns: readonly string[],
  objectRows = true,
  questions: readonly string[] = [],
): RowMapping {
  if (!objectRows || columns.length === 0) return { mode: 'fields', idColumn: null };
  const lower = columns.map((c) => c.toLowerCase());
  const idAt = lower.findIndex((c) => ID_NAMES.includes(c));
  const idColumn = idAt === -1 ? null : columns[idAt]!;
  const named = labelsNamedLikeQuestions(columns, questions, new Set(idColumn ? [idColumn] : []));
  const labels = named.length
    ? { labels: named.map((l) => ({ ...l, levelBase: 0 as const, values: {} })) }
    : {};
  const asLabel = new Set(named.map((l) => l.column));
  const rest = columns.filter((c) => c !== idColumn && !asLabel.has(c));
  const textAt = rest.findIndex((c) => TEXT_NAMES.includes(c.toLowerCase()));
  if (rest.length === 1) return { mode: 'text', column: rest[0]!, idColumn, ...labels };
  if (textAt !== -1 && rest.length <= 2) return { mode: 'text', column: rest[textAt]!, idColumn, ...labels };
  return { mode: 'fields', idColumn, ...labels };
}

/**
 * The mapping with `moved` (columns read as labels) sent in the state instead: no longer labels, added to chosen
 * columns, and a one-column state (text, conversation) becomes the whole row as named fields, the one mode whose
 * state holds them beside the column it was.
 */
export function sendInState(mapping: RowMapping, moved: readonly NamedLabel[]): RowMapping {
  const isMoved = (l: NamedLabel): boolean =>
    moved.some((m) => m.column === l.column && m.question === l.question);
  // Only columns still read as those labels move: one the user mapped otherwise since is theirs.
  const still = (mapping.labels ?? []).filter(isMoved);
  if (still.length === 0) return mapping;
  const labels = (mapping.labels ?? []).filter((l) => !isMoved(l));
  if (mapping.mode === 'fields') return { ...mapping, labels };
  if (mapping.mode === 'columns') {
    const added = still.map((m) => m.column).filter((c) => !mapping.columns.includes(c));
    return { ...mapping, labels, columns: [...mapping.columns, ...added] };
  }
  return {
    mode: 'fields',
    idColumn: mapping.idColumn,
    labels,
    ...(mapping.metadata ? { metadata: mapping.metadata } : {}),
  };
}

/** One sentence describing a mapping, for the run summary. */
export function describeMapping(mapping: RowMapping): string {
  const labels = (mapping.labels ?? []).map((l) => `\`${l.column}\` (label of ${l.question})`);
  const metadata = (mapping.metadata ?? []).map((c) => `\`${c}\` (metadata)`);
  const leftOut = [...labels, ...metadata];
  const id =
    (mapping.idColumn ? `; rows named by \`${mapping.idColumn}\`` : '; rows named by their number') +
    (leftOut.length ? `; never sent: ${leftOut.join(', ')}` : '');
  if (mapping.mode === 'fields') return `Whole row as named fields${id}`;
  if (mapping.mode === 'text') return `The column \`${mapping.column}\` as text${id}`;
  if (mapping.mode === 'conversation')
    return `The column \`${mapping.column}\` as a conversation (${mapping.rule.kind === 'transcript' ? 'a transcript' : 'named fields'} for targets of the interface's form)${id}`;
  return `Fields ${mapping.columns.map((c) => `\`${c}\``).join(', ')}${id}`;
}
