// The state editor: named fields as JSON, plain text, or a conversation; what the model judges, and what every
// request is billed for.
import { useCallback, useMemo, useState } from 'react';
import { conversationJsonSchema, stateJsonSchema } from '../../../contract';
import type { Conversation } from '../../../contract';
import { checkConversation } from '../../../core/conversation/check';
import { conversationJson, startConversation } from '../../../core/conversation/edit';
import { ChatView } from './ChatView';
import { ConversationBar } from './ConversationBar';
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
type StateMode = (typeof MODES)[number]['value'];

export interface StatePaneProps {
  markers: readonly EditorMarker[];
  syntax: string | null;
  onRun: () => void;
  reveal: RevealRequest | null;
}

/** The syntax sentence under the editor, with the two ways out for text typed into the fields' JSON. */
function StateSyntaxNote({ syntax, mode }: { syntax: string; mode: StateMode }) {
  const text = useWorkbench((s) => s.doc.stateText);
  const setText = useWorkbench((s) => s.setStateText);
  const setMode = useWorkbench((s) => s.setStateMode);
  const looksLikeJson = /^\s*[[{"]/.test(text);
  return (
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
  );
}

interface StateEditorProps extends Omit<StatePaneProps, 'syntax'> {
  mode: StateMode;
  describedBy: string | undefined;
}

/** The state as code: JSON fields, plain text, or a conversation's JSON. */
function StateEditor({ mode, markers, onRun, reveal, describedBy }: StateEditorProps) {
  const text = useWorkbench((s) => s.doc.stateText);
  const setText = useWorkbench((s) => s.setStateText);
  const onChange = useCallback((value: string) => setText(value), [setText]);
  return (
    <CodeEditor
      documentId="state"
      value={text}
      onChange={onChange}
      language={mode === 'text' ? 'plaintext' : 'json'}
      schema={mode === 'json' ? STATE_SCHEMA : mode === 'conversation' ? CONVERSATION_SCHEMA : undefined}
      markers={markers}
      onRun={onRun}
      ariaLabel={
        mode === 'json' ? 'State fields, JSON' : mode === 'conversation' ? 'Conversation, JSON' : 'State text'
      }
      describedBy={describedBy}
      reveal={reveal}
    />
  );
}

/** The conversation as chat turns, while it reads; otherwise a sentence that sends the reader to the JSON view. */
function ChatBody() {
  const text = useWorkbench((s) => s.doc.stateText);
  const setText = useWorkbench((s) => s.setStateText);
  const conversation = useMemo(() => {
    const checked = checkConversation(text);
    return checked.ok ? checked.conversation : null;
  }, [text]);
  if (!conversation)
    return (
      <p className="muted conversation-bar" role="status">
        The chat view shows a conversation that reads: fix the problems marked in the JSON view first.
      </p>
    );
  return <ChatView conversation={conversation} onChange={(c) => setText(conversationJson(c))} />;
}

/** The state's mode switch, and a pasted transcript taken as the conversation with the sentence saying what was found. */
function useStateMode() {
  const text = useWorkbench((s) => s.doc.stateText);
  const mode = useWorkbench((s) => s.doc.stateMode);
  const setMode = useWorkbench((s) => s.setStateMode);
  const editDoc = useWorkbench((s) => s.editDoc);
  const [pasting, setPasting] = useState(false);
  const [found, setFound] = useState<string | null>(null);
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
  return { mode, chooseMode, pasting, setPasting, found, setFound, takeConversation };
}

/** The state editor with its mode switch and its syntax sentence. */
export function StatePane({ markers, syntax, onRun, reveal }: StatePaneProps) {
  const { mode, chooseMode, pasting, setPasting, found, setFound, takeConversation } = useStateMode();
  const [view, setView] = useState<'json' | 'chat'>('json');
  const modes = (
    <SegmentedControl
      label="State format"
      value={mode}
      options={MODES}
      onChange={chooseMode}
      testId="workbench.stateMode"
    />
  );
  return (
    <Pane id="state" heading="State" testId="workbench.state" controls={modes}>
      {mode === 'conversation' && (
        <ConversationBar view={view} onView={setView} onPaste={() => setPasting(true)} />
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
          <ChatBody />
        ) : (
          <StateEditor
            {...{ mode, markers, onRun, reveal }}
            describedBy={syntax ? 'state-syntax' : undefined}
          />
        )}
      </div>
      {pasting && <PasteTranscriptDialog onFound={takeConversation} onClose={() => setPasting(false)} />}
      {syntax && <StateSyntaxNote syntax={syntax} mode={mode} />}
    </Pane>
  );
}
