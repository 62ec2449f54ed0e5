// Aligning the answers of 2..4 columns (a target and a model each) to the same request, question by question: shared
// option order and axes so the charts line up, metrics of every column against the first (the baseline), and one
// disagreement number per question that a threshold flags and a list sorts by. Pure.
import { CONVERSATION_FIELD, classifyModelId, isRefusal, localFileOfModel } from '../contract';
import type {
  Answer,
  CarriedRequest,
  Description,
  EvaluateRequest,
  EvaluateResponse,
  Question,
  QuestionType,
} from '../contract';
import { disagreementOf, choiceMetrics, noulMetrics, scoreMetrics } from './metrics';
import type { PairMetrics } from './metrics';
import { draftRequest, targetProblems } from './runDraft';
import type { TargetFacts } from './runDraft';
import type { Compare, CompareColumn, SessionDoc } from './session';

/** What one column contributes: the request its latest run sent and the response it got, if any. */
export interface CompareColumnInput {
  id: string;
  request?: EvaluateRequest;
  response?: EvaluateResponse;
}

/** One column's answer to one question, with how it differs from the baseline's. */
export interface ComparedCell {
  columnId: string;
  /**
   * Undefined when the column has no response, or its answer is missing or of another type. A refusal is kept: it is
   * this column's answer, shown in its place and counted apart, never as a disagreement or a zero.
   */
  answer?: Answer;
  /** Metrics against the baseline; undefined for the baseline itself and when either side has no answer. */
  metrics?: PairMetrics;
  /** The one-number disagreement with the baseline (see `disagreementOf`). */
  disagreement?: number;
}

/** One question across all columns, laid out so the columns' charts share their axes. */
export interface ComparedQuestion {
  name: string;
  /** Position in question order (the baseline request's order). */
  index: number;
  type: QuestionType;
  /**
   * choice: the shared option order, the first answering column's labels by probability (ties in criteria order),
   * then any label only other columns or the criteria have. score: level keys "0".."n-1" in level order. noul: empty.
   */
  labels: string[];
  /** choice: label descriptions; score: level texts (legend, else criteria). Same length as `labels`. */
  labelTexts: (string | null)[];
  /**
   * Upper end of the shared probability axis: the largest probability any column gives plus 0.05, rounded up to a
   * tenth (at most 1), so the longest bar ends before the axis does and keeps room for its value label.
   */
  probabilityMax: number;
  /** score: the shared expected-score axis is 0..levelCount-1. 0 for other kinds. */
  levelCount: number;
  cells: ComparedCell[];
  /**
   * The largest disagreement of any column with the baseline, in [0, 1]: total variation distance for choice and score,
   * |Δ p(yes)| for noul. Null when the baseline or every other column has no answer.
   */
  disagreement: number | null;
  /** The column that disagrees most with the baseline. */
  mostDifferentColumnId: string | null;
  /** `disagreement > threshold`. */
  flagged: boolean;
  /** The columns that refused this question (in column order): no number is measured against them. */
  refusedColumnIds: string[];
}

/** The whole comparison: rows in question order plus what the UI needs to warn about. */
export interface Comparison {
  questions: ComparedQuestion[];
  /** Columns whose latest run sent another state or other questions than the baseline's: their answers are not comparable. */
  staleColumnIds: string[];
  flaggedCount: number;
  /** Per column that refused any question, how many it refused (columns that refused none are absent). */
  refusedCounts: Record<string, number>;
}

/** A description as one line of text, for labels and tooltips. */
function descriptionText(d: Description | null | undefined): string | null {
  if (d === null || d === undefined) return null;
  return typeof d === 'string' ? d : JSON.stringify(d);
}

/** JSON with object keys sorted, so two requests built from the same text compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether two requests ask the same thing of a model: same state and questions (the model may differ). */
export const sameQuestionsAndState = (a: EvaluateRequest, b: EvaluateRequest): boolean =>
  canonical(a.state) === canonical(b.state) && canonical(a.questions) === canonical(b.questions);

/** Headroom past the longest bar: a bar ending exactly at the axis end has its value label clipped by the chart. */
const AXIS_HEADROOM = 0.05;

/** The longest bar plus headroom, rounded up to the next tenth (at most 1), so a shared axis ends on a tick. */
const axisMax = (p: number): number => Math.min(1, Math.ceil((p + AXIS_HEADROOM) * 10 - 1e-9) / 10);

