// Labelling one row at a time: the row's state, the question's options as buttons and keys (1-9 then letters; y/n
// for yes/no), Backspace to undo, S to skip, and progress. The judge's answer stays hidden until revealed, so it
// cannot anchor the labeller; after each label the previous row's answer is shown next to the label given. With a
// labeller's name the view is blind: each label is that labeller's own, the rows left are those they have not
// labelled, and neither the judge's answer nor another labeller's label is ever shown. Keys act only while the view
// has focus, so they never override an editor's own.
import { useEffect, useId, useMemo } from 'react';
import type { KeyboardEvent } from 'react';
import type { Question } from '../../../contract';
import { labelText } from '../../../core/labels/values';
import type { LabelValue } from '../../../core/alignment/types';
import type { RowMapping } from '../../../core/rows/mapping';
import type { ResultRow } from '../../../core/rows/results';
import { CommitInput } from '../../components/CommitInput';
import { labelKeyAction, labelOptions } from '../../components/labelKeys';
import type { LabelOption } from '../../components/labelKeys';
import { distributionText, stateOf, stateText } from './rowText';
import { useLabellingQueue } from './useLabellingQueue';

// The keys are shared with the workspace's labeller screen (components/labelKeys.ts).
export { labelOptions } from '../../components/labelKeys';

export interface LabellingViewProps {
  question: string;
  definition: Question;
  rows: readonly ResultRow[];
  mapping: RowMapping;
  revealed: boolean;
  onReveal: (revealed: boolean) => void;
  /** The labeller's name, '' for none: with a name, labels are theirs and the view is blind. */
  labeller: string;
  onLabeller: (name: string) => void;
  /** Saves a label (null clears it), the labeller's own when one is named. */
  onLabel: (number: number, value: LabelValue | null) => void;
  /** Undoes the last label: returns the row it was given to, or null when there is nothing to undo. */
  onUndo: () => number | null;
}

export function LabellingView(props: LabellingViewProps) {
  const { question, definition, rows, labeller } = props;
  const queue = useLabellingQueue(props);
  const { box, current, last, skipped } = queue;
  const blind = labeller !== '';
  // The keys work from the start: the card has the focus when it opens, not the tab that opened it.
  useEffect(() => {
    box.current?.focus();
  }, [box]);
  const options = useMemo(() => labelOptions(definition), [definition]);
  const labelled = rows.filter((r) => queue.labelOf(r) !== undefined).length;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const action = labelKeyAction(event, options);
    if (!action) return;
    event.preventDefault();
    if (action.kind === 'back') queue.undo();
    else if (action.kind === 'skip') queue.skip();
    else queue.give(action.value);
  };

  const lastRow = last ? rows.find((r) => r.number === last.number) : undefined;
  return (
    <div
      ref={box}
      className="align-labelling panel"
      tabIndex={0}
      role="group"
      aria-label={`Label ${question}, one row at a time. Keys: ${options.map((o) => `${o.key} ${o.text}`).join(', ')}; Backspace undoes; S skips.`}
      onKeyDown={onKeyDown}
      data-testid="align.labelling"
    >
      <LabellerName labeller={labeller} onLabeller={props.onLabeller} />
      <p className="align-labelling__progress" role="status" data-testid="align.labelling.progress">
        {labelled} of {rows.length} labelled{blind ? ` by ${labeller}` : ''}
        {skipped.size > 0 ? ` · ${skipped.size} skipped` : ''}
      </p>
      <LabellingKeys options={options} />
      {lastRow && last && (
        <p className="muted" data-testid="align.labelling.last">
          Row {lastRow.id}: your label {labelText(last.value, definition)}
          {blind ? '' : ` · the judge: ${distributionText(lastRow.response?.answers[question])}`}
        </p>
      )}
      {current ? (
        <CurrentRow {...props} row={current} options={options} queue={queue} />
      ) : (
        <p data-testid="align.labelling.done">
          {skipped.size > 0
            ? `Every row is labelled or skipped (${skipped.size} skipped).`
            : blind
              ? `Every row has a label by ${labeller} for this question.`
              : 'Every row has a label for this question.'}{' '}
          {skipped.size > 0 && (
            <button type="button" className="link-button" onClick={queue.unskipAll}>
              Go through the skipped rows
            </button>
          )}
        </p>
      )}
    </div>
  );
}

/** The labeller's name, and what naming oneself does. */
function LabellerName({ labeller, onLabeller }: { labeller: string; onLabeller: (name: string) => void }) {
  const nameId = useId();
  return (
    <>
      <label className="align-labelling__name">
        Your name (labeller){' '}
        <CommitInput
          id={nameId}
          value={labeller}
          onCommit={(name) => {
            onLabeller(name);
            return null;
          }}
          aria-describedby={`${nameId}-hint`}
          autoComplete="off"
          data-testid="align.labelling.labeller"
        />
      </label>
      <p className="muted" id={`${nameId}-hint`}>
        {labeller !== ''
          ? `Labels are kept as ${labeller}’s own. The judge’s answers and other labellers’ labels stay hidden.`
          : 'With a name, each label is kept as yours apart from other people’s, and the judge’s answers stay hidden. Enter or leaving the field applies it.'}
      </p>
    </>
  );
}

/** The keys the card answers to. */
function LabellingKeys({ options }: { options: readonly LabelOption[] }) {
  return (
    <p className="muted align-labelling__keys" data-testid="align.labelling.keys">
      Keys:{' '}
      {options.map((o) => (
        <span key={o.key}>
          <kbd>{o.key}</kbd> {o.text} ·{' '}
        </span>
      ))}
      <kbd>s</kbd> skip · <kbd>Backspace</kbd> undo the last label or skip. They work while this card has the
      focus (click it or Tab to it).
    </p>
  );
}

interface CurrentRowProps extends LabellingViewProps {
  row: ResultRow;
  options: readonly LabelOption[];
  queue: ReturnType<typeof useLabellingQueue>;
}

/** The row up: its state, the options as buttons, and the judge's answer when revealed (never when blind). */
function CurrentRow({
  row,
  options,
  queue,
  question,
  mapping,
  labeller,
  revealed,
  onReveal,
}: CurrentRowProps) {
  const blind = labeller !== '';
  return (
    <>
      <h3>
        Row {row.id} <span className="muted">(line {row.line})</span>
      </h3>
      <pre className="align-state" data-testid="align.labelling.state">
        {stateText(stateOf(row, mapping))}
      </pre>
      <div className="align-labelling__options">
        {options.map((o) => (
          <button
            key={String(o.value)}
            type="button"
            aria-keyshortcuts={o.key}
            aria-pressed={queue.labelOf(row) === o.value}
            onClick={() => queue.give(o.value)}
            data-testid={`align.labelling.option.${String(o.value)}`}
          >
            <kbd>{o.key}</kbd> {o.text}
          </button>
        ))}
        <button type="button" aria-keyshortcuts="s" onClick={queue.skip}>
          <kbd>s</kbd> Skip
        </button>
        <button type="button" aria-keyshortcuts="Backspace" onClick={queue.undo}>
          <kbd>⌫</kbd> Undo
        </button>
      </div>
      {!blind && (
        <label className="rows-check">
          <input type="checkbox" checked={revealed} onChange={(e) => onReveal(e.currentTarget.checked)} />
          Show the judge’s answer for this row
        </label>
      )}
      {!blind && revealed && (
        <p data-testid="align.labelling.judge">Judge: {distributionText(row.response?.answers[question])}</p>
      )}
    </>
  );
}
