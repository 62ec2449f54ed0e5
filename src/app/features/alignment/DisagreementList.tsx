// The rows where judge and label differ, confident mistakes first: each with its state, the judge's distribution and
// the label, and a button that opens the row in the main screen as the state, to reword the question on that case.
import { useState } from 'react';
import type { Question } from '../../../contract';
import type { Disagreement } from '../../../core/alignment/compute';
import { labelText } from '../../../core/labels/values';
import type { RowMapping } from '../../../core/rows/mapping';
import type { ResultRow } from '../../../core/rows/results';
import { distributionText, stateOf, stateText } from './rowText';

export interface DisagreementListProps {
  question: string;
  definition: Question;
  items: readonly Disagreement[];
  rowOf: (number: number) => ResultRow | undefined;
  mapping: RowMapping;
  onOpen: (row: ResultRow) => void;
  /** Rows shown; the rest are counted. */
  limit?: number;
  /** How many rows there are in all, when the report lists only the first of them. */
  total?: number;
  title?: string;
  /** Opens every row of the list in the rows screen, filtered (the report keeps only the first of them). */
  onOpenAll?: () => void;
}

export function DisagreementList(props: DisagreementListProps) {
  const { question, items, limit = 20, total = items.length, title } = props;
  // Every list that is cut offers the rest: a page more at a time here, and all of them in the rows screen.
  const [shown, setShown] = useState(limit);
  const visible = Math.min(shown, items.length);
  const name = title ?? `Disagreements on ${question}`;
  return (
    <section
      className="align-disagreements"
      aria-label={title ?? `Disagreements on ${question}`}
      data-testid={`align.disagreements.${question}`}
    >
      <h4>{title ?? `Disagreements, most confident mistakes first (${total})`}</h4>
      {total === 0 && <p className="muted">None.</p>}
      <ol>
        {items.slice(0, visible).map((d) => {
          const row = props.rowOf(Number(d.id));
          if (!row) return null;
          return <DisagreementItem key={d.id} {...props} disagreement={d} row={row} />;
        })}
      </ol>
      {/* A list that was cut keeps "Open all" once paged to its end: the rows screen filters and exports them. */}
      {(total > visible || (props.onOpenAll && total > limit)) && (
        <p className="align-more" data-testid="align.disagreements.more">
          <span className="muted">
            Showing {visible} of {total}.
          </span>{' '}
          {items.length > visible && (
            <button
              type="button"
              onClick={() => setShown((n) => n + limit)}
              aria-label={`Show ${Math.min(limit, items.length - visible)} more of ${name}`}
              data-testid="align.disagreements.showMore"
            >
              Show {Math.min(limit, items.length - visible)} more
            </button>
          )}{' '}
          {props.onOpenAll && (
            <button
              type="button"
              onClick={props.onOpenAll}
              aria-label={`Open all ${total} of ${name} in the rows screen`}
              data-testid="align.disagreements.openAll"
            >
              Open all {total} in the rows screen
            </button>
          )}
        </p>
      )}
    </section>
  );
}

type DisagreementItemProps = DisagreementListProps & { disagreement: Disagreement; row: ResultRow };

/** One disagreement: the row, its label and the judge's answer, its state, and opening it in a new session. */
function DisagreementItem({
  question,
  definition,
  mapping,
  onOpen,
  disagreement: d,
  row,
}: DisagreementItemProps) {
  return (
    <li className="align-disagreement" data-testid="align.disagreement">
      <div className="align-disagreement__head">
        <span>
          Row <strong>{row.id}</strong> · label <strong>{labelText(d.label, definition)}</strong> · judge{' '}
          <strong>{labelText(d.predicted, definition)}</strong>
          {Number.isFinite(d.pPredicted) &&
            ` at ${d.pPredicted.toFixed(2)} (the label got ${d.pLabel.toFixed(2)})`}
        </span>
        <button
          type="button"
          onClick={() => onOpen(row)}
          title="Opens the row in the main screen as a new session, with the run’s questions, model and target; the session open now stays as it is."
          data-testid="align.disagreement.open"
        >
          Open in a new session
        </button>
      </div>
      <pre className="align-state">{stateText(stateOf(row, mapping))}</pre>
      <p className="muted">{distributionText(row.response?.answers[question])}</p>
    </li>
  );
}
