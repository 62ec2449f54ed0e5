// Several people's labels of one question: each label column is one annotator (named by the column unless the
// mapping names it), a row keeps every annotator's label apart, and its label is their majority.
import { z } from 'zod';
import type { JsonValue, Questions } from '../../contract';
import { isRecord } from '../../contract/guards';
import type { LabelColumn, LabelValue } from './values';
import { LabelValueSchema, readLabel } from './values';

/** Every annotator's label of a row, by question then by annotator (the column, or the name the mapping gives). */
export const AnnotationsSchema = z.record(z.string(), z.record(z.string(), LabelValueSchema));
export type Annotations = z.infer<typeof AnnotationsSchema>;

/** The labels a row carries: one per question (the majority where several annotators labelled), and each of theirs. */
export interface RowLabels {
  labels?: Record<string, LabelValue>;
  annotations?: Annotations;
}

/** Who a label column speaks for: the name the mapping gives, else the column's own name. */
export const annotatorOf = (spec: Pick<LabelColumn, 'column' | 'annotator'>): string =>
  spec.annotator ?? spec.column;

/**
 * The majority of labels given in annotator order: the most frequent; a tie goes to the annotator listed first that
 * gave one of the tied labels (the rule agreement-metrics.md states, so the result never depends on chance).
 */
export function majorityOf(values: readonly (LabelValue | undefined)[]): LabelValue | undefined {
  const counts = new Map<LabelValue, number>();
  for (const v of values) if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: LabelValue | undefined;
  let bestCount = 0;
  // Map keeps first-seen order, which is annotator order: a later label wins only with strictly more votes.
  for (const [value, count] of counts)
    if (count > bestCount) {
      best = value;
      bestCount = count;
    }
  return best;
}

/** The questions labelled by more than one column, with their annotators in column order. */
export function annotatorsByQuestion(columns: readonly LabelColumn[]): Map<string, string[]> {
  const byQuestion = new Map<string, string[]>();
  for (const spec of columns) {
    const names = byQuestion.get(spec.question) ?? [];
    names.push(annotatorOf(spec));
    byQuestion.set(spec.question, names);
  }
  for (const [question, names] of byQuestion) if (names.length < 2) byQuestion.delete(question);
  return byQuestion;
}

/** The labels one row's data carries in these label columns; empty when it has none. */
export function readRowLabels(
  data: JsonValue,
  columns: readonly LabelColumn[],
  questions: Questions,
): RowLabels {
  if (!columns.length || !isRecord(data)) return {};
  const several = annotatorsByQuestion(columns);
  const labels: Record<string, LabelValue> = {};
  const annotations: Annotations = {};
  for (const spec of columns) {
    const question = questions[spec.question];
    if (!question) continue;
    const reading = readLabel(data[spec.column], question, spec);
    if (reading.kind !== 'ok') continue;
    if (several.has(spec.question)) (annotations[spec.question] ??= {})[annotatorOf(spec)] = reading.value;
    else labels[spec.question] = reading.value;
  }
  for (const [question, byAnnotator] of Object.entries(annotations)) {
    const names = several.get(question)!;
    const majority = majorityOf(names.map((name) => byAnnotator[name]));
    if (majority !== undefined) labels[question] = majority;
  }
  return {
    ...(Object.keys(labels).length ? { labels } : {}),
    ...(Object.keys(annotations).length ? { annotations } : {}),
  };
}

/**
 * A row's labels after one annotator labels (or clears, with null) a question: the annotator's label is kept apart
 * and the row's label becomes the majority of every annotator's, in `order` (then anyone else, by name).
 */
export function withAnnotation(
  current: RowLabels,
  question: string,
  annotator: string,
  value: LabelValue | null,
  order: readonly string[] = [],
): RowLabels {
  const byAnnotator = { ...(current.annotations?.[question] ?? {}) };
  if (value === null) delete byAnnotator[annotator];
  else byAnnotator[annotator] = value;
  const annotations = { ...(current.annotations ?? {}) };
  if (Object.keys(byAnnotator).length) annotations[question] = byAnnotator;
  else delete annotations[question];
  const names = [
    ...order.filter((n) => n in byAnnotator),
    ...Object.keys(byAnnotator)
      .filter((n) => !order.includes(n))
      .sort(),
  ];
  const majority = majorityOf(names.map((n) => byAnnotator[n]));
  const labels = { ...(current.labels ?? {}) };
  if (majority === undefined) delete labels[question];
  else labels[question] = majority;
  return {
    ...(Object.keys(labels).length ? { labels } : {}),
    ...(Object.keys(annotations).length ? { annotations } : {}),
  };
}
