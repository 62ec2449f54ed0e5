// The bar over a conversation state: JSON or chat view, paste a transcript, and how it is sent (the rule for the
// interface's form, and which questions ask only of the assistant's last turn).
import { useMemo } from 'react';
import { DEFAULT_RENDER_RULE } from '../../../core/conversation/render';
import type { RenderRule } from '../../../core/conversation/render';
import { parseJson } from '../../../core/questionsDocument';
import { plural } from '../../../core/words';
import { SegmentedControl } from '../../components/SegmentedControl';
import { useWorkbench } from '../../stores/workbench';

const VIEWS = [
  { value: 'json', label: 'JSON' },
  { value: 'chat', label: 'Chat' },
] as const;
const RULES = [
  { value: 'transcript', label: 'a transcript' },
  { value: 'fields', label: 'fields' },
] as const;

/** The names of the questions, while they parse as an object (the scopes are set per question). */
function useQuestionNames(): string[] {
  const questionsText = useWorkbench((s) => s.doc.questionsText);
  return useMemo(() => {
    const parsed = parseJson(questionsText);
    return parsed.ok &&
      parsed.value !== null &&
      typeof parsed.value === 'object' &&
      !Array.isArray(parsed.value)
      ? Object.keys(parsed.value)
      : [];
  }, [questionsText]);
}

/** How the conversation is sent: the rule for the interface's form, and the questions asked of the last turn only. */
function SendingOptions() {
  const rule = useWorkbench((s) => s.doc.conversationRule ?? DEFAULT_RENDER_RULE);
  const scopes = useWorkbench((s) => s.doc.conversationScopes);
  const editDoc = useWorkbench((s) => s.editDoc);
  const questionNames = useQuestionNames();
  const lastTurnCount = questionNames.filter((n) => scopes?.[n] === 'last_turn').length;
  const setRule = (kind: RenderRule['kind']): void => editDoc((d) => ({ ...d, conversationRule: { kind } }));
  const setScope = (name: string, lastTurn: boolean): void =>
    editDoc((d) => ({
      ...d,
      conversationScopes: { ...d.conversationScopes, [name]: lastTurn ? 'last_turn' : 'whole' },
    }));
  return (
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
  );
}

export interface ConversationBarProps {
  view: 'json' | 'chat';
  onView: (view: 'json' | 'chat') => void;
  onPaste: () => void;
}

/** The conversation's view switch, its Paste a transcript, and its sending options. */
export function ConversationBar({ view, onView, onPaste }: ConversationBarProps) {
  return (
    <div className="conversation-bar conversation-bar--one-line" data-testid="conversation.bar">
      <SegmentedControl
        label="Conversation view"
        value={view}
        options={VIEWS}
        onChange={onView}
        testId="conversation.view"
      />
      <button type="button" onClick={onPaste} data-testid="conversation.paste">
        Paste a transcript
      </button>
      <SendingOptions />
    </div>
  );
}
