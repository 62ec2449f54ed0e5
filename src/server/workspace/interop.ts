// A queue's labels to and from the formats teams already use: the workbench's CSV (`label.<question>.<annotator>`
// columns, as src/core/rows writes them), Label Studio's JSON export (annotations[].completed_by is the annotator) and
// Argilla records (responses per user). Imported labels keep who gave them. Values are read by src/core/labels.
import Papa from 'papaparse';
import { z } from 'zod';
import { JsonValueSchema } from '../../contract';
import type { JsonValue, Question, Questions } from '../../contract';
import type { InteropFormat, WorkspaceLabelValue } from '../../contract/workspace';
import { readLabel } from '../../core/labels';
import type { LabelColumn } from '../../core/labels';
import { majorityOf } from '../../core/labels';

export interface ExportRow {
  idx: number;
  key: string;
  state: JsonValue;
  judge: Record<string, { label: WorkspaceLabelValue; confidence: number | null }> | null;
}

export interface ExportLabel {
  idx: number;
  question: string;
  name: string;
  value: WorkspaceLabelValue;
}

/** A label read from a file: the row's key, the question, who gave it and the value. */
export interface ImportedLabel {
  key: string;
  question: string;
  annotator: string;
  value: WorkspaceLabelValue;
}

// A cell that starts like a formula is written as text, as the rows export does.
const FORMULA = /^[=+\-@\t\r](?![\d.]+$)/;
const stateText = (state: JsonValue): string => (typeof state === 'string' ? state : JSON.stringify(state));
const cellOf = (v: WorkspaceLabelValue | undefined): string | number | null =>
  v === undefined ? null : typeof v === 'boolean' ? (v ? 'yes' : 'no') : v;

/** Labels of each row by question, then by annotator, in the order given. */
function byRow(labels: readonly ExportLabel[]): Map<number, Map<string, Map<string, WorkspaceLabelValue>>> {
  const out = new Map<number, Map<string, Map<string, WorkspaceLabelValue>>>();
  for (const l of labels) {
    const row = out.get(l.idx) ?? out.set(l.idx, new Map()).get(l.idx)!;
    (row.get(l.question) ?? row.set(l.question, new Map()).get(l.question)!).set(l.name, l.value);
  }
  return out;
}

function exportCsv(rows: readonly ExportRow[], labels: readonly ExportLabel[], questions: Questions): string {
  const names = Object.keys(questions);
  const annotated: [string, string][] = [];
  for (const q of names)
    for (const name of new Set(labels.filter((l) => l.question === q).map((l) => l.name)))
      annotated.push([q, name]);
  const grouped = byRow(labels);
  const header = [
    'id',
    'state',
    ...names.map((q) => `label.${q}`),
    ...annotated.map(([q, n]) => `label.${q}.${n}`),
    ...names.map((q) => `judge.${q}`),
  ];
  const body = rows.map((r) => {
    const row = grouped.get(r.idx);
    return [
      r.key,
      stateText(r.state),
      ...names.map((q) => cellOf(majorityOf([...(row?.get(q)?.values() ?? [])]))),
      ...annotated.map(([q, n]) => cellOf(row?.get(q)?.get(n))),
      ...names.map((q) => cellOf(r.judge?.[q]?.label)),
    ];
  });
  return `${Papa.unparse([header, ...body], { escapeFormulae: FORMULA, newline: '\r\n' })}\r\n`;
}

/** Label Studio's result of one label: choices for choice and yes/no questions, a 1-based rating for scores. */
function studioResult(question: string, q: Question, value: WorkspaceLabelValue): JsonValue {
  return q.type === 'score'
    ? { from_name: question, to_name: 'state', type: 'rating', value: { rating: Number(value) + 1 } }
    : { from_name: question, to_name: 'state', type: 'choices', value: { choices: [String(cellOf(value))] } };
}

