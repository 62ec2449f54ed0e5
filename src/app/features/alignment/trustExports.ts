// The files the trust panel saves: which judge of a cascade settled each row, and the labelling queue (the rows the
// judge does not settle, for people).
import type { Answer, Question } from '../../../contract';
import { topProbabilityOf } from '../../../core/alignment/labellingQueue';
import { exportCsv, exportInputColumns } from '../../../core/rows/results';
import { exportJsonl } from '../../../core/rows/exportJsonl';
import type { ResultRow } from '../../../core/rows/results';
import type { TrustFigures } from '../../../core/trust';
import { downloadParts } from '../../platform/download';
import { useRows } from '../../stores/rows';
import type { AlignmentState } from './alignmentStore';

/** An answer as the cascade export writes it: the choice, the level, or yes/no. */
function answerText(answer: Answer | undefined): string {
  if (!answer) return '';
  if (answer.type === 'choice') return answer.choice;
  if (answer.type === 'score') return String(answer.score);
  if (answer.type === 'noul') return answer.noul >= 0.5 ? 'yes' : 'no';
  return '';
}

export interface CascadeExport {
  name: string;
  definition: Question;
  trust: TrustFigures;
  /** The answers of the cascade's later judges, by row id. */
  laterJudges: AlignmentState['cascadeRows'];
  fileBase: string;
}

/** Saves, for every row of the open run, the first judge whose confidence reaches its certified threshold. */
export function exportCascade({ name, definition, trust, laterJudges, fileBase }: CascadeExport): void {
  const state = useRows.getState();
  const steps = trust.cascade?.judges ?? [];
  const lines = [['row_id', 'settled_by', 'answer', 'confidence']];
  for (const row of state.results()) {
    const id = String(row.number);
    // The first judge whose confidence reaches its certified threshold settles the row; none: a person does.
    const answers = [row.response?.answers[name], ...laterJudges.map((j) => j.byId.get(id)?.answers?.[name])];
    let settled = ['person', '', ''];
    for (let i = 0; i < steps.length; i++) {
      const t = steps[i]!.threshold;
      const answer = answers[i];
      const top = topProbabilityOf(answer, definition);
      if (t !== null && top !== null && top >= t) {
        settled = [steps[i]!.name, answerText(answer), top.toFixed(3)];
        break;
      }
    }
    lines.push([row.id, ...settled]);
  }
  const csv = lines
    .map((l) => l.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','))
    .join('\r\n');
  downloadParts(`${fileBase}-${name}-cascade.csv`, 'text/csv;charset=utf-8', [`${csv}\r\n`]);
}

/** Saves the rows people should label for one question, as CSV or JSONL. */
export function exportQueue(
  queue: ResultRow[],
  { name, definition, fileBase }: Pick<CascadeExport, 'name' | 'definition' | 'fileBase'>,
  kind: 'csv' | 'jsonl',
): void {
  const state = useRows.getState();
  const questions = { [name]: definition };
  const file = `${fileBase}-${name}-labelling-queue.${kind}`;
  if (kind === 'csv')
    downloadParts(
      file,
      'text/csv;charset=utf-8',
      exportCsv(queue, questions, exportInputColumns(queue, state.openRun?.columns ?? [])),
    );
  else downloadParts(file, 'application/x-ndjson;charset=utf-8', exportJsonl(queue));
}
