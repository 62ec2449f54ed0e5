// What a headless run reads before it sends anything: the session file or questions file, the model, and how the rows
// file's columns map to the state (the rows themselves are streamed, ./rowsStream.ts). Every file is parsed with the
// same schemas as the app; a problem is one sentence.
import { readFileSync } from 'node:fs';
import { QuestionsSchema } from '../contract';
import type { Questions } from '../contract';
import { errorText } from '../contract/text';
import type { NamedLabel, RowMapping } from '../core/rows/mapping';
import { labelsNamedLikeQuestions, suggestMapping } from '../core/rows/mapping';
import { excludedColumns, labelColumnsOf } from '../core/labels';
import { describeProblem, parseImportFile } from '../core/sessionFile';

/** A problem with what the user gave: printed as one sentence, exit code 2. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** The parts of --map: how the state is made, the id column, label columns by question, metadata columns. */
export interface MapSpec {
  state?:
    | { mode: 'fields' }
    | { mode: 'text' | 'conversation'; column: string }
    | { mode: 'columns'; columns: string[] };
  idColumn?: string;
  /**
   * Label columns by question: one, or one per annotator (`label.<question>=<column>` repeated, or a pattern with `*`
   * such as `label.team=ann_*`, resolved against the file's columns by resolveLabelColumns).
   */
  labels: Record<string, string[]>;
  meta: string[];
}

/** Parses the --map entries: `text=<col>`, `conversation=<col>`, `fields`, `columns=a,b`, `id=<col>`, `label.<question>=<col>`, `meta=a,b`. */
export function parseMapSpec(entries: readonly string[]): MapSpec {
  const spec: MapSpec = { labels: {}, meta: [] };
  const list = (value: string): string[] =>
    value
      .split(',')
      .map((c) => c.trim())
      .filter((c) => c !== '');
  for (const entry of entries) {
    const at = entry.indexOf('=');
    const key = (at === -1 ? entry : entry.slice(0, at)).trim();
    const value = at === -1 ? '' : entry.slice(at + 1).trim();
    if (key === 'fields' && at === -1) spec.state = { mode: 'fields' };
    else if ((key === 'text' || key === 'conversation') && value !== '')
      spec.state = { mode: key, column: value };
    else if (key === 'columns' && list(value).length > 0)
      spec.state = { mode: 'columns', columns: list(value) };
    else if (key === 'id' && value !== '') spec.idColumn = value;
    else if (key.startsWith('label.') && key.length > 6 && value !== '')
      (spec.labels[key.slice(6)] ??= []).push(...list(value));
    else if (key === 'meta' && list(value).length > 0) spec.meta.push(...list(value));
    else
      throw new InputError(
        `--map ${entry} is not understood: use text=<column>, conversation=<column>, fields, columns=<a,b>, id=<column>, label.<question>=<column> or meta=<a,b>.`,
      );
  }
  return spec;
}

/**
 * The spec with each column named like a question read as that question's human label (the app's default too), unless
 * --map names the column elsewhere (state, id, metadata) or gives the question another label column.
 */
export function withDefaultLabels(
  spec: MapSpec,
  columns: readonly string[],
  objectRows: boolean,
  questions: readonly string[],
): { spec: MapSpec; defaulted: NamedLabel[] } {
  if (!objectRows) return { spec, defaulted: [] };
  const state = spec.state;
  const taken = new Set([
    ...Object.values(spec.labels).flat(),
    ...spec.meta,
    ...(spec.idColumn ? [spec.idColumn] : []),
    ...(state?.mode === 'text' || state?.mode === 'conversation' ? [state.column] : []),
    ...(state?.mode === 'columns' ? state.columns : []),
  ]);
  const defaulted = labelsNamedLikeQuestions(columns, questions, taken, new Set(Object.keys(spec.labels)));
  if (defaulted.length === 0) return { spec, defaulted };
  const labels = { ...spec.labels };
  for (const l of defaulted) labels[l.question] = [l.column];
  return { spec: { ...spec, labels }, defaulted };
}

