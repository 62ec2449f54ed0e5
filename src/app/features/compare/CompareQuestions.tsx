// The comparison question by question: which column is which kept in view while the questions scroll, then each
// question listed (sorted, or only the flagged) on shared axes; or why there is nothing to list.
import type { ReactNode } from 'react';
import type { ComparedCell, ComparedQuestion, Comparison } from '../../../core/compare';
import type { CompareColumn, RunRecord } from '../../../core/session';
import { columnLabel, columnTitle } from './CompareColumnHeader';
import { CompareQuestionRow } from './CompareQuestionRow';

export interface CompareQuestionsProps {
  columns: readonly CompareColumn[];
  lastRuns: readonly (RunRecord | undefined)[];
  comparison: Comparison;
  /** The questions listed, in the order chosen. */
  listed: readonly ComparedQuestion[];
  threshold: number;
  renderAnswer: (cell: ComparedCell, question: ComparedQuestion, columnIndex: number) => ReactNode;
  missingReason: (columnId: string) => string;
}

export function CompareQuestions(props: CompareQuestionsProps) {
  const { columns, comparison, listed, threshold } = props;
  if (comparison.questions.length === 0)
    return (
      <p className="cmp-empty" data-testid="compare.empty">
        Run the columns to compare their answers question by question.
      </p>
    );
  if (listed.length === 0)
    return <p className="cmp-empty">No question disagrees by more than {threshold.toFixed(2)}.</p>;
  return (
    <>
      <StickyNames {...props} />
      <ol className="cmp-questions" aria-label="Questions compared">
        {listed.map((q) => (
          <li key={q.name}>
            <CompareQuestionRow
              question={q}
              columnLabels={columns.map(columnLabel)}
              threshold={threshold}
              renderAnswer={(cell, question) =>
                props.renderAnswer(
                  cell,
                  question,
                  question.cells.findIndex((c) => c.columnId === cell.columnId),
                )
              }
              missingReason={props.missingReason}
            />
          </li>
        ))}
      </ol>
    </>
  );
}

/** Kept in view while the questions scroll: which column is which, and how many are flagged. */
function StickyNames({ columns, lastRuns, comparison }: CompareQuestionsProps) {
  return (
    <div className="cmp-sticky" data-testid="compare.sticky">
      <p className="cmp-sticky-count" data-testid="compare.stickyCount">
        {comparison.flaggedCount} of {comparison.questions.length} flagged
      </p>
      <div className="cmp-names" style={{ gridTemplateColumns: `repeat(${columns.length}, minmax(0, 1fr))` }}>
        {columns.map((c, i) => {
          const resolved = lastRuns[i]?.response?.model;
          return (
            <p key={c.id} className="cmp-name" data-testid="compare.columnName">
              <strong>{columnTitle(i)}</strong> <code>{c.model.trim() || 'no model'}</code>
              {resolved && resolved !== c.model.trim() && <> → {resolved}</>}
              <span className="muted"> · {c.targetId}</span>
            </p>
          );
        })}
      </div>
    </div>
  );
}
