// The questions: a JSON editor validated against the contract's schema, or the same document as a form.
import { useCallback, useMemo } from 'react';
import { editorQuestionsSchema, questionsCompletions } from '../../../core/completions';
import { CodeEditor } from '../../editor';
import type { CompletionSource, EditorMarker, RevealRequest } from '../../editor';
import { Pane } from '../../components/Pane';
import { SegmentedControl } from '../../components/SegmentedControl';
import { useLayout } from '../../stores/layout';
import { useWorkbench } from '../../stores/workbench';
import { QuestionForm } from './QuestionForm';

const QUESTIONS_SCHEMA = editorQuestionsSchema();
const VIEWS = [
  { value: 'json', label: 'JSON' },
  { value: 'form', label: 'Form' },
] as const;

export interface QuestionsPaneProps {
  markers: readonly EditorMarker[];
  syntax: string | null;
  /** The state's field names, completed inside backticks in instructions. */
  stateFields: readonly string[];
  onRun: () => void;
  reveal: RevealRequest | null;
}

/** The questions editor or form, with its syntax sentence. */
export function QuestionsPane({ markers, syntax, stateFields, onRun, reveal }: QuestionsPaneProps) {
  const text = useWorkbench((s) => s.doc.questionsText);
  const setText = useWorkbench((s) => s.setQuestionsText);
  const view = useLayout((s) => s.questionsView);
  const setView = useLayout((s) => s.setQuestionsView);
  const onChange = useCallback((value: string) => setText(value), [setText]);
  const fieldsKey = stateFields.join('\u0000');
  const completions: CompletionSource = useMemo(
    () => (t, offset) => questionsCompletions(t, offset, fieldsKey ? fieldsKey.split('\u0000') : []),
    [fieldsKey],
  );

  return (
    <Pane
      id="questions"
      heading="Questions"
      testId="workbench.questions"
      controls={
        <SegmentedControl
          label="Questions view"
          value={view}
          options={VIEWS}
          onChange={setView}
          testId="workbench.questionsView"
        />
      }
    >
      <div className={`pane__body${view === 'form' ? ' pane__body--scroll' : ''}`}>
        {view === 'json' ? (
          <CodeEditor
            documentId="questions"
            value={text}
            onChange={onChange}
            language="json"
            schema={QUESTIONS_SCHEMA}
            markers={markers}
            completions={completions}
            onRun={onRun}
            ariaLabel="Questions, JSON"
            describedBy={syntax ? 'questions-syntax' : undefined}
            reveal={reveal}
          />
        ) : (
          <QuestionForm text={text} onChange={setText} onShowJson={() => setView('json')} />
        )}
      </div>
      {syntax && view === 'json' && (
        <p
          id="questions-syntax"
          className="syntax-note"
          role="status"
          data-testid="workbench.questionsSyntax"
        >
          {syntax}
        </p>
      )}
    </Pane>
  );
}