function exportLabelStudio(
  rows: readonly ExportRow[],
  labels: readonly ExportLabel[],
  questions: Questions,
): string {
  const grouped = byRow(labels);
  const people = [...new Set(labels.map((l) => l.name))];
  const tasks = rows.map((r) => {
    const byAnnotator = new Map<string, JsonValue[]>();
    for (const [question, given] of grouped.get(r.idx) ?? [])
      for (const [name, value] of given)
        (byAnnotator.get(name) ?? byAnnotator.set(name, []).get(name)!).push(
          studioResult(question, questions[question]!, value),
        );
    const judged = Object.entries(r.judge ?? {}).filter(([q]) => questions[q]);
    return {
      id: r.idx + 1,
      data: { key: r.key, state: stateText(r.state) },
      annotations: [...byAnnotator].map(([name, result], i) => ({
        id: r.idx * 1000 + i + 1,
        completed_by: { id: people.indexOf(name) + 1, email: '', first_name: name },
        result,
      })),
      predictions: judged.length
        ? [
            {
              model_version: 'judge',
              result: judged.map(([q, j]) => studioResult(q, questions[q]!, j.label)),
            },
          ]
        : [],
    };
  });
  return JSON.stringify(tasks, null, 1);
}

function exportArgilla(
  rows: readonly ExportRow[],
  labels: readonly ExportLabel[],
  questions: Questions,
): string {
  const grouped = byRow(labels);
  const records = rows.map((r) => ({
    id: r.key,
    fields: { state: stateText(r.state) },
    responses: Object.fromEntries(
      [...(grouped.get(r.idx) ?? [])].map(([q, given]) => [
        q,
        [...given].map(([name, value]) => ({ user_id: name, value: cellOf(value) })),
      ]),
    ),
    suggestions: Object.entries(r.judge ?? {})
      .filter(([q]) => questions[q])
      .map(([q, j]) => ({ question_name: q, value: cellOf(j.label), score: j.confidence, agent: 'judge' })),
  }));
  return JSON.stringify(records, null, 1);
}

export function exportLabels(
  format: InteropFormat,
  rows: readonly ExportRow[],
  labels: readonly ExportLabel[],
  questions: Questions,
): { body: string; type: string; extension: string } {
  if (format === 'csv')
    return { body: exportCsv(rows, labels, questions), type: 'text/csv', extension: 'csv' };
  if (format === 'labelstudio')
    return { body: exportLabelStudio(rows, labels, questions), type: 'application/json', extension: 'json' };
  return { body: exportArgilla(rows, labels, questions), type: 'application/json', extension: 'json' };
}

const spec = (column: string, question: string, levelBase: 0 | 1 = 0): LabelColumn => ({
  column,
  question,
  levelBase,
  values: {},
});

/** One value read as a label of the question, or a problem sentence. */
function read(
  raw: JsonValue | undefined,
  question: Question | undefined,
  name: string,
  where: string,
  levelBase: 0 | 1 = 0,
): { value: WorkspaceLabelValue } | { problem: string } {
  if (!question) return { problem: `${where}: "${name}" is not a question of this queue.` };
  const reading = readLabel(raw, question, spec(name, name, levelBase));
  return reading.kind === 'ok'
    ? { value: reading.value }
    : { problem: `${where}: ${JSON.stringify(raw ?? null)} is not a label of "${name}".` };
}

function importCsv(text: string, questions: Questions): { labels: ImportedLabel[]; problems: string[] } {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  const columns = parsed.meta.fields ?? [];
  const problems: string[] = parsed.errors.slice(0, 5).map((e) => `Line ${(e.row ?? 0) + 2}: ${e.message}`);
  if (!columns.includes('id')) return { labels: [], problems: [...problems, 'The CSV has no "id" column.'] };
  // label.<question>.<annotator>: the longest question name that fits wins (a question's name may hold a dot).
  const names = Object.keys(questions).sort((a, b) => b.length - a.length);
  const labelColumns = columns.flatMap((c) => {
    const q = names.find((n) => c.startsWith(`label.${n}.`) && c.length > `label.${n}.`.length);
    return q ? [{ column: c, question: q, annotator: c.slice(`label.${q}.`.length) }] : [];
  });
  if (!labelColumns.length)
    problems.push('The CSV has no label.<question>.<annotator> column for a question of this queue.');
  const labels: ImportedLabel[] = [];
  parsed.data.forEach((row, i) => {
    for (const c of labelColumns) {
      const cell = row[c.column];
      if (cell === undefined || cell.trim() === '') continue;
      const got = read(cell, questions[c.question], c.question, `Line ${i + 2}, ${c.column}`);
      if ('problem' in got) problems.push(got.problem);
      else labels.push({ key: row.id ?? '', question: c.question, annotator: c.annotator, value: got.value });
    }
  });
  return { labels, problems };
}

