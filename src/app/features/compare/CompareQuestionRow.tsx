// One question across the columns: a chart per column on shared axes, the differences as numbers, a flag when the
// columns disagree by more than the threshold.
import type { ReactNode } from 'react';
import type { ComparedCell, ComparedQuestion } from '../../../core/compare';
import { KIND_NAME } from '../../components/answers/kindName';
import { CellMetrics } from './CellMetrics';
import { formatDistance } from './format';

export interface CompareQuestionRowProps {
  question: ComparedQuestion;
  /** A short name per column ("model-1.12.0 on local"), same order as the cells. */
  columnLabels: string[];
  threshold: number;
  /** Draws one column's answer on the question's shared axes; only called for cells with an answer. */
  renderAnswer: (cell: ComparedCell, question: ComparedQuestion) => ReactNode;
  /** Why a cell has no answer, by column id (not run, failed, cancelled, running). */
  missingReason: (columnId: string) => string;
}

/** The disagreement in words for the row header and screen readers; refusals are named apart, never measured. */
function disagreementText(q: ComparedQuestion, threshold: number, columnLabels: string[]): string {
  const refusedBy = q.refusedColumnIds.map(
    (id) => columnLabels[q.cells.findIndex((c) => c.columnId === id)] ?? id,
  );
  const refused = refusedBy.length > 0 ? `Refused by ${refusedBy.join(', ')}` : '';
  if (q.disagreement === null)
    return refused
      ? `${refused}: a refusal has no probabilities, so no disagreement is measured against it.`
      : 'No disagreement yet: the baseline and another column must both answer.';
  const measure = q.type === 'noul' ? '|Δ p(yes)|' : 'TVD';
  return `Disagreement ${formatDistance(q.disagreement)} (largest ${measure} from the baseline)${
    q.flagged ? `, above the threshold ${threshold.toFixed(2)}` : ''
  }${refused ? `. ${refused}.` : ''}`;
}

/** One question of the comparison. */
export function CompareQuestionRow({
  question,
  columnLabels,
  threshold,
  renderAnswer,
  missingReason,
}: CompareQuestionRowProps) {
  const headingId = `cmp-q-${question.index}`;
  const baseline = question.cells[0]?.answer;
  return (
    <article
      className={`cmp-question${question.flagged ? ' cmp-flagged' : ''}`}
      aria-labelledby={headingId}
      data-testid="compare.question"
      data-question={question.name}
      data-flagged={question.flagged}
      data-disagreement={question.disagreement ?? ''}
    >
      <header className="cmp-question-header">
        <h3 id={headingId}>
          {question.name} <span className="cmp-kind">{KIND_NAME[question.type]}</span>
        </h3>
        {question.flagged && (
          <span className="cmp-flag" data-testid="compare.flag">
            Flagged
          </span>
        )}
        <p className="cmp-disagreement" data-testid="compare.disagreement">
          {disagreementText(question, threshold, columnLabels)}
        </p>
        {question.type === 'score' && (
          <ol className="cmp-levels" start={0} aria-label="Levels" data-testid="compare.levels">
            {question.labels.map((level, i) => (
              <li key={level}>
                <span className="num">{level}</span> {question.labelTexts[i] ?? ''}
              </li>
            ))}
          </ol>
        )}
      </header>
      <div
        className="cmp-cells"
        style={{ gridTemplateColumns: `repeat(${question.cells.length}, minmax(0, 1fr))` }}
      >
        {question.cells.map((cell, i) => (
          <div
            key={cell.columnId}
            className={`cmp-cell${cell.columnId === question.mostDifferentColumnId && question.flagged ? ' cmp-most-different' : ''}`}
            role="group"
            aria-label={`${question.name}: ${columnLabels[i] ?? `column ${i + 1}`}`}
            data-testid="compare.cell"
            data-column-index={i}
          >
            {cell.answer ? (
              renderAnswer(cell, question)
            ) : (
              <p className="cmp-missing">{missingReason(cell.columnId)}</p>
            )}
            {cell.metrics && (
              <CellMetrics
                metrics={cell.metrics}
                baselineChoice={baseline?.type === 'choice' ? baseline.choice : undefined}
                choice={cell.answer?.type === 'choice' ? cell.answer.choice : undefined}
              />
            )}
            {i === 0 && cell.answer && <p className="cmp-baseline-note">Baseline</p>}
          </div>
        ))}
      </div>
    </article>
  );
}
