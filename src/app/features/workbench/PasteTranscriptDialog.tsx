// "Paste a transcript": OpenAI, Anthropic or OpenTelemetry JSON read by its shape; one sentence says what was found,
// and only a transcript that reads becomes the state (anything else changes nothing).
import { useState } from 'react';
import { recogniseTranscript } from '../../../core/conversation/recognise';
import type { Conversation } from '../../../contract';
import { fileText } from '../../platform/files';
import { Dialog } from '../../components/Dialog';

export interface PasteTranscriptProps {
  onFound: (conversation: Conversation, sentence: string) => void;
  onClose: () => void;
}

export function PasteTranscriptDialog({ onFound, onClose }: PasteTranscriptProps) {
  const [text, setText] = useState('');
  const [said, setSaid] = useState<string | null>(null);
  const read = (source: string = text): void => {
    const found = recogniseTranscript(source);
    if (found.ok) onFound(found.conversation, found.sentence);
    else setSaid(found.sentence);
  };
  // A dropped or picked file is read at once, as if pasted and confirmed.
  const readFile = async (file: File | undefined): Promise<void> => {
    if (!file) return;
    const content = await fileText(file);
    setText(content);
    read(content);
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
          onDragOver={(e) => e.preventDefault()}
          onDrop={(e) => {
            e.preventDefault();
            void readFile(e.dataTransfer.files[0]);
          }}
        />
        <label className="muted">
          Or drop a JSON file on the box, or pick one:{' '}
          <input
            type="file"
            accept=".json,application/json"
            data-testid="conversation.pasteFile"
            onChange={(e) => void readFile(e.currentTarget.files?.[0])}
          />
        </label>
        <p role="status" className="paste-transcript__said" data-testid="conversation.pasteSaid">
          {said}
        </p>
        <div className="paste-transcript__bar">
          <button type="button" className="primary" onClick={() => read()} disabled={text.trim() === ''}>
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
