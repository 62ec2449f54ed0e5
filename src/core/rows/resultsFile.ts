// The results file of a headless run (`evaluate-workbench run --out results.jsonl`): a header line saying what was run,
// then one line per settled row in the rows screen's JSONL export shape, appended as each row settles. A row that is
// settled again later (a retry) gets a newer line, and the newest line wins. The command line resumes from this file,
// and the rows screen imports it, so both read it through this one module.
import { z } from 'zod';
import { EvaluateResponseSchema, JsonValueSchema, QuestionsSchema, UsageSchema } from '../../contract';
import type { JsonValue } from '../../contract';
import { AnnotationsSchema, LabelValueSchema } from '../labels';
import { RowMappingSchema } from './mapping';
import { PacingSchema } from './pacer';
import { ROW_STATUSES } from './records';
import type { RowOutcome, RowStatus } from './records';
import type { ResultRow } from './results';
import { exportJsonlRecord } from './exportJsonl';

export const RESULTS_FORMAT = 'evaluate-workbench/results';
/** 2: the header names the price the run was billed at; files of version 1 (no price) still read. */
export const RESULTS_VERSION = 2;

/** The first line: what was run, so a resume can refuse a file made by other questions, model or rows. */
export const ResultsHeaderSchema = z.object({
  format: z.literal(RESULTS_FORMAT),
  version: z.union([z.literal(1), z.literal(RESULTS_VERSION)]),
  createdAt: z.string(),
  /** The rows file as given on the command line (its base name) and its columns. */
  rowsFile: z.string(),
  columns: z.array(z.string()),
  targetId: z.string().min(1),
  model: z.string().min(1),
  questions: QuestionsSchema,
  mapping: RowMappingSchema,
  /** Columns mapped as human labels, by question (several: one per annotator): they never reach the state. */
  labels: z.record(z.string(), z.union([z.string(), z.array(z.string()).min(1)])).default({}),
  /** The pacing the run was started with, so the rows screen shows the run's own (absent in older files). */
  pacing: PacingSchema.optional(),
  /**
   * The target's price per million input tokens when the run started, what its rows were billed at (null: the target
   * names none). Absent in version 1 files: a report costs those at the published price and says so.
   */
  inputPrice: z.number().nonnegative().nullable().optional(),
  /** A cascade's next judge: the run sent only the rows the earlier file's judge abstained on for `question`. */
  escalatedFrom: z
    .object({ file: z.string(), question: z.string(), threshold: z.number().nullable() })
    .optional(),
  /**
   * The command line's `--shard index/count`: this file holds only the rows whose identity hashes to this shard. With
   * the records of the rows file and the rows this shard planned, so a merge can say what is missing.
   */
  shard: z
    .object({
      index: z.number().int().min(1),
      count: z.number().int().min(1),
      records: z.number().int().min(0),
      planned: z.number().int().min(0),
    })
    .optional(),
  /** A merge of shard files (`evaluate-workbench merge`): how many shards and which were merged. */
  merged: z
    .object({
      count: z.number().int().min(1),
      shards: z.array(z.number().int().min(1)),
      /** Rows the merged shards planned together. */
      planned: z.number().int().min(0),
    })
    .optional(),
});
export type ResultsHeader = z.infer<typeof ResultsHeaderSchema>;

const SETTLED_STATUSES = ROW_STATUSES.filter((s) => s !== 'pending' && s !== 'sending');

/** One row line as written by `resultLine` (the export's fields plus the record number and the answer's key). */
export const ResultLineSchema = z.object({
  row: z.number().int().min(1),
  row_id: z.string(),
  line: z.number().int().min(1),
  status: z.enum(SETTLED_STATUSES as [RowStatus, ...RowStatus[]]),
  model: z.string().nullable(),
  usage: UsageSchema.extend({ billed_input_tokens: z.number().nullable().optional() }).nullable(),
  latency_ms: z.number().nullable(),
  attempts: z.number().int().min(0),
  possibly_billed_attempts: z.number().int().min(0),
  answers: EvaluateResponseSchema.shape.answers.nullable(),
  reused_questions: z.array(z.string()).optional(),
  input: JsonValueSchema,
  /** The row's human labels by question, as the export writes them (absent in lines without any). */
  labels: z.record(z.string(), LabelValueSchema).optional(),
  /** Each annotator's label, by question then annotator, where several labelled a question. */
  annotations: AnnotationsSchema.optional(),
  answer_key: z.string().optional(),
  error: z
    .object({
      kind: z.string(),
      message: z.string(),
      status: z.number().int().nullable(),
      fields: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string() })),
    })
    .optional(),
});
export type ResultLine = z.infer<typeof ResultLineSchema>;

/** The header line's text (no newline). */
export const headerLine = (header: ResultsHeader): string => JSON.stringify(header);

/** A settled row's line (no newline). */
export function resultLine(row: ResultRow): string {
  const record = { row: row.number, ...exportJsonlRecord(row) };
  return JSON.stringify(row.outcome?.answerKey ? { ...record, answer_key: row.outcome.answerKey } : record);
}

