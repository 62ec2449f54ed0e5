// The plain editor: shown at once while Monaco loads, and used by component tests. Same props, no squiggles.
import { useEffect, useRef } from 'react';
import type { CodeEditorProps } from './types';
import type { HandOver } from './MonacoEditor';

const isRunKey = (e: React.KeyboardEvent): boolean => e.key === 'Enter' && (e.ctrlKey || e.metaKey);

/** A textarea with the adapter's props; reports its caret so Monaco can take over where the user was. */
export function TextareaEditor(props: CodeEditorProps & { onHandOver?: (h: HandOver) => void }) {
  const { documentId, value, onChange, onRun, ariaLabel, describedBy, markers, reveal, onHandOver } = props;
  const ref = useRef<HTMLTextAreaElement>(null);
  const hasError = (markers ?? []).some((m) => m.severity === 'error');

  useEffect(() => {
    const area = ref.current;
    if (!area || !reveal) return;
    area.focus();
    area.setSelectionRange(reveal.offset, reveal.offset);
  }, [reveal]);

  const report = (): void => {
    const area = ref.current;
    if (!area || !onHandOver) return;
    onHandOver({
      focused: document.activeElement === area,
      selectionStart: area.selectionStart,
      selectionEnd: area.selectionEnd,
    });
  };

  return (
    <textarea
      ref={ref}
      className="code-editor__textarea"
      data-testid={`editor.text.${documentId}`}
      aria-label={ariaLabel}
      aria-describedby={describedBy}
      aria-invalid={hasError || undefined}
      spellCheck={false}
      autoCapitalize="off"
      autoComplete="off"
      value={value}
      onChange={(e) => {
        onChange(e.target.value);
        report();
      }}
      onSelect={report}
      onFocus={report}
      onBlur={report}
      onKeyDown={(e) => {
        if (isRunKey(e) && onRun) {
          e.preventDefault();
          onRun();
        }
      }}
    />
  );
}