function choiceLayout(question: Question | undefined, answers: (Answer | undefined)[]) {
  const criteria = question?.type === 'choice' ? question.criteria : {};
  const criteriaOrder = Object.keys(criteria);
  const rank = (label: string): number => {
    const i = criteriaOrder.indexOf(label);
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  const choiceAnswers = answers.filter((a): a is Extract<Answer, { type: 'choice' }> => a?.type === 'choice');
  const labels: string[] = [];
  const seen = new Set<string>();
  const add = (label: string) => {
    if (!seen.has(label)) {
      seen.add(label);
      labels.push(label);
    }
  };
  const first = choiceAnswers[0];
  if (first) {
    const entries = Object.entries(first.probabilities);
    // NOTE: Array.prototype.sort is stable, so labels outside the criteria keep the answer's own order on ties.
    entries.sort(([a, pa], [b, pb]) => pb - pa || rank(a) - rank(b));
    entries.forEach(([label]) => add(label));
  }
  criteriaOrder.forEach(add);
  choiceAnswers.forEach((a) => Object.keys(a.probabilities).forEach(add));
  const labelTexts = labels.map((l) => descriptionText(criteria[l]));
  return { labels, labelTexts };
}

function scoreLayout(question: Question | undefined, answers: (Answer | undefined)[]) {
  const criteria = question?.type === 'score' ? question.criteria : [];
  const scoreAnswers = answers.filter((a): a is Extract<Answer, { type: 'score' }> => a?.type === 'score');
  let levelCount = criteria.length;
  for (const a of scoreAnswers) {
    for (const key of [...Object.keys(a.probabilities), ...Object.keys(a.legend)]) {
      if (/^\d+$/.test(key)) levelCount = Math.max(levelCount, Number(key) + 1);
    }
  }
  const labels = Array.from({ length: levelCount }, (_, i) => String(i));
  const labelTexts = labels.map((key, i) => {
    const fromLegend = scoreAnswers.map((a) => a.legend[key]).find((d) => d !== undefined);
    return descriptionText(fromLegend ?? criteria[i]);
  });
  return { labels, labelTexts, levelCount };
}

function maxProbability(answers: (Answer | undefined)[]): number {
  let max = 0;
  for (const a of answers) {
    if (a?.type === 'choice' || a?.type === 'score') {
      for (const p of Object.values(a.probabilities)) if (Number.isFinite(p)) max = Math.max(max, p);
    }
  }
  return max;
}

function pairMetrics(baseline: Answer, other: Answer): PairMetrics | undefined {
  if (baseline.type === 'choice' && other.type === 'choice') return choiceMetrics(baseline, other);
  if (baseline.type === 'score' && other.type === 'score') return scoreMetrics(baseline, other);
  if (baseline.type === 'noul' && other.type === 'noul') return noulMetrics(baseline, other);
  return undefined;
}

/**
 * Lines up the columns' answers question by question. Column 0 is the baseline. Questions come in the order of the
 * first column that has a request (then any question only later columns asked). `threshold` flags a question whose
 * disagreement is strictly above it.
 */
export function compareColumns(columns: readonly CompareColumnInput[], threshold: number): Comparison {
  const reference = columns.find((c) => c.request)?.request;
  const staleColumnIds = reference
    ? columns.filter((c) => c.request && !sameQuestionsAndState(c.request, reference)).map((c) => c.id)
    : [];

  const names: string[] = [];
  const definitions = new Map<string, Question>();
  for (const c of columns) {
    for (const [name, q] of Object.entries(c.request?.questions ?? {})) {
      if (!definitions.has(name)) {
        definitions.set(name, q);
        names.push(name);
      }
    }
  }

  const questions = names.map((name, index): ComparedQuestion => {
    const question = definitions.get(name);
    const type = question?.type ?? 'noul';
    // An answer of another type than the question's is not comparable; it is left out rather than misdrawn. A refusal
    // is kept as the column's answer: the layouts and metrics below read only answers of the question's type.
    const answers = columns.map((c) => {
      const a = c.response?.answers[name];
      return a && (a.type === type || isRefusal(a)) ? a : undefined;
    });
    const layout =
      type === 'choice'
        ? { ...choiceLayout(question, answers), levelCount: 0 }
        : type === 'score'
          ? scoreLayout(question, answers)
          : { labels: [], labelTexts: [], levelCount: 0 };
    const baseline = answers[0];
    let disagreement: number | null = null;
    let mostDifferentColumnId: string | null = null;
    const cells: ComparedCell[] = [];
    columns.forEach((c, i) => cells.push({ columnId: c.id, answer: answers[i] }));
    for (let i = 1; i < cells.length; i++) {
      const cell = cells[i]!;
      const metrics = baseline && cell.answer ? pairMetrics(baseline, cell.answer) : undefined;
      if (!metrics) continue;
      const d = disagreementOf(metrics);
      cells[i] = { ...cell, metrics, disagreement: d };
      if (disagreement === null || d > disagreement) {
        disagreement = d;
        mostDifferentColumnId = cell.columnId;
      }
    }
    return {
      name,
      index,
      type,
      labels: layout.labels,
      labelTexts: layout.labelTexts,
      levelCount: layout.levelCount,
      probabilityMax: type === 'noul' ? 1 : axisMax(maxProbability(answers)),
      cells,
      disagreement,
      mostDifferentColumnId,
      flagged: disagreement !== null && disagreement > threshold,
      refusedColumnIds: cells.filter((c) => c.answer && isRefusal(c.answer)).map((c) => c.columnId),
    };
  });

  const refusedCounts: Record<string, number> = {};
  for (const q of questions)
    for (const id of q.refusedColumnIds) refusedCounts[id] = (refusedCounts[id] ?? 0) + 1;
  return {
    questions,
    staleColumnIds,
    flaggedCount: questions.filter((q) => q.flagged).length,
    refusedCounts,
  };
}

/** How a comparison's questions are listed. */
export type CompareSort = 'question' | 'disagreement';

/**
 * The questions in question order, or by disagreement, largest first; questions without a disagreement go last and
 * ties keep question order, so the list does not jump around between equal rows.
 */
export function sortQuestions(questions: readonly ComparedQuestion[], sort: CompareSort): ComparedQuestion[] {
  const byIndex = [...questions].sort((a, b) => a.index - b.index);
  if (sort === 'question') return byIndex;
  return byIndex.sort((a, b) => {
    if (a.disagreement === null || b.disagreement === null) {
      return a.disagreement === b.disagreement ? a.index - b.index : a.disagreement === null ? 1 : -1;
    }
    return b.disagreement - a.disagreement || a.index - b.index;
  });
}

/**
 * Per column, how often it picked the baseline's top choice: `agree` of `of` choice questions both answered, and
 * `refused`, the choice questions where this column or the baseline refused (counted apart, never in `of`).
 */
export function topChoiceAgreementCounts(
  comparison: Comparison,
): Record<string, { agree: number; of: number; refused: number }> {
  const counts: Record<string, { agree: number; of: number; refused: number }> = {};
  for (const q of comparison.questions) {
    if (q.type !== 'choice') continue;
    const baselineRefused = q.cells[0]?.answer !== undefined && isRefusal(q.cells[0].answer);
    for (const cell of q.cells.slice(1)) {
      const refused = baselineRefused || (cell.answer !== undefined && isRefusal(cell.answer));
      if (!refused && cell.metrics?.kind !== 'choice') continue;
      const c = (counts[cell.columnId] ??= { agree: 0, of: 0, refused: 0 });
      if (refused) c.refused += 1;
      else if (cell.metrics?.kind === 'choice') {
        c.of += 1;
        if (cell.metrics.topChoiceAgrees) c.agree += 1;
      }
    }
  }
  return counts;
}

/**
 * The versioned id to offer pinning a column to: set when the column names an alias and its last response says which
 * version the alias resolved to. Null when the column is already pinned or nothing has resolved yet.
 */
export function pinSuggestion(columnModel: string, resolvedModel: string | undefined): string | null {
  if (resolvedModel === undefined || classifyModelId(columnModel.trim()) !== 'alias') return null;
  return classifyModelId(resolvedModel) === 'versioned' ? resolvedModel : null;
}

/** Fewest and most columns a comparison holds (the session schema enforces the same). */
export const MIN_COLUMNS = 2;
export const MAX_COLUMNS = 4;

/**
 * Default flag threshold: a fifth of the probability mass moved (TVD 0.2) or p(yes) shifted by 0.2 is a difference a
 * rubric author would want to read; smaller shifts are within what rounding and sampling noise make look different.
 */
export const DEFAULT_THRESHOLD = 0.2;

/**
 * A new comparison of the session's target and model with a second column on another model of the same target. When
 * the target also answers from a model file (`fileAlias`), the second column is the other judge: the file's model
 * beside a lexical id, the lexical model-latest beside the file's.
 */
export function newComparison(
  targetId: string,
  model: string,
  makeId: () => string,
  fileAlias?: string,
): Compare {
  const trimmed = model.trim();
  const other = fileAlias
    ? localFileOfModel(trimmed) === null
      ? fileAlias
      : 'model-latest'
    : trimmed === 'model-preview'
      ? 'model-latest'
      : 'model-preview';
  return {
    columns: [
      { id: makeId(), targetId, model: trimmed === '' ? 'model-latest' : trimmed },
      { id: makeId(), targetId, model: other },
    ],
    threshold: DEFAULT_THRESHOLD,
    runIds: {},
  };
}

/** The comparison with one more column, a copy of the last one's target and model; unchanged at MAX_COLUMNS. */
export function addColumn(compare: Compare, makeId: () => string): Compare {
  const last = compare.columns[compare.columns.length - 1];
  if (!last || compare.columns.length >= MAX_COLUMNS) return compare;
  return {
    ...compare,
    columns: [...compare.columns, { id: makeId(), targetId: last.targetId, model: last.model }],
  };
}

/** The comparison without a column (and its run id); unchanged at MIN_COLUMNS. */
export function removeColumn(compare: Compare, columnId: string): Compare {
  if (compare.columns.length <= MIN_COLUMNS) return compare;
  const { [columnId]: _removed, ...runIds } = compare.runIds;
  return { ...compare, columns: compare.columns.filter((c) => c.id !== columnId), runIds };
}

/**
 * The comparison with a column's target or model changed. Its last run no longer answers for the column, so its run
 * id is dropped; the run itself stays in the session's history.
 */
export function updateColumn(
  compare: Compare,
  columnId: string,
  patch: Partial<Omit<CompareColumn, 'id'>>,
): Compare {
  const current = compare.columns.find((c) => c.id === columnId);
  if (!current) return compare;
  const next = { ...current, ...patch };
  if (next.targetId === current.targetId && next.model === current.model) return compare;
  const { [columnId]: _dropped, ...runIds } = compare.runIds;
  return { ...compare, columns: compare.columns.map((c) => (c.id === columnId ? next : c)), runIds };
}

/**
 * Pins a column to the versioned id its alias resolved to. The last run stays the column's: it was answered by exactly
 * that version, so its answers remain valid for the pinned column.
 */
export function pinColumn(compare: Compare, columnId: string, versionedId: string): Compare {
  return {
    ...compare,
    columns: compare.columns.map((c) => (c.id === columnId ? { ...c, model: versionedId } : c)),
  };
}

/** The comparison with a column's latest run recorded. */
export const recordColumnRun = (compare: Compare, columnId: string, runId: string): Compare =>
  compare.columns.some((c) => c.id === columnId)
    ? { ...compare, runIds: { ...compare.runIds, [columnId]: runId } }
    : compare;

/** What a column would send: the session's state and questions with the column's model, or the first reason not to. */
export function columnDraft(
  doc: SessionDoc,
  model: string,
  listedModels: readonly string[] = [],
  target?: TargetFacts,
): { request: CarriedRequest | null; problem: string | null } {
  const draft = draftRequest({ ...doc, model }, listedModels);
  const conversation = draft.body?.[CONVERSATION_FIELD];
  // The column's own target: its limits and dialect decide too (a 64-question server, the Decisions form).
  const onTarget =
    target && draft.request ? targetProblems({ ...doc, model }, draft.request, target, conversation) : [];
  // A conversation goes beside the rendered state, as on the main screen: a Decisions column reads it natively.
  if (draft.request && !draft.blocking && onTarget.length === 0)
    return {
      request: conversation ? { ...draft.request, [CONVERSATION_FIELD]: conversation } : draft.request,
      problem: null,
    };
  const first = [...draft.problems, ...onTarget].find((p) => p.severity === 'error');
  const where = first?.area === 'model' ? '' : first ? `In the ${first.area}: ` : '';
  return { request: null, problem: first ? `${where}${first.message}` : 'The request cannot be sent.' };
}
