// Label writes on a run's rows: a person's labels (or each labeller's) for a question, applied to the stored row in one
// read-modify-write transaction, so a label given while the run writes outcomes loses neither.
import { z } from 'zod';
import { AnnotationsSchema, LabelValueSchema, applyLabelEdits } from '../../core/labels';
import type { RowLabels } from '../../core/labels';
import type { LabelEdit } from '../../core/rows/labels';
import type { WorkbenchDb } from './db';
import { issueText } from './rowsRead';

/** A label edit as it reaches the store: checked before anything is written. */
const LabelEditSchema = z.object({
  number: z.number().int(),
  question: z.string(),
  value: LabelValueSchema.nullable(),
  annotator: z.string().trim().min(1).optional(),
});
/** The labels a stored row carries, read before an edit is applied to them. */
const StoredLabelsSchema = z.object({
  labels: z.record(z.string(), LabelValueSchema).optional(),
  annotations: AnnotationsSchema.optional(),
});

/** The checked edits, by row number. */
function editsByRow(changes: readonly LabelEdit[]): Map<number, LabelEdit[]> {
  const byRow = new Map<number, LabelEdit[]>();
  for (const change of changes) {
    const edit = LabelEditSchema.parse(change);
    const edits = byRow.get(edit.number);
    if (edits) edits.push(edit);
    else byRow.set(edit.number, [edit]);
  }
  return byRow;
}

/**
 * Sets many rows' labels (null clears one) in one read-modify-write transaction, and returns each changed row's
 * labels and annotations after it: labels taken from a session at once are stored, or none are. An edit with an
 * annotator keeps that labeller's label apart, the row's label becomes the majority (applyLabelEdits), and a plain
 * label already there is kept as the annotator `plainAnnotator` names for its question (its label column).
 */
export async function setLabels(
  db: WorkbenchDb,
  runId: string,
  changes: readonly LabelEdit[],
  plainAnnotator: Readonly<Record<string, string>> = {},
): Promise<Map<number, RowLabels>> {
  const byRow = editsByRow(changes);
  const numbers = [...byRow.keys()];
  return db.transaction('rw', db.rowItems, async () => {
    const raws = await db.rowItems.bulkGet(numbers.map((n) => [runId, n] as [string, number]));
    const after = new Map<number, RowLabels>();
    numbers.forEach((n, i) => {
      const raw = raws[i];
      if (raw === undefined) throw new Error(`Row ${n} of run ${runId} is no longer stored.`);
      const stored = StoredLabelsSchema.safeParse(raw);
      if (!stored.success)
        throw new Error(
          `The labels of row ${n} of run ${runId} cannot be read (${issueText(stored.error)}).`,
        );
      after.set(n, applyLabelEdits(stored.data, byRow.get(n)!, plainAnnotator));
    });
    // Absent fields are written as undefined, which removes them from the stored row.
    await db.rowItems.bulkUpdate(
      [...after].map(([n, { labels, annotations }]) => ({
        key: [runId, n] as [string, number],
        changes: { labels, annotations },
      })),
    );
    return after;
  });
}
