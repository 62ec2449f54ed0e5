// Human labels kept with a session's alignment report: each labelled row's id (as in its file), its labels by
// question and every annotator's where several labelled, so they travel in session files and share links; and the
// plan for putting them back on a run whose rows lack them (rows matched by id, every value checked against the run's
// questions).
import { z } from 'zod';
import type { Questions } from '../../contract';
import { plural } from '../words';
import { LabelValueSchema, validLabel } from '../labels/values';
import { AnnotationsSchema } from '../labels/annotators';
import type { Annotations, LabelEdit, LabelValue } from '../labels';

/**
 * One labelled row as a session keeps it: the file's row id, the labels by question and, where several annotators
 * labelled a question, each one's label (absent in sessions kept before annotators; they parse as before).
 */
export const LabelledRowSchema = z.object({
  id: z.string(),
  labels: z.record(z.string(), LabelValueSchema),
  annotations: AnnotationsSchema.optional(),
});
export type LabelledRow = z.infer<typeof LabelledRowSchema>;

/** A row as the plan reads it: its number in the run, the file's id, the labels it has and each annotator's. */
export interface LabelRow {
  number: number;
  id: string;
  labels?: Record<string, LabelValue>;
  annotations?: Annotations;
}

const copyAnnotations = (annotations: Annotations): Annotations =>
  Object.fromEntries(Object.entries(annotations).map(([question, given]) => [question, { ...given }]));

/** The labelled rows of a run, in row order, with every annotator's labels (rows without a label are left out). */
export function labelledRowsOf(rows: Iterable<Omit<LabelRow, 'number'>>): LabelledRow[] {
  const out: LabelledRow[] = [];
  for (const row of rows) {
    const annotated = row.annotations && Object.keys(row.annotations).length > 0;
    if ((row.labels && Object.keys(row.labels).length > 0) || annotated)
      out.push({
        id: row.id,
        labels: { ...row.labels },
        ...(annotated ? { annotations: copyAnnotations(row.annotations!) } : {}),
      });
  }
  return out;
}

/** One label to store on a row of the run. */
export type LabelChange = LabelEdit & { value: LabelValue };

/** What taking a session's labels would do to a run. */
export interface LabelTakePlan {
  /** Labels the run's rows lack, to store. */
  changes: LabelChange[];
  /** Rows of the run that gain a label. */
  rows: number;
  /** Labelled rows of the session whose id is on no row of the run. */
  unmatched: number;
  /** Labels whose value fits no question of the run any more (an unknown choice label, a level out of range). */
  misfit: number;
  /** Labels the run already has with another value: the run's own are kept. */
  differing: number;
}

/**
 * Matches a session's labelled rows to a run's rows by id and lists the labels the run lacks. A repeated id pairs in
 * order (the first kept row with that id to the first run row with it), as both came from the order of one file.
 * Where the session keeps annotators' labels of a question, each is taken as that annotator's (the row's label then
 * follows as their majority) and the kept majority itself is not taken again.
 */
export function planLabelTake(
  labelled: readonly LabelledRow[],
  rows: readonly LabelRow[],
  questions: Questions,
): LabelTakePlan {
  const byId = new Map<string, LabelRow[]>();
  for (const row of [...rows].sort((a, b) => a.number - b.number)) {
    const same = byId.get(row.id);
    if (same) same.push(row);
    else byId.set(row.id, [row]);
  }
  const plan: LabelTakePlan = { changes: [], rows: 0, unmatched: 0, misfit: 0, differing: 0 };
  for (const kept of labelled) {
    const row = byId.get(kept.id)?.shift();
    if (!row) {
      plan.unmatched++;
      continue;
    }
    let gains = false;
    const take = (question: string, value: LabelValue, has: LabelValue | undefined, annotator?: string) => {
      const definition = questions[question];
      if (!definition || !validLabel(value, definition)) plan.misfit++;
      else if (has === undefined) {
        plan.changes.push({
          number: row.number,
          question,
          value,
          ...(annotator !== undefined ? { annotator } : {}),
        });
        gains = true;
      } else if (has !== value) plan.differing++;
    };
    for (const [question, value] of Object.entries(kept.labels))
      if (!kept.annotations?.[question]) take(question, value, row.labels?.[question]);
    for (const [question, byAnnotator] of Object.entries(kept.annotations ?? {}))
      for (const [annotator, value] of Object.entries(byAnnotator))
        take(question, value, row.annotations?.[question]?.[annotator], annotator);
    if (gains) plan.rows++;
  }
  return plan;
}

/** The plan in sentences: what the session keeps, and every label that will not be taken and why. */
export function labelTakeSentence(plan: LabelTakePlan, keptRows: number, fileName: string): string {
  const parts = [`The session keeps labels of ${plural(keptRows, 'row')} of ${fileName}.`];
  if (plan.unmatched > 0)
    parts.push(
      `${plan.unmatched === 1 ? '1 of them matches' : `${plan.unmatched} of them match`} no row of this run by id.`,
    );
  if (plan.misfit > 0)
    parts.push(
      `${plural(plan.misfit, 'label')} no longer ${plan.misfit === 1 ? 'fits' : 'fit'} the questions (a label the choice lacks, a level out of range, or a question this run lacks) and ${plan.misfit === 1 ? 'is' : 'are'} skipped.`,
    );
  if (plan.differing > 0)
    parts.push(
      `${plural(plan.differing, 'label')} ${plan.differing === 1 ? 'differs' : 'differ'} from the run’s own, which ${plan.differing === 1 ? 'is' : 'are'} kept.`,
    );
  return parts.join(' ');
}
