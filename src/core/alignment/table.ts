// A run's labelled rows as columns of numbers, one set per question: what the alignment figures read, and what the
// page sends its worker. Typed arrays are copied between threads as blocks of memory, where 100,000 row
// objects took seconds to clone; and every figure then is a pass over numbers.
import type { Answer, Question, Questions } from '../../contract';
import { validLabel } from '../labels/values';
import { classesOf, writeDistribution, yesProbability } from '../labels/prediction';
import type { AlignRow, LabelValue } from './types';

/** The label column's marks for a row without a label, and one whose label the question cannot take. */
export const NO_LABEL = -1;
export const INVALID_LABEL = -2;
/** The answer column's mark (in a row's first place) for a question the judge refused: never a probability. */
export const REFUSED = -1;

/** One question's columns over every row of the run. */
export interface QuestionColumns {
  /** The class index of each row's label (noul: 1 yes, 0 no), or NO_LABEL / INVALID_LABEL. */
  label: Int32Array;
  /**
   * The answer's probabilities, `width` per row in the question's class order, renormalised to sum to 1 (noul: P(yes)
   * alone, clamped to [0, 1]); NaN in the row's first place when it has no answer of the question's type, REFUSED
   * when the judge refused it (counted apart, never as a mistake).
   */
  p: Float64Array;
  width: number;
  /**
   * Where several annotators labelled the question: their names (label columns) and each one's label per row,
   * row-major (`labels[i * names.length + a]`), NO_LABEL where they gave none; `label` above is their majority.
   */
  raters?: { names: string[]; labels: Int32Array };
}

/**
 * Row ids packed as one text and where each ends: a million ids as separate strings held about 40 MB of heap, packed
 * they take 12, and the text crosses to a worker as one block.
 */
export class RowIds {
  constructor(
    readonly text: string,
    readonly ends: Uint32Array,
  ) {}

  static of(ids: readonly string[]): RowIds {
    const ends = new Uint32Array(ids.length);
    let end = 0;
    ids.forEach((id, i) => (ends[i] = end += id.length));
    return new RowIds(ids.join(''), ends);
  }

  get length(): number {
    return this.ends.length;
  }

  /** The id of the row at position i. */
  at(i: number): string {
    return this.text.slice(i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }

  /** Every id, in row order. */
  toArray(): string[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }

  /** Each id's position (the first, should one repeat), for pairing rows of two tables by id. */
  positions(): Map<string, number> {
    const at = new Map<string, number>();
    for (let i = 0; i < this.length; i++) {
      const id = this.at(i);
      if (!at.has(id)) at.set(id, i);
    }
    return at;
  }
}

/** Every row of a run, by position: its id, and per question its label and answer. */
export interface AlignTable {
  ids: RowIds;
  /** Rows with at least one answer. */
  answered: number;
  columns: Record<string, QuestionColumns>;
}

/** The class index of a label, or INVALID_LABEL when the question cannot take it. */
export function labelIndex(label: LabelValue, question: Question, classes: readonly string[]): number {
  if (!validLabel(label, question)) return INVALID_LABEL;
  if (question.type === 'choice') return classes.indexOf(label as string);
  if (question.type === 'score') return label as number;
  return label === true ? 1 : 0;
}

/** The annotators of each question that several labelled, in the order the rows first name them. */
export function annotatorsOfRows(rows: readonly AlignRow[]): Record<string, string[]> {
  const out: Record<string, Set<string>> = {};
  for (const row of rows)
    for (const [question, byAnnotator] of Object.entries(row.annotations ?? {}))
      for (const name of Object.keys(byAnnotator)) (out[question] ??= new Set()).add(name);
  return Object.fromEntries(Object.entries(out).map(([q, names]) => [q, [...names]]));
}

/** Ids joined into one text per this many rows while a table is written. */
const ID_CHUNK = 4096;

/** One question's columns, and what labels are read against. */
interface ColumnSetup {
  name: string;
  question: Question;
  classes: readonly string[];
  column: QuestionColumns;
}

/** A question's columns sized for `capacity` rows: labels, probabilities and each named annotator's labels. */
function columnSetup(
  name: string,
  question: Question,
  capacity: number,
  names: readonly string[],
): ColumnSetup {
  const classes = classesOf(question);
  const width = question.type === 'noul' ? 1 : classes.length;
  const column: QuestionColumns = {
    label: new Int32Array(capacity).fill(NO_LABEL),
    p: new Float64Array(capacity * width),
    width,
    ...(names.length > 0 && {
      raters: { names: [...names], labels: new Int32Array(capacity * names.length).fill(NO_LABEL) },
    }),
  };
  return { name, question, classes, column };
}

/** Row `i`'s label, annotators' labels and answer for one question. */
function writeRow(setup: ColumnSetup, row: AlignRow, i: number): void {
  const { name, question, classes, column } = setup;
  const label = row.labels[name];
  if (label !== undefined) column.label[i] = labelIndex(label, question, classes);
  const raters = column.raters;
  const given = row.annotations?.[name];
  if (raters && given) {
    const A = raters.names.length;
    raters.names.forEach((annotator, a) => {
      const v = given[annotator];
      if (v !== undefined) raters.labels[i * A + a] = labelIndex(v, question, classes);
    });
  }
  writeAnswer(column, i, row.answers?.[name], question, classes);
}

/** A column sized for more rows, viewed up to the `n` written (not copied). */
function viewedColumn(column: QuestionColumns, n: number): QuestionColumns {
  if (column.label.length === n) return column;
  const raters = column.raters && {
    names: column.raters.names,
    labels: column.raters.labels.subarray(0, n * column.raters.names.length),
  };
  return {
    ...column,
    label: column.label.subarray(0, n),
    p: column.p.subarray(0, n * column.width),
    ...(raters && { raters }),
  };
}

/** Ids joined a chunk at a time (no rope of a million pieces), and where each ends. */
class IdPacker {
  private readonly parts: string[] = [];
  private chunk: string[] = [];
  private readonly ends: Uint32Array;
  private length = 0;

