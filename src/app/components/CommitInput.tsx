// A text input that commits on Enter or blur, for values whose every keystroke must not apply (names, labels).
import { useState } from 'react';

export interface CommitInputProps extends Omit<
  React.InputHTMLAttributes<HTMLInputElement>,
  'onChange' | 'value'
> {
  value: string;
  /** Returns a problem to keep the draft open and show it, or null when the value was applied. */
  onCommit: (value: string) => string | null;
}

/** Edits a draft locally; Enter or leaving the field applies it, Escape restores the current value. */
export function CommitInput({ value, onCommit, ...rest }: CommitInputProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const commit = (): void => {
    if (draft === null || draft === value) {
      setDraft(null);
      setProblem(null);
      return;
    }
    const result = onCommit(draft);
    setProblem(result);
    if (!result) setDraft(null);
  };
  return (
    <span className="commit-input">
      <input
        {...rest}
        value={draft ?? value}
        aria-invalid={problem ? true : undefined}
        title={problem ?? rest.title}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          } else if (e.key === 'Escape') {
            setDraft(null);
            setProblem(null);
          }
        }}
      />
      {problem && (
        <span className="field-problem" role="alert">
          {problem}
        </span>
      )}
    </span>
  );
}
