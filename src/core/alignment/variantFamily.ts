// A family of variants on one labelled set: every variant tried, each compared with the base on the rows that all of
// them answered with the same label, one figure at a time, with intervals adjusted for the count (simultaneous.ts).
// The pairwise comparison (variants.ts) answers "is B better than A?"; this answers "is the best of K better than
// the base, once K is counted?".
import type { Question, Questions } from '../../contract';
import { classesOf } from '../labels/prediction';
import { withDefaults } from './compute';
import { rowInfluences, sumsOf } from './linearised';
import { questionData } from './questionData';
import { questionSeed } from './rng';
import { bestOfSentence, simultaneousIntervals } from './simultaneous';
import type { SimultaneousIntervals } from './simultaneous';
import { NO_LABEL, alignTableOf, answeredAt, rowsOf } from './table';
import type { AlignTable } from './table';
import type { AlignRow, AlignmentOptions } from './types';

/** One run of the labelled rows: the base, or a variant with its name. */
export interface FamilyRun {
  name: string;
  questions: Questions;
  rows: AlignTable | readonly AlignRow[];
}

export interface VariantFamily extends SimultaneousIntervals {
  question: string;
  figure: string;
  /** Rows every run answered, each with the base's label. */
  rows: number;
  /** The variants' names, in the order of `intervals`. */
  variants: string[];
  sentence: string;
}

const tableOf = (run: FamilyRun): AlignTable =>
  Array.isArray(run.rows)
    ? alignTableOf(run.questions, run.rows as readonly AlignRow[])
    : (run.rows as AlignTable);

/** Each run's row positions of the rows that every run answered with the base's label, in the base's order. */
function commonRows(tables: AlignTable[], name: string, questions: Question[]): number[][] {
  const base = tables[0]!;
  const classes = questions.map(classesOf);
  const byId = tables.map((t) => t.ids.positions());
  const positions: number[][] = tables.map(() => []);
  for (let i = 0; i < base.ids.length; i++) {
    const label = base.columns[name]!.label[i]!;
    if (label === NO_LABEL || !answeredAt(base.columns[name]!, i)) continue;
    const text = classes[0]![label]!;
    const at: number[] = [i];
    for (let r = 1; r < tables.length && at.length === r; r++) {
      const j = byId[r]!.get(base.ids.at(i));
      const column = tables[r]!.columns[name]!;
      if (j !== undefined && answeredAt(column, j) && classes[r]![column.label[j]!] === text) at.push(j);
    }
    if (at.length === tables.length) at.forEach((j, r) => positions[r]!.push(j));
  }
  return positions;
}

/**
 * The family of `variants` against `base` for one question and one figure (accuracy, kappa, macro_f1, qwk, auroc,
 * brier, ...): each variant's paired difference from the base and the adjusted intervals over all of them. Null when
 * a run lacks the question or asks it with another type.
 */
export function variantFamily(
  base: FamilyRun,
  variants: readonly FamilyRun[],
  question: string,
  figure: string,
  partial: Partial<AlignmentOptions> & { draws?: number } = {},
): VariantFamily | null {
  const options = withDefaults(partial);
  const runs = [base, ...variants];
  const questions = runs.map((r) => r.questions[question]);
  if (questions.some((q) => !q || q.type !== questions[0]!.type)) return null;
  const tables = runs.map(tableOf);
  if (tables.some((t) => !t.columns[question])) return null;
  const positions = commonRows(tables, question, questions as Question[]);
  const data = runs.map((_, r) =>
    questionData(question, questions[r]!, rowsOf(tables[r]!, question, positions[r]!), options),
  );
  const sums = data.map((d) => sumsOf(d));
  const baseInfluence = rowInfluences(data[0]!, figure, sums[0]);
  const differences = data.slice(1).map((d, k) => {
    const u = rowInfluences(d, figure, sums[k + 1]);
    const estimate = sums[k + 1]!.point(figure) - sums[0]!.point(figure);
    if (!u || !baseInfluence || !Number.isFinite(estimate))
      return { estimate: 0, influence: new Float64Array(d.n) };
    for (let i = 0; i < u.length; i++) u[i]! -= baseInfluence[i]!;
    return { estimate, influence: u };
  });
  const result = simultaneousIntervals(differences, {
    seed: questionSeed(options.bootstrap.seed, question),
    ...(partial.draws !== undefined && { draws: partial.draws }),
  });
  return {
    ...result,
    question,
    figure,
    rows: data[0]!.n,
    variants: variants.map((v) => v.name),
    sentence: bestOfSentence(result, figure),
  };
}
