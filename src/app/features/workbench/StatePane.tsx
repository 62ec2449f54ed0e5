// The state editor: named fields as JSON, plain text, or a conversation; what the model judges, and what every
// request is billed for.
import { useCallback, useMemo, useState } from 'react';
import { conversationJsonSchema, stateJsonSchema } from '../../../contract';
import type { Conversation } from '../../../contract';
import { checkConversation } from '../../../core/conversation/check';
import { conversationJson, startConversation } from '../../../core/conversation/edit';
import { DEFAULT_RENDER_RULE } from '../../../core/conversation/render';
import { parseJson } from '../../../core/questionsDocument';
import { plural } from '../../../core/words';
import type { RenderRule } from '../../../core/conversation/render';
import { ChatView } from './ChatView';
import { PasteTranscriptDialog } from './PasteTranscriptDialog';
import { CodeEditor } from '../../editor';
import type { EditorMarker, RevealRequest } from '../../editor';
import { Pane } from '../../components/Pane';
import { SegmentedControl } from '../../components/SegmentedControl';
import { useWorkbench } from '../../stores/workbench';

const STATE_SCHEMA = stateJsonSchema();
const CONVERSATION_SCHEMA = conversationJsonSchema();
const MODES = [
  {
    value: 'json',
    label: 'JSON fields',
    title: 'Named fields (an object), which instructions can name in backticks.',
  },
  { value: 'text', label: 'Text', title: 'Plain text, sent as one string.' },
  {
    value: 'conversation',
    label: 'Conversation',
    title: 'Messages, tool calls and their outputs: a support conversation or an agent trace.',
  },
] as const;
const VIEWS = [
  { value: 'json', label: 'JSON' },
  { value: 'chat', label: 'Chat' },
] as const;
const RULES = [
  { value: 'transcript', label: 'a transcript' },
  { value: 'fields', label: 'fields' },
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
  const rule = useWorkbench((s) => s.doc.conversationRule ?? DEFAULT_RENDER_RULE);
  const editDoc = useWorkbench((s) => s.editDoc);
  const onChange = useCallback((value: string) => setText(value), [setText]);
  const looksLikeJson = /^\s*[[{"]/.test(text);
  const [view, setView] = useState<'json' | 'chat'>('json');
  const [pasting, setPasting] = useState(false);
  const [found, setFound] = useState<string | null>(null);
  const conversation = useMemo(() => {
    if (mode !== 'conversation') return null;
    const checked = checkConversation(text);
    return checked.ok ? checked.conversation : null;
  }, [mode, text]);
  // Entering conversation mode keeps what was written: a text or fields state becomes the first user turn.
  const chooseMode = useCallback(
    (next: typeof mode) => {
      if (next === 'conversation' && mode !== 'conversation' && !checkConversation(text).ok)
        editDoc((d) => ({ ...d, stateMode: 'conversation', stateText: startConversation(d.stateText) }));
      else setMode(next);
    },
    [editDoc, mode, setMode, text],
  );
  const takeConversation = useCallback(
    (c: Conversation, sentence: string) => {
      editDoc((d) => ({ ...d, stateMode: 'conversation', stateText: conversationJson(c) }));
      setFound(sentence);
      setPasting(false);
    },
    [editDoc],
  );
  const setRule = (kind: RenderRule['kind']): void => editDoc((d) => ({ ...d, conversationRule: { kind } }));
  const questionsText = useWorkbench((s) => s.doc.questionsText);
  const scopes = useWorkbench((s) => s.doc.conversationScopes);
  const questionNames = useMemo(() => {
    if (mode !== 'conversation') return [];
    const parsed = parseJson(questionsText);
    return parsed.ok &&
      parsed.value !== null &&
      typeof parsed.value === 'object' &&
      !Array.isArray(parsed.value)
      ? Object.keys(parsed.value)
      : [];
  }, [mode, questionsText]);
  const lastTurnCount = questionNames.filter((n) => scopes?.[n] === 'last_turn').length;
  const setScope = (name: string, lastTurn: boolean): void =>
    editDoc((d) => ({
      ...d,
      conversationScopes: { ...d.conversationScopes, [name]: lastTurn ? 'last_turn' : 'whole' },
    }));

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
          onChange={chooseMode}
          testId="workbench.stateMode"
        />
      }
    >
      {mode === 'conversation' && (
        <div className="conversation-bar conversation-bar--one-line" data-testid="conversation.bar">
          <SegmentedControl
            label="Conversation view"
            value={view}
            options={VIEWS}
            onChange={setView}
            testId="conversation.view"
          />
          <button type="button" onClick={() => setPasting(true)} data-testid="conversation.paste">
            Paste a transcript
          </button>
          <details className="conversation-options" data-testid="conversation.options">
            <summary>
              Sending: {RULES.find((r) => r.value === rule.kind)?.label ?? rule.kind}
              {lastTurnCount > 0 ? `, ${plural(lastTurnCount, 'question')} on the last turn` : ''}
            </summary>
            <div className="conversation-options__panel">
              <SegmentedControl
                label="Sent to targets of the interface's form as"
                value={rule.kind}
                options={RULES}
                onChange={setRule}
                testId="conversation.rule"
              />
              <span className="muted">A Decisions target reads the conversation itself.</span>
              {questionNames.length > 0 && (
                <fieldset className="conversation-scopes" data-testid="conversation.scopes">
                  <legend>Asked of the assistant&apos;s last turn only</legend>
                  {questionNames.map((name) => (
                    <label key={name}>
                      <input
                        type="checkbox"
                        checked={scopes?.[name] === 'last_turn'}
                        onChange={(e) => setScope(name, e.currentTarget.checked)}
                      />
                      {name}
                    </label>
                  ))}
                </fieldset>
              )}
            </div>
          </details>
        </div>
      )}
      {found && mode === 'conversation' && (
        <p
          className="muted conversation-bar conversation-found"
          role="status"
          data-testid="conversation.found"
        >
          <span>{found}</span>
          <button type="button" className="link-button" onClick={() => setFound(null)}>
            Dismiss
          </button>
        </p>
      )}
      <div className="pane__body">
        {mode === 'conversation' && view === 'chat' ? (
          conversation ? (
            <ChatView conversation={conversation} onChange={(c) => setText(conversationJson(c))} />
          ) : (
            <p className="muted conversation-bar" role="status">
              The chat view shows a conversation that reads: fix the problems marked in the JSON view first.
            </p>
          )
        ) : (
          <CodeEditor
            documentId="state"
            value={text}
            onChange={onChange}
            language={mode === 'text' ? 'plaintext' : 'json'}
            schema={
              mode === 'json' ? STATE_SCHEMA : mode === 'conversation' ? CONVERSATION_SCHEMA : undefined
            }
            markers={markers}
            onRun={onRun}
            ariaLabel={
              mode === 'json'
                ? 'State fields, JSON'
                : mode === 'conversation'
                  ? 'Conversation, JSON'
                  : 'State text'
            }
            describedBy={syntax ? 'state-syntax' : undefined}
            reveal={reveal}
          />
        )}
      </div>
      {pasting && <PasteTranscriptDialog onFound={takeConversation} onClose={() => setPasting(false)} />}
      {syntax && (
        <p id="state-syntax" className="syntax-note" role="status" data-testid="workbench.stateSyntax">
          {syntax}
          {mode === 'json' && !looksLikeJson && text.trim() !== '' && (
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
