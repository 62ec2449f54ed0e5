// A workspace queue's labels brought into the run it was published from, so the owner's alignment screen reads the
// team's labels: each person's label becomes that person's annotation of the row (the row's label is then the
// majority), matched by the row's key as publishedRows wrote it. Only what differs is returned, so following a queue
// live writes nothing when nothing changed.
import type { Questions } from '../../contract';
import { plural } from '../../contract/text';
import type { StoredLabel } from '../../contract/workspace';
import type { LabelEdit } from '../labels/columns';
import type { ResultRow } from '../rows/results';

export interface PulledLabels {
  /** The edits that bring the run to the queue's labels (new labels and edited ones). */
  edits: LabelEdit[];
  /** Labels in the run: the queue's labels whose row and question the run has. */
  matched: number;
  /** Labels whose row key or question the run does not have (another run's queue, or a question renamed). */
  unmatched: number;
  /** The people whose labels the run holds, by name. */
  people: string[];
}

/** The key a published row carries (core/workspace/publish.ts): the id column, or the row's number. */
export const publishedKeyOf = (row: Pick<ResultRow, 'id' | 'number'>): string => row.id || String(row.number);

export function pullLabels(
  labels: readonly StoredLabel[],
  rows: readonly ResultRow[],
  questions: Questions,
): PulledLabels {
  const byKey = new Map(rows.map((row) => [publishedKeyOf(row), row]));
  const edits: LabelEdit[] = [];
  const people = new Set<string>();
  let matched = 0;
  for (const label of labels) {
    const row = byKey.get(label.key);
    if (!row || !(label.question in questions)) continue;
    matched++;
    people.add(label.name);
    if (row.annotations?.[label.question]?.[label.name] === label.value) continue;
    edits.push({ number: row.number, question: label.question, value: label.value, annotator: label.name });
  }
  return { edits, matched, unmatched: labels.length - matched, people: [...people].sort() };
}

/** What following a queue holds, in a sentence: the labels in the run, from whom, and what the run could not hold. */
export function pulledSentence({ matched, unmatched, people }: PulledLabels): string {
  const whom = people.length ? ` (${people.join(', ')})` : '';
  const who = people.length === 1 ? '1 person' : `${people.length} people`;
  const left = unmatched ? `; ${unmatched} on rows or questions this run does not have, left out` : '';
  return `${plural(matched, 'label')} from ${who}${whom} in this run, each their own${left}.`;
}
