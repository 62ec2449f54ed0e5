// Label edits applied to one row's labels: a plain edit sets the row's one label, an annotator's edit keeps that
// annotator's label apart and makes the row's label the majority (the labelling view with a name, labels taken back
// from a session). Pure, so the store in IndexedDB and the tests apply edits the same way.
import { withAnnotation } from './annotators';
import type { RowLabels } from './annotators';
import type { LabelEdit } from './columns';

/** Who a row's plain label speaks for once annotators label the question too, when no label column names it. */
export const UNNAMED_ANNOTATOR = 'unnamed';

/**
 * A row's labels after these edits, in order. An annotator's label goes through withAnnotation with the annotators in
 * the order stored, then new ones. A plain label the question already has (a label column, or a label given without a
 * name) is kept as an annotator of its own, named by `plainAnnotator` (the label column), so a labeller never
 * overwrites it; clearing a label an annotator never gave changes nothing.
 */
export function applyLabelEdits(
  current: RowLabels,
  edits: readonly Omit<LabelEdit, 'number'>[],
  plainAnnotator: Readonly<Record<string, string>> = {},
): RowLabels {
  let row = current;
  for (const { question, value, annotator } of edits) {
    if (annotator === undefined) {
      const labels = { ...(row.labels ?? {}) };
      if (value === null) delete labels[question];
      else labels[question] = value;
      row = {
        ...(Object.keys(labels).length ? { labels } : {}),
        ...(row.annotations ? { annotations: row.annotations } : {}),
      };
      continue;
    }
    let given = row.annotations?.[question] ?? {};
    if (value === null && !(annotator in given)) continue;
    const plain = row.labels?.[question];
    const name = plainAnnotator[question] ?? UNNAMED_ANNOTATOR;
    if (Object.keys(given).length === 0 && plain !== undefined && name !== annotator) {
      given = { [name]: plain };
      row = { ...row, annotations: { ...(row.annotations ?? {}), [question]: given } };
    }
    row = withAnnotation(row, question, annotator, value, [...Object.keys(given), annotator]);
  }
  return row;
}
