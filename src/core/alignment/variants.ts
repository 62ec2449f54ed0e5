// Variants: two runs of the same labelled rows (another wording, target, model or version) compared row by row. Each
// figure's difference gets a paired bootstrap interval (the same resampled rows for both), accuracy also McNemar.
import type { Question, Questions } from '../../contract';
import { bootstrap, bootstrapSize, percentileInterval } from './intervals';
import { mcnemar } from './mcnemar';
import type { McNemarResult } from './mcnemar';
import { idOf, questionData, scratchFor, statKeys, statsInto } from './questionData';
import type { QuestionData } from './questionData';
import {
  LINEARISED_ABOVE,
  centredSquares,
  normalInterval,
  rangeOf,
  rowInfluences,
  sumsOf,
} from './linearised';
import type { Sums } from './linearised';
import { withDefaults } from './compute';
import { questionSeed } from './rng';
import { canonicalJson } from '../canonicalJson';
import { classesOf } from '../labels/prediction';
import { NO_LABEL, alignTableOf, answeredAt, rowsOf } from './table';
import type { AlignTable } from './table';
import type { AlignRow, AlignmentOptions, Figure } from './types';
import { undefinedFigure } from './types';

/** The difference B minus A of one figure on the paired rows. */
export interface PairedDifference {
  key: string;
  a: number | null;
  b: number | null;
  difference: Figure;
}

export interface QuestionComparison {
  name: string;
  /** Rows labelled alike and answered in both runs. */
  paired: number;
  /** Rows whose label differs between the runs (left out). */
  labelMismatches: number;
  differences: PairedDifference[];
  /** McNemar on the rows each run gets right (accuracy; exact agreement for score questions). */
  mcnemar: McNemarResult;
  /** What changed in the question between A and B, in words. */
  changes: string[];
}

export interface VariantComparison {
  bootstrap: { B: number; seed: number };
  questions: QuestionComparison[];
  /** Questions only one side asks, or asks with another type. */
  unmatched: string[];
}

/** What changed between two versions of a question: instructions, criteria (added, removed, reworded), type. */
export function questionChanges(a: Question, b: Question): string[] {
  if (a.type !== b.type) return [`type: ${a.type} → ${b.type}`];
  const out: string[] = [];
  if (canonicalJson(a.instructions ?? null) !== canonicalJson(b.instructions ?? null))
    out.push('instructions reworded');
  if (a.type === 'choice' && b.type === 'choice') {
    const ka = Object.keys(a.criteria);
    const kb = Object.keys(b.criteria);
    for (const k of kb) if (!ka.includes(k)) out.push(`label added: ${k}`);
    for (const k of ka) if (!kb.includes(k)) out.push(`label removed: ${k}`);
    for (const k of ka)
      if (kb.includes(k) && canonicalJson(a.criteria[k] ?? null) !== canonicalJson(b.criteria[k] ?? null))
        out.push(`label reworded: ${k}`);
  } else if (a.type === 'score' && b.type === 'score') {
    if (a.criteria.length !== b.criteria.length)
      out.push(`levels: ${a.criteria.length} → ${b.criteria.length}`);
    a.criteria.forEach((text, i) => {
      if (b.criteria[i] !== undefined && b.criteria[i] !== text) out.push(`level ${i} reworded`);
    });
  } else if (a.type === 'noul' && b.type === 'noul') {
    if (canonicalJson(a.criteria ?? null) !== canonicalJson(b.criteria ?? null))
      out.push('yes/no descriptions reworded');
  }
  return out;
}

const DIFF_KEYS: Record<Question['type'], string[]> = {
  choice: ['accuracy', 'kappa', 'macro_f1', 'brier', 'log_loss', 'ece'],
  score: ['exact', 'qwk', 'spearman', 'mae', 'brier', 'log_loss', 'ece'],
  noul: ['accuracy', 'auroc', 'brier', 'log_loss', 'ece'],
};

/** The label a table row carries for a question, as text (choice label, level or yes/no); null without a valid one. */
function labelTextAt(table: AlignTable, name: string, classes: readonly string[], i: number): string | null {
  const v = table.columns[name]!.label[i]!;
  return v < 0 ? null : classes[v]!;
}

