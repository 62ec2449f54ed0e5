// The conversation as turns to read and edit: add, move, edit and delete; every change rewrites the editor's JSON,
// so the JSON view and this one always hold the same conversation.
import { useId, useState } from 'react';
import { isMessage } from '../../../contract';
import type { Conversation, ConversationItem } from '../../../contract';
import {
  insertTurn,
  moveTurn,
  newTurn,
  removeTurn,
  replaceTurn,
  turnText,
  withTurnText,
} from '../../../core/conversation/edit';
import type { TurnKind } from '../../../core/conversation/edit';
import './conversation.css';

export interface ChatViewProps {
  conversation: Conversation;
  onChange: (next: Conversation) => void;
}

const KINDS: { value: TurnKind; label: string }[] = [
  { value: 'user', label: 'User message' },
  { value: 'assistant', label: 'Assistant message' },
  { value: 'tool_call', label: 'Tool call' },
  { value: 'tool_output', label: 'Tool output' },
  { value: 'system', label: 'System message' },
  { value: 'developer', label: 'Developer message' },
];

/** Who or what a turn is, in words. */
function turnTitle(item: ConversationItem): string {
  if (isMessage(item)) return item.role[0]!.toUpperCase() + item.role.slice(1);
  if (item.type === 'function_call' || item.type === 'custom_tool_call') return `Tool call: ${item.name}`;
  return `Tool output for ${item.call_id}`;
}

export function ChatView({ conversation, onChange }: ChatViewProps) {
  return (
    <div className="chat-view" data-testid="conversation.chat">
      <ol className="chat-view__turns" aria-label="Turns of the conversation">
        {conversation.map((item, i) => (
          <ChatTurn key={i} conversation={conversation} index={i} item={item} onChange={onChange} />
        ))}
      </ol>
      <AddTurn conversation={conversation} onChange={onChange} />
    </div>
  );
}

interface ChatTurnProps extends ChatViewProps {
  index: number;
  item: ConversationItem;
}

/** One turn: who it is, its order buttons, its tool name (a call) and its text. */
function ChatTurn({ conversation, index: i, item, onChange }: ChatTurnProps) {
  const who = isMessage(item) ? item.role : 'tool';
  const title = turnTitle(item);
  return (
    <li className={`chat-turn chat-turn--${who}`} data-testid="conversation.turn">
      <div className="chat-turn__head">
        <span className="chat-turn__who">
          {i + 1}. {title}
          {!isMessage(item) && item.type === 'function_call' && (
            <span className="muted"> [{item.call_id}]</span>
          )}
        </span>
        <TurnActions conversation={conversation} index={i} onChange={onChange} />
      </div>
      {!isMessage(item) && item.type === 'function_call' && (
        <label className="chat-turn__name">
          Tool
          <input
            value={item.name}
            onChange={(e) => onChange(replaceTurn(conversation, i, { ...item, name: e.currentTarget.value }))}
          />
        </label>
      )}
      <textarea
        className="chat-turn__text"
        aria-label={`Turn ${i + 1}, ${title}${!isMessage(item) && item.type === 'function_call' ? ', arguments' : ''}`}
        value={turnText(item)}
        // Grows with its text (field-sizing in CSS); rows is the floor where that is not supported.
        rows={Math.max(2, turnText(item).split('\n').length)}
        onChange={(e) => onChange(replaceTurn(conversation, i, withTurnText(item, e.currentTarget.value)))}
      />
    </li>
  );
}

/** Move a turn up or down, or delete it (the last turn stays). */
function TurnActions({ conversation, index: i, onChange }: Omit<ChatTurnProps, 'item'>) {
  return (
    <span className="chat-turn__actions">
      <button
        type="button"
        className="link-button"
        disabled={i === 0}
        aria-label={`Move turn ${i + 1} up`}
        onClick={() => onChange(moveTurn(conversation, i, -1))}
      >
        Up
      </button>
      <button
        type="button"
        className="link-button"
        disabled={i === conversation.length - 1}
        aria-label={`Move turn ${i + 1} down`}
        onClick={() => onChange(moveTurn(conversation, i, 1))}
      >
        Down
      </button>
      <button
        type="button"
        className="link-button"
        disabled={conversation.length === 1}
        aria-label={`Delete turn ${i + 1}`}
        onClick={() => onChange(removeTurn(conversation, i))}
      >
        Delete
      </button>
    </span>
  );
}

/** Add a turn of the chosen kind at the end. */
function AddTurn({ conversation, onChange }: ChatViewProps) {
  const [kind, setKind] = useState<TurnKind>('user');
  const kindId = useId();
  return (
    <div className="chat-view__add">
      <label htmlFor={kindId}>Add</label>
      <select id={kindId} value={kind} onChange={(e) => setKind(e.currentTarget.value as TurnKind)}>
        {KINDS.map((k) => (
          <option key={k.value} value={k.value}>
            {k.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        data-testid="conversation.addTurn"
        onClick={() => onChange(insertTurn(conversation, conversation.length, newTurn(kind, conversation)))}
      >
        Add turn
      </button>
    </div>
  );
}
