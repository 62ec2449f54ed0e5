// How a row of the run reads on this screen: the state it was sent as (labels and metadata never in it), the label
// the labelling view works on, and the judge's distribution for one question in one line.
import type { Answer, State } from '../../../contract';
import type { LabelValue } from '../../../core/labels';
import { mapRow } from '../../../core/rows/mapping';
import type { RowMapping } from '../../../core/rows/mapping';
import type { ResultRow } from '../../../core/rows/results';

/** The state the row was sent as, or null when it maps to none. */
export function stateOf(row: ResultRow, mapping: RowMapping): State | null {
  const mapped = mapRow(row.data, mapping);
  return mapped.ok ? mapped.state : null;
}

/** The label a row has for a question: the labeller's own when one is named, else the row's label. */
export const labelOfRow = (
  row: Pick<ResultRow, 'labels' | 'annotations'>,
  question: string,
  labeller: string,
): LabelValue | undefined => (labeller ? row.annotations?.[question]?.[labeller] : row.labels?.[question]);

export const stateText = (state: State | null): string =>
  state === null ? '(no state)' : typeof state === 'string' ? state : JSON.stringify(state, null, 2);

/** "billing 0.81 · technical 0.12 · sales 0.07", most probable first; "P(yes) 0.73" for noul. */
export function distributionText(answer: Answer | undefined): string {
  if (!answer) return 'no answer';
  if (answer.type === 'noul') return `P(yes) ${answer.noul.toFixed(2)}`;
  if (answer.type === 'refusal') return 'refused';
  return Object.entries(answer.probabilities)
    .sort((a, b) => b[1] - a[1])
    .map(([k, p]) => `${answer.type === 'score' ? `level ${k}` : k} ${p.toFixed(2)}`)
    .join(' · ');
}
