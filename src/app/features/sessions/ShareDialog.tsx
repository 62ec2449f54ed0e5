// Making a share link: choose whether the runs go along, copy the link; a session too long for a link is saved as a
// file instead, with the reason.
import { useState } from 'react';
import type { ShareOutcome, SessionSummary } from '../../stores/sessions';
import { copyText, downloadText } from './browserFiles';
import { Dialog } from './Dialog';

interface ShareDialogProps {
  session: SessionSummary;
  share: (id: string, includeRuns: boolean) => Promise<ShareOutcome | null>;
  onClose: () => void;
}

type Result = { kind: 'copied' | 'shown'; url: string } | { kind: 'file'; reason: string; fileName: string };

/** The share dialog for one session. */
export function ShareDialog({ session, share, onClose }: ShareDialogProps) {
  const [includeRuns, setIncludeRuns] = useState(session.runCount > 0);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  const make = async (): Promise<void> => {
    setBusy(true);
    try {
      const outcome = await share(session.id, includeRuns);
      if (!outcome) return;
      if (outcome.kind === 'file') {
        downloadText(outcome.file.fileName, outcome.file.text);
        setResult({ kind: 'file', reason: outcome.reason, fileName: outcome.file.fileName });
      } else {
        setResult({ kind: (await copyText(outcome.url)) ? 'copied' : 'shown', url: outcome.url });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog title={`Share “${session.name}”`} onClose={onClose} testId="sessions.shareDialog">
      <p className="muted">
        The link carries the state, the questions, the target id and the model, compressed into the part of
        the address after <code>#</code>, which browsers never send to a server. It holds no key.
      </p>
      {session.runCount > 0 && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={includeRuns}
            onChange={(e) => {
              setIncludeRuns(e.target.checked);
              setResult(null);
            }}
            data-testid="sessions.shareIncludeRuns"
          />
          Include the {session.runCount} run{session.runCount === 1 ? '' : 's'}: the receiver sees the answers
          without calling the service
        </label>
      )}
      {result?.kind === 'copied' && (
        <p role="status" data-testid="sessions.shareMessage">
          Link copied ({result.url.length.toLocaleString()} characters).
        </p>
      )}
      {result?.kind === 'shown' && (
        <p role="status" data-testid="sessions.shareMessage">
          The browser did not allow copying; select the link below and copy it.
        </p>
      )}
      {(result?.kind === 'copied' || result?.kind === 'shown') && (
        <textarea
          className="share-url"
          readOnly
          rows={3}
          value={result.url}
          aria-label="Share link"
          onFocus={(e) => e.currentTarget.select()}
          data-testid="sessions.shareUrl"
        />
      )}
      {result?.kind === 'file' && (
        <p role="alert" data-testid="sessions.shareMessage">
          {result.reason} It was saved as the file {result.fileName} instead; send that file, and the receiver
          imports it.
        </p>
      )}
      <div className="dialog-buttons">
        <button
          type="button"
          className="primary"
          onClick={() => void make()}
          disabled={busy}
          data-testid="sessions.shareCopy"
        >
          {busy ? 'Making the link…' : 'Copy link'}
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