const StudioTaskSchema = z.array(
  z.looseObject({
    data: z.looseObject({ key: z.union([z.string(), z.number()]) }),
    annotations: z
      .array(
        z.looseObject({
          completed_by: z.union([
            z.number(),
            z.string(),
            z.looseObject({
              id: z.number().optional(),
              email: z.string().optional(),
              first_name: z.string().optional(),
              username: z.string().optional(),
            }),
          ]),
          was_cancelled: z.boolean().optional(),
          result: z.array(
            z.looseObject({
              from_name: z.string(),
              type: z.string(),
              value: z.looseObject({
                choices: z.array(z.string()).optional(),
                rating: z.number().optional(),
              }),
            }),
          ),
        }),
      )
      .default([]),
  }),
);

const annotatorOfStudio = (
  by: z.infer<typeof StudioTaskSchema>[number]['annotations'][number]['completed_by'],
) =>
  typeof by === 'object'
    ? by.first_name || by.email || by.username || `user ${by.id ?? '?'}`
    : typeof by === 'number'
      ? `user ${by}`
      : by;

function importLabelStudio(
  json: unknown,
  questions: Questions,
): { labels: ImportedLabel[]; problems: string[] } {
  const parsed = StudioTaskSchema.safeParse(json);
  if (!parsed.success)
    return { labels: [], problems: ['This is not a Label Studio JSON export (a list of tasks).'] };
  const labels: ImportedLabel[] = [];
  const problems: string[] = [];
  parsed.data.forEach((task, t) => {
    for (const a of task.annotations) {
      if (a.was_cancelled) continue;
      for (const r of a.result) {
        const where = `Task ${t + 1}`;
        const raw = r.type === 'rating' ? r.value.rating : r.value.choices?.[0];
        const got = read(raw, questions[r.from_name], r.from_name, where, r.type === 'rating' ? 1 : 0);
        if ('problem' in got) problems.push(got.problem);
        else
          labels.push({
            key: String(task.data.key),
            question: r.from_name,
            annotator: annotatorOfStudio(a.completed_by),
            value: got.value,
          });
      }
    }
  });
  return { labels, problems };
}

const ArgillaRecordsSchema = z.array(
  z.looseObject({
    id: z.union([z.string(), z.number()]),
    responses: z
      .record(
        z.string(),
        z.array(
          z.looseObject({ user_id: z.union([z.string(), z.number()]), value: JsonValueSchema.optional() }),
        ),
      )
      .default({}),
  }),
);

function importArgilla(json: unknown, questions: Questions): { labels: ImportedLabel[]; problems: string[] } {
  const parsed = ArgillaRecordsSchema.safeParse(json);
  if (!parsed.success)
    return { labels: [], problems: ['These are not Argilla records (a list with responses).'] };
  const labels: ImportedLabel[] = [];
  const problems: string[] = [];
  parsed.data.forEach((record, i) => {
    for (const [q, given] of Object.entries(record.responses))
      for (const response of given) {
        const where = `Record ${i + 1}`;
        const got = read(response.value, questions[q], q, where);
        if ('problem' in got) problems.push(got.problem);
        else
          labels.push({
            key: String(record.id),
            question: q,
            annotator: String(response.user_id),
            value: got.value,
          });
      }
  });
  return { labels, problems };
}

/** Reads a file of labels in the format named; what it cannot read is a problem sentence each, never a throw. */
export function importLabels(
  format: InteropFormat,
  text: string,
  questions: Questions,
): { labels: ImportedLabel[]; problems: string[] } {
  if (format === 'csv') return importCsv(text, questions);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { labels: [], problems: ['The file is not JSON.'] };
  }
  return format === 'labelstudio' ? importLabelStudio(json, questions) : importArgilla(json, questions);
}
