// Results of a run as a table: answers flattened to columns, filters, per-question aggregates, CSV and JSONL export.
import Papa from 'papaparse';
import type { Answer, EvaluateResponse, JsonValue, Question, Questions } from '../../contract';
import { isRefusal } from '../../contract';
import type { RowOutcome, RowStatus } from './records';
import type { Annotations, LabelValue } from '../labels';
import { predictedClass, validLabel } from '../labels';
import type { LabelProbabilities } from './labelProbabilities';

/** One row of the results table. */
export interface ResultRow {
  number: number;
  line: number;
  id: string;
  data: JsonValue;
  outcome?: RowOutcome;
  response?: EvaluateResponse;
  /** Human labels by question (from the file's label columns or the labelling view). */
  labels?: Record<string, LabelValue>;
  /** Each annotator's label, by question then annotator, where several labelled a question. */
  annotations?: Annotations;
}

export type CellValue = string | number | null;

/** A column of the results that comes from one question's answer. */
export interface AnswerColumn {
  /** "department.label": the question name, a dot, the field. */
  key: string;
  question: string;
  field: 'label' | 'p' | 'score' | 'level' | 'yes' | 'confidence';
  numeric: boolean;
  /** Header text for people. */
  title: string;
}

/** The answer columns of a set of questions, in question order. */
export function answerColumns(questions: Questions): AnswerColumn[] {
  const columns: AnswerColumn[] = [];
  const add = (question: string, field: AnswerColumn['field'], numeric: boolean, title: string): void => {
    columns.push({ key: `${question}.${field}`, question, field, numeric, title });
  };
  for (const [name, q] of Object.entries(questions)) {
    if (q.type === 'choice') {
      add(name, 'label', false, `${name}: label`);
      add(name, 'p', true, `${name}: probability`);
      add(name, 'confidence', true, `${name}: confidence`);
    } else if (q.type === 'score') {
      add(name, 'score', true, `${name}: expected score`);
      add(name, 'level', true, `${name}: most probable level`);
      add(name, 'confidence', true, `${name}: confidence`);
    } else {
      add(name, 'yes', true, `${name}: P(yes)`);
    }
  }
  return columns;
}

/** The most probable level of a score answer (ties: the lower level). */
function topLevel(probabilities: Record<string, number>): number | null {
  let best: number | null = null;
  let bestP = -1;
  for (const [k, p] of Object.entries(probabilities)) {
    const level = Number(k);
    if (p > bestP || (p === bestP && best !== null && level < best)) {
      best = level;
      bestP = p;
    }
  }
  return best;
}

/** The value of one answer column for one answer, or null when the answer lacks it. */
export function answerCell(answer: Answer | undefined, field: AnswerColumn['field']): CellValue {
  if (!answer) return null;
  switch (answer.type) {
    case 'choice':
      if (field === 'label') return answer.choice;
      if (field === 'p') return answer.probabilities[answer.choice] ?? null;
      if (field === 'confidence') return answer.confidence;
      return null;
    case 'score':
      if (field === 'score') return answer.score;
      if (field === 'level') return topLevel(answer.probabilities);
      if (field === 'confidence') return answer.confidence;
      return null;
    case 'noul':
      return field === 'yes' ? answer.noul : null;
    case 'refusal':
      // A refused question has no value: an empty cell, never a number.
      return null;
  }
}

export const cellOf = (row: ResultRow, column: AnswerColumn): CellValue =>
  answerCell(row.response?.answers[column.question], column.field);

/** The row's status as the table shows it: pending when the run has not reached it. */
export const statusOf = (row: ResultRow): RowStatus => row.outcome?.status ?? 'pending';

const ANSWERED: ReadonlySet<RowStatus> = new Set(['done', 'reused']);
const PROBLEM: ReadonlySet<RowStatus> = new Set(['invalid', 'failed', 'unknown']);

export type StatusFilter = 'all' | 'answered' | 'problems' | 'invalid' | 'failed' | 'unknown' | 'pending';

/** A threshold on a numeric answer column, e.g. department.confidence < 0.5. */
export interface Threshold {
  column: string;
  op: '<' | '<=' | '>' | '>=';
  value: number;
}

export interface ResultFilter {
  status: StatusFilter;
  /** Rows where some choice or score answer has a confidence below this. */
  lowConfidenceBelow: number | null;
  thresholds: Threshold[];
  /** Case-insensitive text found in the row id, the input or the error message. */
  text: string;
  /** Rows by one question's human label and the judge's answer (a confusion cell opened from the alignment screen). */
  agreement?: AgreementFilter | null;
}

/**
 * One question's human label and the judge's answer, each a value of the question (a choice label, a 0-based level,
 * yes/no) or null for any; `relation` keeps the rows whose answer agrees with (or differs from) their label. The answer
 * is read as the confusion matrix reads it, under the same conventions.
 */
