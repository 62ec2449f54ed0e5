// The conversation's chat view and the paste dialog: turns added, moved and deleted as the JSON changes, and a pasted
// transcript said in one sentence (anything else changes nothing).
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Conversation } from '../../../src/contract';
import { ChatView } from '../../../src/app/features/workbench/ChatView';
import { PasteTranscriptDialog } from '../../../src/app/features/workbench/PasteTranscriptDialog';

const START: Conversation = [
  { role: 'user', content: 'Refund order 7, please.' },
  { role: 'assistant', content: 'Done.' },
];

function Harness({ seen }: { seen: (c: Conversation) => void }) {
  const [c, setC] = useState(START);
  return (
    <ChatView
      conversation={c}
      onChange={(next) => {
        seen(next);
        setC(next);
      }}
    />
  );
}

describe('ChatView', () => {
  it('adds a tool call, moves it up, edits it and deletes a turn, each a new conversation', async () => {
    const seen = vi.fn();
    render(<Harness seen={seen} />);
    await userEvent.selectOptions(screen.getByLabelText('Add'), 'Tool call');
    await userEvent.click(screen.getByRole('button', { name: 'Add turn' }));
    expect(seen).toHaveBeenLastCalledWith([
      ...START,
      { type: 'function_call', call_id: 'call_3', name: 'tool_name', arguments: '{}' },
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Move turn 3 up' }));
    expect(seen.mock.lastCall![0].map((t: { role?: string; type?: string }) => t.role ?? t.type)).toEqual([
      'user',
      'function_call',
      'assistant',
    ]);
    const tool = screen.getByRole('textbox', { name: 'Tool' });
    await userEvent.clear(tool);
    await userEvent.type(tool, 'issue_refund');
    expect(seen.mock.lastCall![0][1]).toMatchObject({ name: 'issue_refund' });
    await userEvent.click(screen.getByRole('button', { name: 'Delete turn 3' }));
    expect(seen.mock.lastCall![0]).toHaveLength(2);
    expect(screen.getAllByTestId('conversation.turn')).toHaveLength(2);
  });
});

describe('PasteTranscriptDialog', () => {
  it('says what it found and hands the conversation over; anything else gets a sentence and nothing', async () => {
    const onFound = vi.fn();
    render(<PasteTranscriptDialog onFound={onFound} onClose={() => {}} />);
    const box = screen.getByRole('textbox', { name: 'Transcript, JSON' });
    await userEvent.click(box);
    await userEvent.paste('{"state": "hello"}');
    await userEvent.click(screen.getByRole('button', { name: 'Use as the state' }));
    expect(onFound).not.toHaveBeenCalled();
    expect(screen.getByTestId('conversation.pasteSaid')).toHaveTextContent(
      /^This is not a transcript the workbench knows/,
    );
    await userEvent.clear(box);
    await userEvent.paste(
      JSON.stringify({
        messages: [
          { role: 'user', content: 'Refund order 7.' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'issue_refund', input: { order: 7 } }],
          },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'refunded' }] },
        ],
      }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Use as the state' }));
    expect(onFound).toHaveBeenCalledWith(
      expect.arrayContaining([expect.objectContaining({ type: 'function_call', name: 'issue_refund' })]),
      'Found an Anthropic Messages transcript of 3 messages: 1 message (1 user), 1 tool call and 1 tool output (tool_use and tool_result blocks become tool calls and outputs).',
    );
  });
});

describe('a transcript file', () => {
  it('picked in the dialog is read at once; one that is not a transcript is said and changes nothing', async () => {
    const onFound = vi.fn();
    render(<PasteTranscriptDialog onFound={onFound} onClose={() => {}} />);
    const input = screen.getByTestId('conversation.pasteFile') as HTMLInputElement;
    await userEvent.upload(input, new File(['{"rows": []}'], 'notes.json', { type: 'application/json' }));
    expect(await screen.findByText(/^This is not a transcript the workbench knows/)).toBeInTheDocument();
    expect(onFound).not.toHaveBeenCalled();
    const chat = JSON.stringify([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ]);
    await userEvent.upload(input, new File([chat], 'chat.json', { type: 'application/json' }));
    await vi.waitFor(() =>
      expect(onFound).toHaveBeenCalledWith(
        [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!' },
        ],
        'Found an OpenAI Chat Completions list of 2 messages: 2 messages (1 user, 1 assistant).',
      ),
    );
  });
});
