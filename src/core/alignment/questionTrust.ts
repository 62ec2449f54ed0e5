// A question's "can the judge replace a person?" figures within the alignment report: its annotators' labels and its
// answers read from the table under the report's conventions, and a cascade's later judges re-ordered to its rows.
import type { Question } from '../../contract';
import { trustDataFromColumns, trustFigures } from '../trust';
import type { TrustFigures } from '../trust';
import { questionSeed } from './rng';
import { NO_LABEL } from './table';
import type { AlignTable, QuestionColumns } from './table';
import { thresholdOf } from './questionData';
import { TRUST_OPTION_DEFAULTS } from './types';
import type { AlignmentOptions } from './types';

/**
 * Judges of a cascade, in order, each with its price per row and its answers to the same rows (matched by row id;
 * a row a judge was not asked is one it abstains on). The first is usually the run itself.
 */
export interface CascadeTables {
  judges: { label: string; price: number; table: AlignTable }[];
  /** The last judge settles every row that reaches it. */
  lastAnswersAll: boolean;
}

/** A judge's answers to a question re-ordered to the base table's rows (by id); rows it lacks have no answer. */
function alignedColumn(base: AlignTable, other: AlignTable, name: string): QuestionColumns | null {
  const column = other.columns[name];
  if (!column) return null;
  const at = other.ids.positions();
  const { width } = column;
  const p = new Float64Array(base.ids.length * width).fill(Number.NaN);
  for (let i = 0; i < base.ids.length; i++) {
    const j = at.get(base.ids.at(i));
    if (j !== undefined) for (let k = 0; k < width; k++) p[i * width + k] = column.p[j * width + k]!;
  }
  return { label: new Int32Array(base.ids.length).fill(NO_LABEL), p, width };
}

/** The trust figures of a labelled question, from its annotators' labels (one label column reads as one annotator). */
export function questionTrust(
  name: string,
  question: Question,
  table: AlignTable,
  options: AlignmentOptions,
  /** Resamples, or null for intervals linearised as the question's own figures are (B left open, a large file). */
  B: number | null,
  cascade?: CascadeTables,
): TrustFigures | null {
  const column = table.columns[name];
  if (!column) return null;
  const trust = { ...TRUST_OPTION_DEFAULTS, ...options.trust };
  const reading = { scorePrediction: options.scorePrediction, noulThreshold: thresholdOf(options, name) };
  const data = trustDataFromColumns(question, column, reading);
  const judges = (cascade?.judges ?? []).flatMap((j) => {
    const aligned = alignedColumn(table, j.table, name);
    if (!aligned) return [];
    const read = trustDataFromColumns(question, aligned, reading);
    return [{ name: j.label, price: j.price, judge: read.judge, confidence: read.confidence }];
  });
  return trustFigures(data, {
    ...(cascade && judges.length > 0 ? { cascade: { judges, lastAnswersAll: cascade.lastAnswersAll } } : {}),
    bootstrap: { B, seed: questionSeed(options.bootstrap.seed, `${name}.trust`) },
    altTest: { epsilon: trust.epsilon },
    threshold: { alpha: trust.alpha, delta: trust.delta },
    ppiPredictor: trust.ppiPredictor ?? TRUST_OPTION_DEFAULTS.ppiPredictor,
  });
}