export interface AgreementFilter {
  question: string;
  label: LabelValue | null;
  answer: LabelValue | null;
  relation?: 'agree' | 'disagree';
  scorePrediction: 'mostProbable' | 'expectedRounded';
  /** P(yes) at or above this answers yes (noul). */
  threshold: number;
}

/** The value of a question a class index stands for: the choice label, the level, yes/no. */
export const classValue = (question: Question, index: number): LabelValue =>
  question.type === 'choice'
    ? Object.keys(question.criteria)[index]!
    : question.type === 'score'
      ? index
      : index === 1;

/** True when a row's human label and the judge's answer match an agreement filter. */
export function agreementMatches(row: ResultRow, filter: AgreementFilter, question: Question): boolean {
  const label = row.labels?.[filter.question];
  if (filter.label !== null && label !== filter.label) return false;
  if (filter.answer === null && !filter.relation) return true;
  const at = predictedClass(
    row.response?.answers[filter.question],
    question,
    filter.scorePrediction,
    filter.threshold,
  );
  if (at === null) return false;
  const answer = classValue(question, at);
  if (filter.answer !== null && answer !== filter.answer) return false;
  if (filter.relation)
    return (
      label !== undefined &&
      validLabel(label, question) &&
      (answer === label) === (filter.relation === 'agree')
    );
  return true;
}

export const NO_FILTER: ResultFilter = { status: 'all', lowConfidenceBelow: null, thresholds: [], text: '' };

const matchesStatus = (status: RowStatus, filter: StatusFilter): boolean => {
  switch (filter) {
    case 'all':
      return true;
    case 'answered':
      return ANSWERED.has(status);
    case 'problems':
      return PROBLEM.has(status);
    case 'pending':
      return status === 'pending' || status === 'sending';
    default:
      return status === filter;
  }
};

const compare = (x: number, op: Threshold['op'], v: number): boolean =>
  op === '<' ? x < v : op === '<=' ? x <= v : op === '>' ? x > v : x >= v;

function lowestConfidence(response: EvaluateResponse | undefined): number | null {
  if (!response) return null;
  let low: number | null = null;
  for (const a of Object.values(response.answers)) {
    if ((a.type === 'choice' || a.type === 'score') && (low === null || a.confidence < low))
      low = a.confidence;
  }
  return low;
}

/** True when a row passes every part of the filter (the agreement part needs the run's questions). */
export function rowMatches(
  row: ResultRow,
  filter: ResultFilter,
  columns: readonly AnswerColumn[],
  questions?: Questions,
): boolean {
  if (!matchesStatus(statusOf(row), filter.status)) return false;
  const agreement = filter.agreement;
  const asked = agreement ? questions?.[agreement.question] : undefined;
  if (agreement && asked && !agreementMatches(row, agreement, asked)) return false;
  if (filter.lowConfidenceBelow !== null) {
    const low = lowestConfidence(row.response);
    if (low === null || low >= filter.lowConfidenceBelow) return false;
  }
  for (const t of filter.thresholds) {
    const column = columns.find((c) => c.key === t.column);
    if (!column) continue;
    const v = cellOf(row, column);
    if (typeof v !== 'number' || !compare(v, t.op, t.value)) return false;
  }
  const text = filter.text.trim().toLowerCase();
  if (text !== '') {
    const hay = `${row.id}\n${typeof row.data === 'string' ? row.data : JSON.stringify(row.data)}\n${row.outcome?.error?.message ?? ''}`;
    if (!hay.toLowerCase().includes(text)) return false;
  }
  return true;
}