/** How the paired difference of one figure gets its interval, and the sentence saying how. */
interface DifferenceInterval {
  of: (key: string, difference: number) => { lo: number | null; hi: number | null };
  method: (key: string) => string;
}

/** Paired percentile bootstrap: the same resampled rows for both runs. */
function bootstrapDifference(
  da: QuestionData,
  db: QuestionData,
  n: number,
  keys: readonly string[],
  name: string,
  options: AlignmentOptions,
): DifferenceInterval {
  const B = options.bootstrap.B ?? bootstrapSize(n);
  const seed = questionSeed(options.bootstrap.seed, name);
  const namesA = statKeys(da);
  const namesB = statKeys(db);
  const posA = keys.map((k) => namesA.indexOf(k));
  const posB = keys.map((k) => namesB.indexOf(k));
  const outA = new Float64Array(namesA.length);
  const outB = new Float64Array(namesB.length);
  const scratchA = scratchFor(da);
  const scratchB = scratchFor(db);
  const draws = bootstrap(n, B, seed, keys, (weights, out) => {
    statsInto(da, weights, scratchA, outA);
    statsInto(db, weights, scratchB, outB);
    // NaN (undefined on either side) stays NaN through the subtraction.
    for (let k = 0; k < keys.length; k++) out[k] = outB[posB[k]!]! - outA[posA[k]!]!;
  });
  return {
    of: (key) => percentileInterval(draws, key),
    method: (k) =>
      `difference B − A of ${k} on ${n} paired rows; 95% paired percentile bootstrap over rows, B=${B}, seed ${seed}`,
  };
}

/** Linearised: each row's influence on the figure in B minus its influence in A, so the pairing is kept row by row. */
function linearDifference(
  da: QuestionData,
  db: QuestionData,
  n: number,
  sumsA: Sums,
  sumsB: Sums,
): DifferenceInterval {
  return {
    of: (key, difference) => {
      const ua = rowInfluences(da, key, sumsA);
      const ub = rowInfluences(db, key, sumsB);
      if (!ua || !ub) return { lo: null, hi: null };
      for (let i = 0; i < ub.length; i++) ub[i]! -= ua[i]!;
      const [lo, hi] = rangeOf(key, da.K);
      return normalInterval(difference, Math.sqrt(centredSquares(ub)), [lo - hi, hi - lo]);
    },
    method: (k) =>
      `difference B − A of ${k} on ${n} paired rows; 95% normal interval from the paired linearised standard error (each row's influence in B minus its influence in A${k === 'spearman' ? ', midranks held fixed' : ''})`,
  };
}

/**
 * The rows of one question paired by id: those labelled alike in both runs (by label text: a variant may reorder its
 * labels) and answered in both, and how many labelled rows disagreed on their label.
 */
function pairRows(
  tableA: AlignTable,
  tableB: AlignTable,
  byIdB: ReadonlyMap<string, number>,
  name: string,
  classes: { a: readonly string[]; b: readonly string[] },
): { pairedA: number[]; pairedB: number[]; labelMismatches: number } {
  const pairedA: number[] = [];
  const pairedB: number[] = [];
  let labelMismatches = 0;
  for (let i = 0; i < tableA.ids.length; i++) {
    if (tableA.columns[name]!.label[i] === NO_LABEL) continue;
    const j = byIdB.get(tableA.ids.at(i));
    if (j === undefined) continue;
    const la = labelTextAt(tableA, name, classes.a, i);
    if (la === null || labelTextAt(tableB, name, classes.b, j) !== la) {
      labelMismatches++;
      continue;
    }
    if (!answeredAt(tableA.columns[name]!, i) || !answeredAt(tableB.columns[name]!, j)) continue;
    pairedA.push(i);
    pairedB.push(j);
  }
  return { pairedA, pairedB, labelMismatches };
}