/** Turns `*` patterns of --map label.<question>= into the file's matching columns, in the file's order. */
export function resolveLabelColumns(spec: MapSpec, columns: readonly string[]): MapSpec {
  const labels: Record<string, string[]> = {};
  for (const [question, given] of Object.entries(spec.labels)) {
    const out: string[] = [];
    for (const name of given) {
      if (!name.includes('*')) {
        out.push(name);
        continue;
      }
      const pattern = new RegExp(
        `^${name
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      );
      const matched = columns.filter((c) => pattern.test(c));
      if (matched.length === 0)
        throw new InputError(
          `--map label.${question}=${name} matches no column; the columns are ${columns.map((c) => `"${c}"`).join(', ')}.`,
        );
      out.push(...matched);
    }
    const repeated = out.find((c, i) => out.indexOf(c) !== i);
    if (repeated !== undefined)
      throw new InputError(`--map names the column "${repeated}" twice as a label of "${question}".`);
    labels[question] = out;
  }
  return { ...spec, labels };
}

/** The label columns as a results file's header keeps them: a column, or the list of one per annotator. */
export const headerLabels = (labels: Record<string, string[]>): Record<string, string | string[]> =>
  Object.fromEntries(
    Object.entries(labels).map(([q, columns]) => [q, columns.length === 1 ? columns[0]! : columns]),
  );

/** The line that says which columns were read as labels by default, and how to send one instead. */
export const defaultLabelsLine = (defaulted: readonly NamedLabel[]): string =>
  `${defaulted.map((l) => `"${l.column}"`).join(', ')} ${defaulted.length === 1 ? 'is' : 'are'} named like ${defaulted.length === 1 ? 'a question' : 'questions'}, so read as ${defaulted.length === 1 ? 'its' : 'their'} human label${defaulted.length === 1 ? '' : 's'} and never sent; to send ${defaulted.length === 1 ? 'it' : 'one'}, name it in --map columns=<a,b> or text=<column>.`;

/**
 * The row mapping of a spec over a file's columns. Label, id and metadata columns never reach the state: with the
 * whole row as fields, the state lists every other column by name.
 */
export function mappingFor(spec: MapSpec, columns: readonly string[], objectRows: boolean): RowMapping {
  const suggested = suggestMapping(columns, objectRows);
  const state = spec.state ?? suggested;
  const inState =
    state.mode === 'text' || state.mode === 'conversation'
      ? [state.column]
      : state.mode === 'columns'
        ? state.columns
        : [];
  // A column named like an id names the rows unless the user put it in the state.
  const idColumn =
    spec.idColumn ??
    (suggested.idColumn && !inState.includes(suggested.idColumn) ? suggested.idColumn : null);
  // The page's rule for which columns are never sent, plus the id column.
  const kept = new Set([
    ...excludedColumns({ labels: labelColumnsOf(spec.labels), metadata: spec.meta }),
    ...(idColumn ? [idColumn] : []),
  ]);
  const missing = [
    ...kept,
    ...(state.mode === 'text' || state.mode === 'conversation' ? [state.column] : []),
    ...(state.mode === 'columns' ? state.columns : []),
  ].filter((c) => objectRows && !columns.includes(c));
  if (missing.length > 0)
    throw new InputError(
      `The rows file has no column ${missing.map((c) => `"${c}"`).join(', ')}; its columns are ${columns.map((c) => `"${c}"`).join(', ')}.`,
    );
  if (state.mode === 'text' || state.mode === 'conversation') {
    if (kept.has(state.column))
      throw new InputError(
        `The column "${state.column}" cannot be both the state and a label, id or metadata.`,
      );
    return state.mode === 'text'
      ? { mode: 'text', column: state.column, idColumn }
      : { mode: 'conversation', column: state.column, rule: { kind: 'transcript' }, idColumn };
  }
  if (state.mode === 'columns') {
    const leaked = state.columns.filter((c) => kept.has(c));
    if (leaked.length > 0)
      throw new InputError(
        `The column "${leaked[0]}" cannot be both in the state and a label, id or metadata.`,
      );
    return { mode: 'columns', columns: state.columns, idColumn };
  }
  const rest = columns.filter((c) => !kept.has(c));
  if (kept.size > (idColumn ? 1 : 0) && objectRows) {
    if (rest.length === 0)
      throw new InputError('Every column is a label, an id or metadata: nothing is left for the state.');
    return { mode: 'columns', columns: rest, idColumn };
  }
  return { mode: 'fields', idColumn };
}

/** The questions, model and target a session file gives (the first session unless one is named). */
export interface FromSession {
  name: string;
  questions: Questions | null;
  questionsProblem: string | null;
  model: string;
  targetId: string;
}

/** Reads the JSON of a questions map, from a session's text or a file. */
export function parseQuestionsText(text: string, where: string): Questions {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new InputError(`${where} is not JSON (${errorText(error)}).`);
  }
  // A whole request pasted as the questions file: take its questions.
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'questions' in raw && 'state' in raw)
    raw = (raw as { questions: unknown }).questions;
  const parsed = QuestionsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(
      `${where} does not hold valid questions: ${issue.path.join('.') || 'the map'}: ${issue.message}.`,
    );
  }
  return parsed.data;
}

/** A file's text, or an InputError naming what it was meant to be. */
export const readText = (file: string, what: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(
      `The ${what} ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
    );
  }
};

/** Reads an exported session file and picks one session. */
export function readSessionFile(file: string, name?: string): FromSession {
  const result = parseImportFile(readText(file, 'session file'));
  if (!result.ok) throw new InputError(`${file}: ${result.message}`);
  if (result.sessions.length === 0)
    throw new InputError(
      `${file} holds no readable session: ${result.problems.map(describeProblem).join(' ')}`,
    );
  const session = name === undefined ? result.sessions[0]! : result.sessions.find((s) => s.name === name);
  if (!session)
    throw new InputError(
      `${file} has no session named "${name}"; it has ${result.sessions.map((s) => `"${s.name}"`).join(', ')}.`,
    );
  let questions: Questions | null = null;
  let questionsProblem: string | null = null;
  try {
    questions = parseQuestionsText(session.doc.questionsText, `The questions of session "${session.name}"`);
  } catch (error) {
    questionsProblem = (error as Error).message;
  }
  return {
    name: session.name,
    questions,
    questionsProblem,
    model: session.doc.model,
    targetId: session.doc.targetId,
  };
}

export const readQuestionsFile = (file: string): Questions =>
  parseQuestionsText(readText(file, 'questions file'), file);