  constructor(capacity: number) {
    this.ends = new Uint32Array(capacity);
  }

  add(i: number, id: string): void {
    this.ends[i] = this.length += id.length;
    this.chunk.push(id);
    if (this.chunk.length === ID_CHUNK) {
      this.parts.push(this.chunk.join(''));
      this.chunk = [];
    }
  }

  ids(n: number): RowIds {
    return new RowIds([...this.parts, this.chunk.join('')].join(''), this.ends.subarray(0, n));
  }
}

/**
 * A table written a row at a time into columns sized once for at most `capacity` rows: a results file of a million
 * rows is read into it line by line, never held as row objects nor copied from tables of parts. `annotators` names
 * each question's annotators in order (its label columns), whose labels go to the question's `raters`.
 */
export class AlignTableWriter {
  private readonly setups: ColumnSetup[];
  private readonly ids: IdPacker;
  private count = 0;
  private answered = 0;

  constructor(
    questions: Questions,
    capacity: number,
    annotators: Readonly<Record<string, readonly string[]>> = {},
  ) {
    this.setups = Object.keys(questions).map((name) =>
      columnSetup(name, questions[name]!, capacity, annotators[name] ?? []),
    );
    this.ids = new IdPacker(capacity);
  }

  add(row: AlignRow): void {
    const i = this.count++;
    this.ids.add(i, row.id);
    for (const setup of this.setups) writeRow(setup, row, i);
    if (row.answers && Object.keys(row.answers).length > 0) this.answered++;
  }

  /** The rows written so far; columns sized for more are viewed up to them, not copied. */
  table(): AlignTable {
    const n = this.count;
    const columns = Object.fromEntries(
      this.setups.map(({ name, column }) => [name, viewedColumn(column, n)]),
    );
    return { ids: this.ids.ids(n), answered: this.answered, columns };
  }
}

/**
 * The table of rows given one by one (the page's results, a file's rows), read once. `annotators` names each
 * question's annotators in order (the label columns); by default, as the rows first name them.
 */
export function alignTableOf(
  questions: Questions,
  rows: readonly AlignRow[],
  annotators: Readonly<Record<string, readonly string[]>> = annotatorsOfRows(rows),
): AlignTable {
  const writer = new AlignTableWriter(questions, rows.length, annotators);
  for (const row of rows) writer.add(row);
  return writer.table();
}

/** Writes a row's answer into the columns: P(yes) for noul, else distributionOf's renormalised probabilities. */
function writeAnswer(
  column: QuestionColumns,
  i: number,
  answer: Answer | undefined,
  question: Question,
  classes: readonly string[],
): void {
  const at = i * column.width;
  if (answer?.type === 'refusal') column.p[at] = REFUSED;
  else if (question.type === 'noul') {
    const yes = yesProbability(answer);
    column.p[at] = yes === null ? Number.NaN : yes;
  } else if (!writeDistribution(answer, question, classes, column.p, at)) column.p[at] = Number.NaN;
}

/** Whether a row has an answer in a question's columns. */
export const answeredAt = (column: QuestionColumns, i: number): boolean => column.p[i * column.width]! >= 0;

/** A table of one question's columns at the given rows, in that order (the paired rows of two variants). */
export function rowsOf(table: AlignTable, name: string, rows: readonly number[]): AlignTable {
  const { label, p, width } = table.columns[name]!;
  const out: QuestionColumns = {
    label: new Int32Array(rows.length),
    p: new Float64Array(rows.length * width),
    width,
  };
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r]!;
    out.label[r] = label[i]!;
    // Copied value by value: a subarray view per row cost more than the copy.
    for (let k = 0; k < width; k++) out.p[r * width + k] = p[i * width + k]!;
  }
  return {
    ids: RowIds.of(rows.map((i) => table.ids.at(i))),
    answered: rows.length,
    columns: { [name]: out },
  };
}

/** A table as it crosses to a worker: the ids' text and ends as they are, which clone as two blocks. */
export interface PackedTable extends Omit<AlignTable, 'ids'> {
  idText: string;
  idEnds: Uint32Array;
}

/** A table as a plain record: structured cloning keeps no class, so the ids travel as their parts. */
export function packTable(table: AlignTable): PackedTable {
  return { idText: table.ids.text, idEnds: table.ids.ends, answered: table.answered, columns: table.columns };
}

export function unpackTable(packed: PackedTable): AlignTable {
  return {
    ids: new RowIds(packed.idText, packed.idEnds),
    answered: packed.answered,
    columns: packed.columns,
  };
}