/** Indices of the rows that pass the filter, in order. */
export function filterRows(
  rows: readonly ResultRow[],
  filter: ResultFilter,
  columns: readonly AnswerColumn[],
  questions?: Questions,
): number[] {
  const out: number[] = [];
  for (let i = 0; i < rows.length; i++) if (rowMatches(rows[i]!, filter, columns, questions)) out.push(i);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------------
// Aggregates per question

export interface Bin {
  x0: number;
  x1: number;
  count: number;
}

/** Counts of values in `bins` equal bins over [min, max]; the max itself falls in the last bin. */
export function histogram(values: Iterable<number>, min: number, max: number, bins: number): Bin[] {
  const width = (max - min) / bins;
  const out: Bin[] = Array.from({ length: bins }, (_, i) => ({
    x0: round6(min + i * width),
    x1: round6(i === bins - 1 ? max : min + (i + 1) * width),
    count: 0,
  }));
  for (const v of values) {
    if (!Number.isFinite(v) || v < min || v > max) continue;
    const i = Math.min(bins - 1, Math.floor((v - min) / width + 1e-9));
    out[i]!.count++;
  }
  return out;
}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** `refused`: rows whose answer to the question is a refusal, counted apart from the answered ones. */
export type QuestionAggregate = { refused: number } & (
  | {
      question: string;
      type: 'choice';
      answered: number;
      counts: { label: string; count: number }[];
      confidence: Bin[];
    }
  | { question: string; type: 'score'; answered: number; levels: number; scores: Bin[]; confidence: Bin[] }
  | { question: string; type: 'noul'; answered: number; yes: Bin[] }
);

/** Bins for confidence and probability of yes: tenths of [0, 1]. */
const UNIT_BINS = 10;

/** One aggregate per question over the answered rows: choice counts, score and P(yes) histograms, confidence. */
export function aggregate(rows: Iterable<ResultRow>, questions: Questions): QuestionAggregate[] {
  const names = Object.keys(questions);
  const answers = new Map<string, Answer[]>(names.map((n) => [n, []]));
  for (const row of rows) {
    if (!row.response) continue;
    for (const n of names) {
      const a = row.response.answers[n];
      if (a) answers.get(n)!.push(a);
    }
  }
  return names.map((name) => aggregateOne(name, questions[name]!, answers.get(name)!));
}

function aggregateOne(name: string, question: Question, answers: Answer[]): QuestionAggregate {
  const refused = answers.filter(isRefusal).length;
  if (question.type === 'choice') {
    const counts = new Map<string, number>(Object.keys(question.criteria).map((l) => [l, 0]));
    const conf: number[] = [];
    for (const a of answers) {
      if (a.type !== 'choice') continue;
      counts.set(a.choice, (counts.get(a.choice) ?? 0) + 1);
      conf.push(a.confidence);
    }
    return {
      question: name,
      type: 'choice',
      refused,
      answered: conf.length,
      counts: [...counts].map(([label, count]) => ({ label, count })),
      confidence: histogram(conf, 0, 1, UNIT_BINS),
    };
  }
  if (question.type === 'score') {
    const levels = question.criteria.length;
    const scores: number[] = [];
    const conf: number[] = [];
    for (const a of answers) {
      if (a.type !== 'score') continue;
      scores.push(a.score);
      conf.push(a.confidence);
    }
    // Half-level bins: fine enough to show where expected scores fall between levels.
    return {
      question: name,
      type: 'score',
      refused,
      answered: scores.length,
      levels,
      scores: histogram(scores, 0, levels - 1, Math.max(1, (levels - 1) * 2)),
      confidence: histogram(conf, 0, 1, UNIT_BINS),
    };
  }
  const yes = answers.flatMap((a) => (a.type === 'noul' ? [a.noul] : []));
  return {
    question: name,
    type: 'noul',
    refused,
    answered: yes.length,
    yes: histogram(yes, 0, 1, UNIT_BINS),
  };
}

// ---------------------------------------------------------------------------------------------------------------------
// Export

/** Columns of the CSV export before the answers and the input. */
export const EXPORT_META_COLUMNS = [
  'row_id',
  'line',
  'status',
  'error',
  'model',
  'input_tokens',
  'latency_ms',
  'attempts',
  'possibly_billed_attempts',
] as const;

/** Input columns are exported as `input.<name>` so they never collide with the answers. */
export const inputColumnName = (name: string): string => `input.${name}`;

function metaCells(row: ResultRow): CellValue[] {
  const o = row.outcome;
  return [
    row.id,
    row.line,
    statusOf(row),
    o?.error?.message ?? null,
    o?.model ?? row.response?.model ?? null,
    o?.inputTokens ?? null,
    o?.latencyMs === undefined ? null : Math.round(o.latencyMs),
    o?.attempts ?? 0,
    o?.possiblyBilledAttempts ?? 0,
  ];
}

const inputCell = (data: JsonValue, column: string): CellValue => {
  const value =
    data !== null && typeof data === 'object' && !Array.isArray(data)
      ? data[column]
      : column === 'value'
        ? data
        : undefined;
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number') return value;
  return JSON.stringify(value);
};

/** Input columns to export: the file's columns, or `value` for rows that are not objects. */
export function exportInputColumns(rows: readonly ResultRow[], columns: readonly string[]): string[] {
  if (columns.length > 0) return [...columns];
  return rows.some((r) => r.data === null || typeof r.data !== 'object' || Array.isArray(r.data))
    ? ['value']
    : [];
}

// A cell that starts like a spreadsheet formula is prefixed with ' so opening the file cannot run it; plain numbers
// such as -5 are left alone.
const FORMULA = /^[=+\-@\t\r](?![\d.]+$)/;

/** A line of the file that did not become a sent row: malformed, empty, too large, unmappable. */
export interface LeftOutLine {
  line: number;
  kind: string;
  reason: string;
}

/** The status an export gives a line that was never sent. */
export const LEFT_OUT_STATUS = 'left_out';

/**
 * The lines of a run's file that never became a sent row, from the run's issues: those it skipped (a warning such as
 * a repeated id still runs). Two reasons for one line become one line, so the export keeps one line per input line.
 */
export function leftOutLines(
  issues: readonly { line: number; kind: string; severity: 'skip' | 'warn'; reason: string }[],
): LeftOutLine[] {
  const byLineNo = new Map<number, LeftOutLine>();
  for (const issue of issues) {
    if (issue.severity !== 'skip') continue;
    const seen = byLineNo.get(issue.line);
    if (seen) seen.reason = `${seen.reason} ${issue.reason}`;
    else byLineNo.set(issue.line, { line: issue.line, kind: issue.kind, reason: issue.reason });
  }
  return [...byLineNo.values()].sort((a, b) => a.line - b.line);
}

/** Rows and left-out lines in the order of the file's lines (a row before a left-out line that shares its line). */
export function* byLine(
  rows: readonly ResultRow[],
  leftOut: readonly LeftOutLine[],
): Generator<{ row: ResultRow } | { left: LeftOutLine }> {
  const lines = [...leftOut].sort((a, b) => a.line - b.line);
  let i = 0;
  for (const row of rows) {
    while (i < lines.length && lines[i]!.line < row.line) yield { left: lines[i++]! };
    yield { row };
  }
  while (i < lines.length) yield { left: lines[i++]! };
}

/** A human label as the CSV writes it: the label, the level number, or yes/no. */
const labelCell = (v: LabelValue | undefined): CellValue =>
  v === undefined ? null : typeof v === 'boolean' ? (v ? 'yes' : 'no') : v;

/**
 * The CSV export, a piece of about `chunkRows` rows at a time, so a caller can yield between pieces. With `leftOut`,
 * the lines that were never sent come too, each with its line and reason, so the export joins back to the source.
 */
export function* csvChunks(
  rows: readonly ResultRow[],
  questions: Questions,
  inputColumns: readonly string[],
  chunkRows = 2000,
  leftOut: readonly LeftOutLine[] = [],
  labelProbabilities: LabelProbabilities = {},
): Generator<string> {
  const columns = answerColumns(questions);
  // Each label's probability of having been asked, as `label_probability.<question>`, for questions labelled in
  // active order: weighting each label by its inverse gives back the page's estimate.
  const weighed = Object.keys(labelProbabilities);
  // Human labels as `label.<question>`, only for questions some row is labelled on.
  const labelled = Object.keys(questions).filter((q) => rows.some((r) => r.labels?.[q] !== undefined));
  // Each annotator's label as `label.<question>.<annotator>`, after the majority, where several labelled.
  const annotated: [string, string][] = [];
  for (const q of labelled) {
    const names = new Set<string>();
    for (const r of rows) for (const name of Object.keys(r.annotations?.[q] ?? {})) names.add(name);
    for (const name of names) annotated.push([q, name]);
  }
  const header = [
    ...EXPORT_META_COLUMNS,
    ...columns.map((c) => c.key),
    ...labelled.map((q) => `label.${q}`),
    ...annotated.map(([q, name]) => `label.${q}.${name}`),
    ...weighed.map((q) => `label_probability.${q}`),
    ...inputColumns.map(inputColumnName),
  ];
  const config = { escapeFormulae: FORMULA, newline: '\r\n' };
  yield `${Papa.unparse([header], config)}\r\n`;
  const blank = (n: number): null[] => new Array<null>(n).fill(null);
  let chunk: CellValue[][] = [];
  for (const item of byLine(rows, leftOut)) {
    chunk.push(
      'row' in item
        ? [
            ...metaCells(item.row),
            ...columns.map((c) => cellOf(item.row, c)),
            ...labelled.map((q) => labelCell(item.row.labels?.[q])),
            ...annotated.map(([q, name]) => labelCell(item.row.annotations?.[q]?.[name])),
            ...weighed.map((q) => labelProbabilities[q]!.get(item.row.number) ?? null),
            ...inputColumns.map((c) => inputCell(item.row.data, c)),
          ]
        : [
            null,
            item.left.line,
            LEFT_OUT_STATUS,
            item.left.reason,
            ...blank(
              EXPORT_META_COLUMNS.length -
                4 +
                columns.length +
                labelled.length +
                annotated.length +
                weighed.length +
                inputColumns.length,
            ),
          ],
    );
    if (chunk.length >= chunkRows) {
      yield `${Papa.unparse(chunk, config)}\r\n`;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield `${Papa.unparse(chunk, config)}\r\n`;
}

/** The whole CSV export as pieces (a Blob takes the array as is). */
export const exportCsv = (
  rows: readonly ResultRow[],
  questions: Questions,
  inputColumns: readonly string[],
  chunkRows = 2000,
  leftOut: readonly LeftOutLine[] = [],
): string[] => [...csvChunks(rows, questions, inputColumns, chunkRows, leftOut)];
