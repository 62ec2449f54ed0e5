// Human label values as files write them, read into the question's own labels: choice labels despite case, spaces and
// prefixes; score levels by number or level text; noul from yes/no/true/false/1/0/y/n. What matches nothing is counted
// and left out until the user maps it in the value table.
import { z } from 'zod';
import type { JsonValue, Question } from '../../contract';

/** A human label as stored: a choice label, a score level (0-based, as the contract numbers levels) or noul yes/no. */
export type LabelValue = string | number | boolean;

/** A label value as stored and in files: a choice label, a 0-based score level, or yes/no. */
export const LabelValueSchema = z.union([z.string(), z.number().int().min(0), z.boolean()]);

/** One column read as the human label of one question. */
export const LabelColumnSchema = z.object({
  column: z.string().min(1),
  question: z.string().min(1),
  /** Who labelled this column, when a question has several (one per annotator); the column's name otherwise. */
  annotator: z.string().min(1).optional(),
  /** Score levels written as numbers: 0-based (the contract's numbering) or 1-based. */
  levelBase: z.union([z.literal(0), z.literal(1)]).default(0),
  /** The user's table for raw values: a label to read them as, or null to leave them out. */
  values: z.record(z.string(), LabelValueSchema.nullable()).default({}),
});
export type LabelColumn = z.infer<typeof LabelColumnSchema>;

/** How one raw value was read. */
export type LabelReading =
  | { kind: 'empty' }
  | { kind: 'ok'; value: LabelValue; how: 'exact' | 'normalised' | 'prefix' | 'level' | 'mapped' }
  | { kind: 'excluded' }
  | { kind: 'unmatched'; raw: string };

/** The raw text of a cell, as the value table keys it. */
export const rawText = (v: JsonValue | undefined): string =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);

const norm = (s: string): string =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');

const YES = new Set(['yes', 'y', 'true', 't', '1']);
const NO = new Set(['no', 'n', 'false', 'f', '0']);

/** Shortest prefix that may stand for a label (so a lone "t" does not read as "technical"). */
const MIN_PREFIX = 3;

function readChoice(raw: string, labels: readonly string[]): LabelReading {
  if (labels.includes(raw)) return { kind: 'ok', value: raw, how: 'exact' };
  const n = norm(raw);
  const same = labels.filter((l) => norm(l) === n);
  if (same.length === 1) return { kind: 'ok', value: same[0]!, how: 'normalised' };
  if (n.length >= MIN_PREFIX) {
    const prefixed = labels.filter((l) => norm(l).startsWith(n));
    if (prefixed.length === 1) return { kind: 'ok', value: prefixed[0]!, how: 'prefix' };
  }
  return { kind: 'unmatched', raw };
}

function readScore(raw: string, levels: readonly string[], base: 0 | 1): LabelReading {
  const t = raw.trim();
  if (/^\d+(\.0+)?$/.test(t)) {
    const level = Number(t) - base;
    if (Number.isInteger(level) && level >= 0 && level < levels.length)
      return { kind: 'ok', value: level, how: 'level' };
    return { kind: 'unmatched', raw };
  }
  const n = norm(t);
  const at = levels.findIndex((l) => norm(l) === n);
  return at === -1 ? { kind: 'unmatched', raw } : { kind: 'ok', value: at, how: 'normalised' };
}

function readNoul(raw: string): LabelReading {
  const n = norm(raw);
  if (YES.has(n)) return { kind: 'ok', value: true, how: 'normalised' };
  if (NO.has(n)) return { kind: 'ok', value: false, how: 'normalised' };
  return { kind: 'unmatched', raw };
}

/** Whether a stored label value is a valid answer to the question (a label of it, a level in range, a boolean). */
export function validLabel(value: LabelValue, question: Question): boolean {
  if (question.type === 'choice') return typeof value === 'string' && value in question.criteria;
  if (question.type === 'score')
    return (
      typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < question.criteria.length
    );
  return typeof value === 'boolean';
}

/** Reads one cell as a label of the question, the user's value table first. */
export function readLabel(cell: JsonValue | undefined, question: Question, spec: LabelColumn): LabelReading {
  if (typeof cell === 'boolean' && question.type === 'noul') return { kind: 'ok', value: cell, how: 'exact' };
  const raw = rawText(cell);
  if (raw.trim() === '') return { kind: 'empty' };
  if (Object.hasOwn(spec.values, raw)) {
    const mapped = spec.values[raw];
    if (mapped === null || mapped === undefined) return { kind: 'excluded' };
    return validLabel(mapped, question)
      ? { kind: 'ok', value: mapped, how: 'mapped' }
      : { kind: 'unmatched', raw };
  }
  if (question.type === 'choice') return readChoice(raw, Object.keys(question.criteria));
  if (question.type === 'score') return readScore(raw, question.criteria, spec.levelBase);
  return readNoul(raw);
}

/** One line of the value table: a raw value, how many rows have it and what it reads as. */
export interface ValueTableLine {
  raw: string;
  count: number;
  reading: LabelReading;
}

/** Counts of a label column over the rows. */
export interface LabelColumnSummary {
  lines: ValueTableLine[];
  labelled: number;
  empty: number;
  excluded: number;
  unmatched: number;
}

/** The value table of a label column: distinct raw values with counts and readings, unmatched ones first. */
export function labelColumnSummary(
  cells: Iterable<JsonValue | undefined>,
  question: Question,
  spec: LabelColumn,
): LabelColumnSummary {
  const counts = new Map<string, { count: number; cell: JsonValue | undefined }>();
  let empty = 0;
  for (const cell of cells) {
    const raw = rawText(cell);
    if (raw.trim() === '') {
      empty++;
      continue;
    }
    const seen = counts.get(raw);
    if (seen) seen.count++;
    else counts.set(raw, { count: 1, cell });
  }
  const order = { unmatched: 0, excluded: 1, ok: 2, empty: 3 } as const;
  const lines = [...counts].map(([raw, { count, cell }]) => ({
    raw,
    count,
    reading: readLabel(cell, question, spec),
  }));
  lines.sort(
    (a, b) =>
      order[a.reading.kind] - order[b.reading.kind] || b.count - a.count || a.raw.localeCompare(b.raw),
  );
  const sum = (kind: LabelReading['kind']): number =>
    lines.filter((l) => l.reading.kind === kind).reduce((s, l) => s + l.count, 0);
  return { lines, labelled: sum('ok'), empty, excluded: sum('excluded'), unmatched: sum('unmatched') };
}

/** A label value as people read it: the choice label, "level 2: Angry", yes/no. */
export function labelText(value: LabelValue, question: Question | undefined): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' && question?.type === 'score')
    return `${value}: ${question.criteria[value] ?? '?'}`;
  return String(value);
}
