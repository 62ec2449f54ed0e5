// Labelling one row at a time: the row's state, the question's options as buttons and keys (1-9 then letters; y/n
// for yes/no), Backspace to undo, S to skip, and progress. The judge's answer stays hidden until revealed, so it
// cannot anchor the labeller; after each label the previous row's answer is shown next to the label given. With a
// labeller's name the view is blind: each label is that labeller's own, the rows left are those they have not
// labelled, and neither the judge's answer nor another labeller's label is ever shown. Keys act only while the view
// has focus, so they never override an editor's own.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { Question } from '../../../contract';
import { labelText } from '../../../core/labels/values';
import type { LabelValue } from '../../../core/alignment/types';
import type { RowMapping } from '../../../core/rows/mapping';
import type { ResultRow } from '../../../core/rows/results';
import { CommitInput } from '../../components/CommitInput';
import { labelKeyAction, labelOptions } from '../../components/labelKeys';
import { distributionText, labelOfRow, stateOf, stateText } from './rowText';

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

export function LabellingView({
  question,
  definition,
  rows,
  mapping,
  revealed,
  onReveal,
  labeller,
  onLabeller,
  onLabel,
  onUndo,
}: LabellingViewProps) {
  const nameId = useId();
  const [skipped, setSkipped] = useState<ReadonlySet<number>>(new Set());
  // Rows labelled here move on at once, before the save reaches the rows: a fast labeller never labels one row twice.
  const [given, setGiven] = useState<ReadonlySet<number>>(new Set());
  const [pinned, setPinned] = useState<number | null>(null);
  const [last, setLast] = useState<{ number: number; value: LabelValue } | null>(null);
  // What Backspace undoes, newest last: a skip is undone here; a label by the screen's history (onUndo).
  const [steps, setSteps] = useState<readonly { kind: 'skip' | 'label'; number: number }[]>([]);
  const box = useRef<HTMLDivElement>(null);
  // Another labeller starts afresh: rows given, skipped or pinned by the one before are theirs, not this one's.
  const [forLabeller, setForLabeller] = useState(labeller);
  if (forLabeller !== labeller) {
    setForLabeller(labeller);
    setSkipped(new Set());
    setGiven(new Set());
    setPinned(null);
    setLast(null);
    setSteps([]);
  }
  const blind = labeller !== '';
  const labelOf = (row: ResultRow) => labelOfRow(row, question, labeller);
  // The keys work from the start: the card has the focus when it opens, not the tab that opened it.
  useEffect(() => {
    box.current?.focus();
  }, []);
  const options = useMemo(() => labelOptions(definition), [definition]);
  const labelled = rows.filter((r) => labelOf(r) !== undefined).length;
  const current =
    (pinned !== null ? rows.find((r) => r.number === pinned) : undefined) ??
    rows.find((r) => labelOf(r) === undefined && !skipped.has(r.number) && !given.has(r.number)) ??
    null;

  const give = (value: LabelValue) => {
    if (!current) return;
    onLabel(current.number, value);
    setSteps((s) => [...s.slice(-199), { kind: 'label', number: current.number }]);
    setGiven((g) => new Set(g).add(current.number));
    setLast({ number: current.number, value });
    setPinned(null);
    box.current?.focus();
  };
  const skip = () => {
    if (!current) return;
    setSkipped((s) => new Set(s).add(current.number));
    setSteps((s) => [...s.slice(-199), { kind: 'skip', number: current.number }]);
    setPinned(null);
    box.current?.focus();
  };
  const undo = () => {
    const step = steps[steps.length - 1];
    if (step) setSteps(steps.slice(0, -1));
    if (step?.kind === 'skip') {
      setSkipped((s) => {
        const next = new Set(s);
        next.delete(step.number);
        return next;
      });
      setPinned(step.number);
      box.current?.focus();
      return;
    }
    const number = onUndo();
    if (number !== null) {
      setGiven((g) => {
        const next = new Set(g);
        next.delete(number);
        return next;
      });
      setPinned(number);
      setLast(null);
    }
    box.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const action = labelKeyAction(event, options);
    if (!action) return;
    event.preventDefault();
    if (action.kind === 'back') undo();
    else if (action.kind === 'skip') skip();
    else give(action.value);
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
        {blind
          ? `Labels are kept as ${labeller}’s own. The judge’s answers and other labellers’ labels stay hidden.`
          : 'With a name, each label is kept as yours apart from other people’s, and the judge’s answers stay hidden. Enter or leaving the field applies it.'}
      </p>
      <p className="align-labelling__progress" role="status" data-testid="align.labelling.progress">
        {labelled} of {rows.length} labelled{blind ? ` by ${labeller}` : ''}
        {skipped.size > 0 ? ` · ${skipped.size} skipped` : ''}
      </p>
      <p className="muted align-labelling__keys" data-testid="align.labelling.keys">
        Keys:{' '}
        {options.map((o) => (
          <span key={o.key}>
            <kbd>{o.key}</kbd> {o.text} ·{' '}
          </span>
        ))}
        <kbd>s</kbd> skip · <kbd>Backspace</kbd> undo the last label or skip. They work while this card has
        the focus (click it or Tab to it).
      </p>
      {lastRow && last && (
        <p className="muted" data-testid="align.labelling.last">
          Row {lastRow.id}: your label {labelText(last.value, definition)}
          {blind ? '' : ` · the judge: ${distributionText(lastRow.response?.answers[question])}`}
        </p>
      )}
      {current ? (
        <>
          <h3>
            Row {current.id} <span className="muted">(line {current.line})</span>
          </h3>
          <pre className="align-state" data-testid="align.labelling.state">
            {stateText(stateOf(current, mapping))}
          </pre>
          <div className="align-labelling__options">
            {options.map((o) => (
              <button
                key={String(o.value)}
                type="button"
                aria-keyshortcuts={o.key}
                aria-pressed={labelOf(current) === o.value}
                onClick={() => give(o.value)}
                data-testid={`align.labelling.option.${String(o.value)}`}
              >
                <kbd>{o.key}</kbd> {o.text}
              </button>
            ))}
            <button type="button" aria-keyshortcuts="s" onClick={skip}>
              <kbd>s</kbd> Skip
            </button>
            <button type="button" aria-keyshortcuts="Backspace" onClick={undo}>
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
            <p data-testid="align.labelling.judge">
              Judge: {distributionText(current.response?.answers[question])}
            </p>
          )}
        </>
      ) : (
        <p data-testid="align.labelling.done">
          {skipped.size > 0
            ? `Every row is labelled or skipped (${skipped.size} skipped).`
            : blind
              ? `Every row has a label by ${labeller} for this question.`
              : 'Every row has a label for this question.'}{' '}
          {skipped.size > 0 && (
            <button type="button" className="link-button" onClick={() => setSkipped(new Set())}>
              Go through the skipped rows
            </button>
          )}
        </p>
      )}
    </div>
  );
}