/** A row read back: the export's row, with its outcome rebuilt from the line. */
export interface ReadRow extends ResultRow {
  outcome: RowOutcome;
}

export interface ReadResults {
  header: ResultsHeader;
  /** The newest line of each row, by record number, in record order. */
  rows: ReadRow[];
  /** Lines that could not be read (a line cut short by a killed process), by line of the results file. */
  unreadable: { line: number; reason: string }[];
}

export type ReadResultsOutcome = { ok: true; results: ReadResults } | { ok: false; message: string };

function rowOf(line: ResultLine, at: number): ReadRow {
  const outcome: RowOutcome = {
    status: line.status,
    at,
    attempts: line.attempts,
    possiblyBilledAttempts: line.possibly_billed_attempts,
    requeues: 0,
    ...(line.latency_ms !== null && { latencyMs: line.latency_ms }),
    ...(line.answer_key !== undefined && { answerKey: line.answer_key }),
    ...(line.reused_questions !== undefined && { reusedQuestions: line.reused_questions }),
    ...(line.model !== null && { model: line.model }),
    ...(line.usage &&
      typeof line.usage.billed_input_tokens === 'number' && { inputTokens: line.usage.billed_input_tokens }),
    ...(line.error && {
      error: {
        kind: line.error.kind,
        message: line.error.message,
        ...(line.error.status !== null && { status: line.error.status }),
        fieldErrors: line.error.fields,
        possiblyBilled: line.status === 'unknown',
      },
    }),
  };
  const { billed_input_tokens: _billed, ...usage } = line.usage ?? { input_tokens: 0 };
  return {
    number: line.row,
    line: line.line,
    id: line.row_id,
    data: line.input as JsonValue,
    outcome,
    ...(line.labels && Object.keys(line.labels).length > 0 && { labels: line.labels }),
    ...(line.annotations && Object.keys(line.annotations).length > 0 && { annotations: line.annotations }),
    ...(line.answers &&
      line.model !== null && { response: { model: line.model, answers: line.answers, usage } }),
  };
}

const NOT_RESULTS = `This is not a results file of Evaluate Workbench: its first line should be a "${RESULTS_FORMAT}" header.`;

/** The header of a results file from its first line, or the sentence saying it is not one. */
export function readHeaderLine(
  first: string,
): { ok: true; header: ResultsHeader } | { ok: false; message: string } {
  try {
    const parsed = ResultsHeaderSchema.safeParse(JSON.parse(first.trim()));
    if (parsed.success) return { ok: true, header: parsed.data };
  } catch {
    // Not JSON: the same sentence as a foreign header.
  }
  return { ok: false, message: NOT_RESULTS };
}

/** One row line of a results file: its row, or why it cannot be read (a line cut short by a killed process). */
export function readRowLine(
  raw: string,
  now = Date.now(),
): { ok: true; row: ReadRow } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, reason: 'The line is not complete JSON (was the run stopped mid-write?).' };
  }
  const parsed = ResultLineSchema.safeParse(value);
  if (!parsed.success)
    return { ok: false, reason: `The line is not a row result (${parsed.error.issues[0]?.message}).` };
  return { ok: true, row: rowOf(parsed.data, now) };
}

/** Reads a results file's text; a missing or foreign header is refused in one sentence, a bad row line is listed. */
export function readResults(text: string, now = Date.now()): ReadResultsOutcome {
  const lines = text.split('\n');
  const head = readHeaderLine(lines[0] ?? '');
  if (!head.ok) return head;
  const byRow = new Map<number, ReadRow>();
  const unreadable: ReadResults['unreadable'] = [];
  for (let i = 1; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    const read = readRowLine(raw, now);
    if (read.ok) byRow.set(read.row.number, read.row);
    else unreadable.push({ line: i + 1, reason: read.reason });
  }
  const rows = [...byRow.values()].sort((a, b) => a.number - b.number);
  return { ok: true, results: { header: head.header, rows, unreadable } };
}

/** Why a results file cannot be resumed with this run's header, or null when it can. */
export function resumeMismatch(saved: ResultsHeader, next: ResultsHeader): string | null {
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  const differs: string[] = [];
  if (saved.model !== next.model) differs.push(`the model (${saved.model}, now ${next.model})`);
  if (saved.targetId !== next.targetId) differs.push(`the target (${saved.targetId}, now ${next.targetId})`);
  if (!same(saved.questions, next.questions)) differs.push('the questions');
  if (!same(saved.mapping, next.mapping)) differs.push('the mapping of columns to the state');
  if (saved.rowsFile !== next.rowsFile)
    differs.push(`the rows file (${saved.rowsFile}, now ${next.rowsFile})`);
  const shard = (h: ResultsHeader): string =>
    h.shard ? `shard ${h.shard.index}/${h.shard.count}` : 'no shard';
  if (saved.shard?.index !== next.shard?.index || saved.shard?.count !== next.shard?.count)
    differs.push(`the shard (${shard(saved)}, now ${shard(next)})`);
  if (differs.length === 0) return null;
  return `The results file was made with other settings: ${differs.join(', ')}. Choose another --out, or delete the file to start over.`;
}
