// One row to label with the keyboard, as props: the row's text, a question's options as buttons and keys (1-9 then
// letters; y/n for yes/no), S to skip, Backspace to go back. Keys act only while the card has focus, so they never
// override an editor's. The workspace's labeller screen uses it; it never receives a judge's answer to show.
import { useEffect, useRef } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import type { LabelValue } from '../../core/labels';
import { labelKeyAction } from './labelKeys';
import type { LabelOption } from './labelKeys';
import './labelCard.css';

export interface KeyboardLabelCardProps {
  /** What the card is about, for the screen reader's name: "Label department for row t3". */
  label: string;
  heading: ReactNode;
  text: string;
  options: readonly LabelOption[];
  /** The value given before on this row and question (shown pressed), if any. */
  chosen?: LabelValue;
  onGive: (value: LabelValue) => void;
  onSkip: () => void;
  onBack: () => void;
  /** Lines above the row: progress, what is kept offline. */
  children?: ReactNode;
  testId: string;
}

export function KeyboardLabelCard(props: KeyboardLabelCardProps) {
  const { options, onGive, onSkip, onBack, testId } = props;
  const box = useRef<HTMLDivElement>(null);
  // The keys work from the start: the card takes the focus when it opens.
  useEffect(() => {
    box.current?.focus();
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const action = labelKeyAction(event, options);
    if (!action) return;
    event.preventDefault();
    if (action.kind === 'back') onBack();
    else if (action.kind === 'skip') onSkip();
    else onGive(action.value);
    box.current?.focus();
  };

  return (
    <div
      ref={box}
      className="label-card panel"
      tabIndex={0}
      role="group"
      aria-label={`${props.label}. Keys: ${options.map((o) => `${o.key} ${o.text}`).join(', ')}; Backspace goes back; S skips.`}
      onKeyDown={onKeyDown}
      data-testid={testId}
    >
      {props.children}
      <p className="muted">
        Keys:{' '}
        {options.map((o) => (
          <span key={o.key}>
            <kbd>{o.key}</kbd> {o.text} ·{' '}
          </span>
        ))}
        <kbd>s</kbd> skip · <kbd>Backspace</kbd> back to the previous question. They work while this card has
        the focus.
      </p>
      <h3>{props.heading}</h3>
      <pre className="label-card__state" data-testid={`${testId}.state`}>
        {props.text}
      </pre>
      <div className="label-card__options">
        {options.map((o) => (
          <button
            key={String(o.value)}
            type="button"
            aria-keyshortcuts={o.key}
            aria-pressed={props.chosen === o.value}
            onClick={() => onGive(o.value)}
            data-testid={`${testId}.option.${String(o.value)}`}
          >
            <kbd>{o.key}</kbd> {o.text}
          </button>
        ))}
        <button type="button" aria-keyshortcuts="s" onClick={onSkip} data-testid={`${testId}.skip`}>
          <kbd>s</kbd> Skip
        </button>
        <button type="button" aria-keyshortcuts="Backspace" onClick={onBack}>
          <kbd>⌫</kbd> Back
        </button>
      </div>
    </div>
  );
}
