// The alignment screen's labelling tab: the question to label, and the rows to label for it, one at a time.
import { useMemo } from 'react';
import type { Question } from '../../../contract';
import { activeEstimateOf, defaultLabelOrder, plannedOrder } from '../../../core/alignment/labelOrder';
import type { LabelOrder } from '../../../core/alignment/labelOrder';
import { hashText } from '../../../core/robustness/random';
import type { RowRun } from '../../../core/rows/records';
import type { ResultRow } from '../../../core/rows/results';
import type { RowsState } from '../../stores/rows';
import type { AlignmentState } from './alignmentStore';
import { ActiveEstimate } from '../../components/ActiveEstimate';
import { LabelOrderSettings } from './LabelOrderSettings';
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
  const definition = run.questions[labelQuestion] as Question;
  const seed = hashText(run.id);
  const order = run.labelOrders?.[labelQuestion] ?? defaultLabelOrder(seed);
  const ordered = useOrderedRows(rows, labelQuestion, definition, order);
  const estimate = useActiveEstimate(
    rows.results(),
    rows.resultsVersion,
    labelQuestion,
    definition,
    order,
    align.labeller,
  );
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
      <LabelOrderSettings
        definition={definition}
        order={order}
        rowCount={ordered.length}
        seed={seed}
        onOrder={(next) => void rows.setLabelOrder(labelQuestion, next)}
      />
      <LabellingView
        key={`${run.id}:${labelQuestion}:${order.kind}`}
        question={labelQuestion}
        definition={definition}
        rows={ordered}
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
      {order.kind === 'active' && (
        <ActiveEstimate definition={definition} target={order.target} estimate={estimate?.estimate ?? null} />
      )}
    </>
  );
}

/** The active order's estimate from the labels so far (the labeller's own when named); null in another order. */
function useActiveEstimate(
  results: readonly ResultRow[],
  version: number,
  question: string,
  definition: Question,
  order: LabelOrder,
  labeller: string,
) {
  return useMemo(
    () =>
      // Only active order has an estimate: no pass over the rows for a label in another order.
      order.kind !== 'active'
        ? null
        : activeEstimateOf(
            // In file order, as the design was planned.
            results.map((r) => ({
              number: r.number,
              answer: r.response?.answers[question],
              label: labelOfRow(r, question, labeller),
            })),
            definition,
            order,
          ),
    // A label given changes the results' version, not the rows' order.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [results, version, question, definition, order, labeller],
  );
}

/** The open run's rows in the question's labelling order; planned again only when the answers or the order change. */
function useOrderedRows(rows: RowsState, question: string, definition: Question, order: LabelOrder) {
  const results = rows.results();
  const answered = rows.progress?.done ?? 0;
  const numbers = useMemo(
    () =>
      plannedOrder(
        results.map((r) => ({ number: r.number, answer: r.response?.answers[question] })),
        definition,
        order,
      ).numbers,
    // The answers change only while the run answers rows; a label does not move a row.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [results, answered, question, definition, order],
  );
  // A label replaces its row's object: the rows are looked up again at each version, in the planned order.
  const version = rows.resultsVersion;
  return useMemo(() => {
    const byNumber = new Map(results.map((r) => [r.number, r]));
    return numbers.map((n) => byNumber.get(n)!);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [numbers, results, version]);
}
