// "Paste a transcript": OpenAI, Anthropic or OpenTelemetry JSON read by its shape; one sentence says what was found,
// and only a transcript that reads becomes the state (anything else changes nothing).
import { useState } from 'react';
import { recogniseTranscript } from '../../../core/conversation/recognise';
import type { Conversation } from '../../../contract';
import { Dialog } from '../sessions/Dialog';

export interface PasteTranscriptProps {
  onFound: (conversation: Conversation, sentence: string) => void;
  onClose: () => void;
}

export function PasteTranscriptDialog({ onFound, onClose }: PasteTranscriptProps) {
  const [text, setText] = useState('');
  const [said, setSaid] = useState<string | null>(null);
  const read = (): void => {
    const found = recogniseTranscript(text);
    if (found.ok) onFound(found.conversation, found.sentence);
    else setSaid(found.sentence);
  };
  return (
    <Dialog title="Paste a transcript" onClose={onClose} testId="conversation.pasteDialog">
      <div className="paste-transcript">
        <p className="muted">
          An OpenAI Chat Completions messages list, an OpenAI Responses or Decisions input list, an Anthropic
          Messages transcript, or OpenTelemetry GenAI spans exported as JSON.
        </p>
        <textarea
          aria-label="Transcript, JSON"
          value={text}
          rows={12}
          data-testid="conversation.pasteText"
          onChange={(e) => {
            setText(e.currentTarget.value);
            setSaid(null);
          }}
        />
        <p role="status" className="paste-transcript__said" data-testid="conversation.pasteSaid">
          {said}
        </p>
        <div className="paste-transcript__bar">
          <button type="button" className="primary" onClick={read} disabled={text.trim() === ''}>
            Use as the state
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </div>
    </Dialog>
  );
}
