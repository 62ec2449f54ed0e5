// The alignment screen's labelling tab: the question to label, and the rows to label for it, one at a time.
import type { Question } from '../../../contract';
import type { RowRun } from '../../../core/rows/records';
import type { ResultRow } from '../../../core/rows/results';
import type { RowsState } from '../../stores/rows';
import type { AlignmentState } from './alignmentStore';
import { LabellingView } from './LabellingView';
import { labelOfRow } from './rowText';

export interface LabelRowsTabProps {
  run: RowRun;
  rows: RowsState;
  align: AlignmentState;
  byNumber: ReadonlyMap<number, ResultRow>;
}

export function LabelRowsTab({ run, rows, align, byNumber }: LabelRowsTabProps) {
  const names = Object.keys(run.questions);
  const labelQuestion =
    align.labelQuestion && names.includes(align.labelQuestion) ? align.labelQuestion : names[0]!;
  return (
    <>
      <label>
        Question to label{' '}
        <select
          value={labelQuestion}
          onChange={(e) => align.setLabelQuestion(e.currentTarget.value)}
          data-testid="align.labelling.question"
        >
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <LabellingView
        key={`${run.id}:${labelQuestion}`}
        question={labelQuestion}
        definition={run.questions[labelQuestion] as Question}
        rows={rows.results()}
        mapping={run.mapping}
        revealed={align.revealed}
        onReveal={align.setRevealed}
        labeller={align.labeller}
        onLabeller={align.setLabeller}
        onLabel={(number, value) => {
          // With a name, the label and its undo are that labeller's own: another's is never touched.
          const annotator = align.labeller || undefined;
          const row = byNumber.get(number);
          const previous = (row && labelOfRow(row, labelQuestion, align.labeller)) ?? null;
          align.pushStep({
            number,
            question: labelQuestion,
            previous,
            ...(annotator ? { annotator } : {}),
          });
          void rows.setLabel(number, labelQuestion, value, annotator);
        }}
        onUndo={() => {
          const step = align.popStep();
          if (!step) return null;
          void rows.setLabel(step.number, step.question, step.previous, step.annotator);
          return step.number;
        }}
      />
    </>
  );
}
