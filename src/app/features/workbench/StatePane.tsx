// The state editor: named fields as JSON, or plain text; what the model judges, and what every request is billed for.
import { useCallback } from 'react';
import { stateJsonSchema } from '../../../contract';
import { CodeEditor } from '../../editor';
import type { EditorMarker, RevealRequest } from '../../editor';
import { Pane } from '../../components/Pane';
import { SegmentedControl } from '../../components/SegmentedControl';
import { useWorkbench } from '../../stores/workbench';

const STATE_SCHEMA = stateJsonSchema();
const MODES = [
  {
    value: 'json',
    label: 'JSON fields',
    title: 'Named fields (an object), which instructions can name in backticks.',
  },
  { value: 'text', label: 'Text', title: 'Plain text, sent as one string.' },
] as const;

export interface StatePaneProps {
  markers: readonly EditorMarker[];
  syntax: string | null;
  onRun: () => void;
  reveal: RevealRequest | null;
}

/** The state editor with its mode switch and its syntax sentence. */
export function StatePane({ markers, syntax, onRun, reveal }: StatePaneProps) {
  const text = useWorkbench((s) => s.doc.stateText);
  const mode = useWorkbench((s) => s.doc.stateMode);
  const setText = useWorkbench((s) => s.setStateText);
  const setMode = useWorkbench((s) => s.setStateMode);
  const onChange = useCallback((value: string) => setText(value), [setText]);
  const looksLikeJson = /^\s*[[{"]/.test(text);

  return (
    <Pane
      id="state"
      heading="State"
      testId="workbench.state"
      controls={
        <SegmentedControl
          label="State format"
          value={mode}
          options={MODES}
          onChange={setMode}
          testId="workbench.stateMode"
        />
      }
    >
      <div className="pane__body">
        <CodeEditor
          documentId="state"
          value={text}
          onChange={onChange}
          language={mode === 'json' ? 'json' : 'plaintext'}
          schema={mode === 'json' ? STATE_SCHEMA : undefined}
          markers={markers}
          onRun={onRun}
          ariaLabel={mode === 'json' ? 'State fields, JSON' : 'State text'}
          describedBy={syntax ? 'state-syntax' : undefined}
          reveal={reveal}
        />
      </div>
      {syntax && (
        <p id="state-syntax" className="syntax-note" role="status" data-testid="workbench.stateSyntax">
          {syntax}
          {!looksLikeJson && text.trim() !== '' && (
            <>
              {' '}
              <button
                type="button"
                className="link-button"
                onClick={() => setText(`{\n  "text": ${JSON.stringify(text)}\n}\n`)}
              >
                Put the text in a field named "text"
              </button>{' '}
              or{' '}
              <button type="button" className="link-button" onClick={() => setMode('text')}>
                send it as plain text
              </button>
              .
            </>
          )}
        </p>
      )}
    </Pane>
  );
}
