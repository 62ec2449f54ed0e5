// "Paste request": a request from documentation, a gateway sample or a curl command, loaded into the editors in direct
// form, with what the rewrite changed listed before anything is replaced.
import { useId, useMemo, useState } from 'react';
import type { SessionDoc } from '../../../core/session';
import { Dialog } from '../../components/Dialog';
import { docWithRequest, readPastedRequest } from './requestDoc';
import './lint.css';

export interface PasteRequestDialogProps {
  onApply: (edit: (doc: SessionDoc) => SessionDoc) => void;
  onClose: () => void;
}

/** The dialog: a text box, what was found in it, and Load. */
export function PasteRequestDialog({ onApply, onClose }: PasteRequestDialogProps) {
  const [text, setText] = useState('');
  const inputId = useId();
  const read = useMemo(() => (text.trim() === '' ? null : readPastedRequest(text)), [text]);
  const found = read && 'body' in read ? read : null;
  const questionCount = found ? Object.keys(found.body.questions as object).length : 0;

  return (
    <Dialog title="Paste a request" onClose={onClose} testId="lint.pasteDialog">
      <label htmlFor={inputId}>
        A request body (JSON), a gateway sample or a curl command. Its questions, state and model replace what
        the editors hold.
      </label>
      <textarea
        id={inputId}
        className="paste-request__input"
        rows={10}
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        data-autofocus
        data-testid="lint.pasteInput"
      />
      <div role="status" data-testid="lint.pasteStatus">
        {read && 'error' in read && <p className="error-text">{read.error}</p>}
        {found && (
          <>
            <p>
              Found {questionCount} question{questionCount === 1 ? '' : 's'}
              {typeof found.body.model === 'string' ? (
                <>
                  , model <code>{found.body.model}</code>
                </>
              ) : null}
              {found.body.state !== undefined ? ' and a state' : ''}.{' '}
              {found.problems.length === 0
                ? 'It is already in the direct form.'
                : 'Rewritten to the direct form:'}
            </p>
            {found.problems.length > 0 && (
              <ul data-testid="lint.pasteProblems">
                {found.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      <div className="dialog-buttons">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={!found}
          onClick={() => {
            if (!found) return;
            onApply((doc) => docWithRequest(doc, found.body));
            onClose();
          }}
          data-testid="lint.pasteLoad"
        >
          Load into the editors
        </button>
      </div>
    </Dialog>
  );
}
