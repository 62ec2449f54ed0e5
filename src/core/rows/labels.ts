// Human labels of a file's rows: read from the columns the mapping names as labels, through each column's value
// table, when the run is built; the labelling view adds more to the stored rows later.
import type { JsonValue, Questions } from '../../contract';
import { annotatorOf, labelColumnSummary, readRowLabels } from '../labels';
import type { LabelColumnSummary, RowLabels } from '../labels';
import type { RowMapping } from './mapping';
import type { SourceRow } from './parse';
import { isRecord } from '../../contract/guards';

export type { LabelEdit } from '../labels';

/** The labels one row carries under a mapping: by question, and each annotator's where several labelled. */
export const rowLabels = (data: JsonValue, mapping: RowMapping, questions: Questions): RowLabels =>
  readRowLabels(data, mapping.labels ?? [], questions);

/**
 * Who each question's plain label speaks for once labellers label it too: its (first) label column, by question.
 * Questions without a label column are left out (their plain labels were given without a name).
 */
export function plainAnnotatorsOf(mapping: RowMapping): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of mapping.labels ?? []) out[spec.question] ??= annotatorOf(spec);
  return out;
}

/** One label column's value table over the whole file, or why it cannot be read. */
export interface LabelPlan {
  column: string;
  question: string;
  summary: LabelColumnSummary | null;
  problem?: string;
}

/** Value tables of every label column of a mapping, for the mapping screen. */
export function labelPlans(
  rows: readonly SourceRow[],
  mapping: RowMapping,
  questions: Questions,
): LabelPlan[] {
  return (mapping.labels ?? []).map((spec) => {
    const question = questions[spec.question];
    if (!question)
      return {
        column: spec.column,
        question: spec.question,
        summary: null,
        problem: `The session has no question "${spec.question}".`,
      };
    const cells = rows.map((r) => (isRecord(r.data) ? r.data[spec.column] : undefined));
    return {
      column: spec.column,
      question: spec.question,
      summary: labelColumnSummary(cells, question, spec),
    };
  });
}