/** Each figure's difference B - A, with its interval; undefined where either side's figure is. */
function figureDifferences(
  keys: readonly string[],
  pointA: Record<string, number | null>,
  pointB: Record<string, number | null>,
  interval: DifferenceInterval,
  n: number,
): PairedDifference[] {
  return keys.map((key) => {
    const a = pointA[key] ?? null;
    const b = pointB[key] ?? null;
    if (a === null || b === null)
      return {
        key,
        a,
        b,
        difference: undefinedFigure(n, interval.method(key), 'The figure is undefined in one of the runs.'),
      };
    const { lo, hi } = interval.of(key, b - a);
    return { key, a, b, difference: { value: b - a, lo, hi, n, method: interval.method(key) } };
  });
}

/** McNemar's test over the paired rows that one side got right and the other wrong. */
function discordance(da: QuestionData, db: QuestionData, n: number): McNemarResult {
  let bc = 0;
  let cb = 0;
  for (let i = 0; i < n; i++) {
    const okA = da.y[i] === da.pred[i];
    const okB = db.y[i] === db.pred[i];
    if (okA && !okB) bc++;
    if (!okA && okB) cb++;
  }
  return mcnemar(bc, cb);
}

/** One question asked alike by both runs, compared over its paired rows; `B` the resamples it drew (0 if none). */
function compareQuestion(
  name: string,
  qa: Question,
  qb: Question,
  tables: { a: AlignTable; b: AlignTable; byIdB: ReadonlyMap<string, number> },
  options: AlignmentOptions,
): { comparison: QuestionComparison; B: number } {
  const classes = { a: classesOf(qa), b: classesOf(qb) };
  const paired = pairRows(tables.a, tables.b, tables.byIdB, name, classes);
  const da = questionData(name, qa, rowsOf(tables.a, name, paired.pairedA), options);
  const db = questionData(name, qb, rowsOf(tables.b, name, paired.pairedB), options);
  // Both sides must keep the same rows in the same order for the pairing to hold.
  let same = da.n === db.n;
  for (let i = 0; same && i < da.n; i++) same = idOf(da, i) === idOf(db, i);
  const n = same ? da.n : 0;
  const keys = DIFF_KEYS[qa.type];
  // Each side's sums over its rows, gathered once for its figures and, above the threshold, its row influences.
  const sumsA = sumsOf(da);
  const sumsB = sumsOf(db);
  const linear = options.bootstrap.B === null && n > LINEARISED_ABOVE;
  const interval = linear
    ? linearDifference(da, db, n, sumsA, sumsB)
    : bootstrapDifference(da, db, n, keys, name, options);
  const comparison: QuestionComparison = {
    name,
    paired: n,
    labelMismatches: paired.labelMismatches,
    differences: figureDifferences(keys, sumsA.points, sumsB.points, interval, n),
    mcnemar: discordance(da, db, n),
    changes: questionChanges(qa, qb),
  };
  return { comparison, B: linear ? 0 : (options.bootstrap.B ?? bootstrapSize(n)) };
}

/** Compares run B with run A on the rows both answered with the same label. */
export function compareVariants(
  questionsA: Questions,
  inputA: AlignTable | readonly AlignRow[],
  questionsB: Questions,
  inputB: AlignTable | readonly AlignRow[],
  partial: Partial<AlignmentOptions> = {},
): VariantComparison {
  const options = withDefaults(partial);
  const tableA = Array.isArray(inputA) ? alignTableOf(questionsA, inputA) : (inputA as AlignTable);
  const tableB = Array.isArray(inputB) ? alignTableOf(questionsB, inputB) : (inputB as AlignTable);
  const tables = { a: tableA, b: tableB, byIdB: tableB.ids.positions() };
  const unmatched: string[] = [];
  const questions: QuestionComparison[] = [];
  let Bsize = options.bootstrap.B ?? 0;
  for (const [name, qa] of Object.entries(questionsA)) {
    const qb = questionsB[name];
    if (!qb || qb.type !== qa.type || !tableA.columns[name] || !tableB.columns[name]) {
      unmatched.push(name);
      continue;
    }
    const { comparison, B } = compareQuestion(name, qa, qb, tables, options);
    questions.push(comparison);
    Bsize = Math.max(Bsize, B);
  }
  for (const name of Object.keys(questionsB)) if (!(name in questionsA)) unmatched.push(name);
  return { bootstrap: { B: Bsize, seed: options.bootstrap.seed }, questions, unmatched };
}
