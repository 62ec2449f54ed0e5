// The label and metadata columns of a mapping as edits: which column a question's annotator reads, the level base,
// a value table's choices, and which columns are still free.
import type { LabelColumn } from '../../../core/labels/values';
import type { RowMapping } from '../../../core/rows/mapping';

/** The mapping's label columns with the edits the form makes to them. */
export function useLabelColumnEdits(
  mapping: RowMapping,
  columns: readonly string[],
  onChange: (mapping: RowMapping) => void,
) {
  const labels = mapping.labels ?? [];
  const metadata = mapping.metadata ?? [];
  const setLabels = (next: LabelColumn[]) => onChange({ ...mapping, labels: next });
  const specsOf = (question: string) => labels.filter((l) => l.question === question);
  const specOf = (column: string) => labels.find((l) => l.column === column);
  /** Sets the question's column at `at` (one past the last adds an annotator; '' removes that one). */
  const setColumn = (question: string, at: number, column: string) => {
    const mine = specsOf(question);
    const levelBase = mine[0]?.levelBase ?? 0;
    const next = [...mine];
    if (!column) next.splice(at, 1);
    else next.splice(at, 1, { column, question, levelBase, values: {} });
    setLabels([...labels.filter((l) => l.question !== question), ...next]);
  };
  // The level base is the question's scale, so it is the same for each of its annotators.
  const setLevelBase = (question: string, levelBase: 0 | 1) =>
    setLabels(labels.map((l) => (l.question === question ? { ...l, levelBase } : l)));
  const setValues = (column: string, values: LabelColumn['values']) =>
    setLabels(labels.map((l) => (l.column === column ? { ...l, values } : l)));
  const setMetadata = (column: string, on: boolean) =>
    onChange({ ...mapping, metadata: on ? [...metadata, column] : metadata.filter((x) => x !== column) });
  const used = new Set([...labels.map((l) => l.column), mapping.idColumn ?? '']);
  const several = (question: string) => specsOf(question).length > 1;
  /** Test ids of a column's value table: by question, and by column too where the question has several. */
  const tableId = (question: string, column: string) =>
    several(question) ? `${question}.${column}` : question;
  const choices = (own: string | undefined) =>
    columns.filter((c) => c === own || (!used.has(c) && !metadata.includes(c)));
  return {
    metadata,
    used,
    specsOf,
    specOf,
    setColumn,
    setLevelBase,
    setValues,
    setMetadata,
    several,
    tableId,
    choices,
  };
}

/** The edits as the form's pieces receive them. */
export type LabelColumnEdits = ReturnType<typeof useLabelColumnEdits>;
