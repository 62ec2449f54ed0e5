// Making a share link: choose whether the runs go along, copy the link. A session too long for a link says so first,
// with its length and what fits (without the runs), and is saved as a file only when the user asks.
import { useEffect, useRef, useState } from 'react';
import { MAX_SHARE_URL_LENGTH, labelsLeftOutSentence } from '../../../core/shareLink';
import type { LabelsLeftOut } from '../../../core/shareLink';
import type { ShareOutcome, SessionSummary } from '../../stores/sessions';
import { copyText, downloadText } from './browserFiles';
import { Dialog } from '../../components/Dialog';

interface ShareDialogProps {
  session: SessionSummary;
  share: (id: string, includeRuns: boolean) => Promise<ShareOutcome | null>;
  onClose: () => void;
}

type TooLong = Extract<ShareOutcome, { kind: 'file' }>;
type Result =
  | { kind: 'copied' | 'shown'; url: string; labelsLeftOut?: LabelsLeftOut }
  | { kind: 'tooLong'; outcome: TooLong }
  | { kind: 'saved'; outcome: TooLong };

const count = (n: number): string => n.toLocaleString();

/** The share dialog for one session. */
export function ShareDialog({ session, share, onClose }: ShareDialogProps) {
  const [includeRuns, setIncludeRuns] = useState(session.runCount > 0);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const urlBox = useRef<HTMLTextAreaElement>(null);
  // A new link takes focus (selected, ready to copy), so focus never drops out of the dialog with a replaced button.
  const linkShown = result?.kind === 'copied' || result?.kind === 'shown' ? result.url : null;
  useEffect(() => {
    if (linkShown) urlBox.current?.focus();
  }, [linkShown]);

  const makeLink = async (withRuns: boolean): Promise<void> => {
    setBusy(true);
    try {
      const outcome = await share(session.id, withRuns);
      if (!outcome) return;
      if (outcome.kind === 'file') setResult({ kind: 'tooLong', outcome });
      else
        setResult({
          kind: (await copyText(outcome.url)) ? 'copied' : 'shown',
          url: outcome.url,
          ...(outcome.labelsLeftOut && { labelsLeftOut: outcome.labelsLeftOut }),
        });
    } finally {
      setBusy(false);
    }
  };
  const saveFile = (outcome: TooLong): void => {
    downloadText(outcome.file.fileName, outcome.file.text);
    setResult({ kind: 'saved', outcome });
  };
  const tooLong = result?.kind === 'tooLong' || result?.kind === 'saved' ? result.outcome : null;
  const withoutRuns = tooLong?.withoutRuns;

  return (
    <Dialog title={`Share “${session.name}”`} onClose={onClose} testId="sessions.shareDialog">
      <p className="muted">
        The link carries the state, the questions, the target id and the model, and the robustness cards and
        alignment report the session keeps, compressed into the part of the address after <code>#</code>,
        which browsers never send to a server. It holds no key.
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
          Link copied ({count(result.url.length)} characters).
        </p>
      )}
      {result?.kind === 'shown' && (
        <p role="status" data-testid="sessions.shareMessage">
          The browser did not allow copying; select the link below and copy it.
        </p>
      )}
      {(result?.kind === 'copied' || result?.kind === 'shown') && result.labelsLeftOut && (
        <p role="status" data-testid="sessions.shareLabelsLeftOut">
          {labelsLeftOutSentence(result.labelsLeftOut)}
        </p>
      )}
      {(result?.kind === 'copied' || result?.kind === 'shown') && (
        <textarea
          ref={urlBox}
          className="share-url"
          readOnly
          rows={3}
          value={result.url}
          aria-label="Share link"
          onFocus={(e) => e.currentTarget.select()}
          data-testid="sessions.shareUrl"
        />
      )}
      {tooLong && (
        <div role="alert" data-testid="sessions.shareMessage">
          <p>
            Too long for a link: {count(tooLong.length)} characters, and browsers and chat apps reliably keep{' '}
            {count(MAX_SHARE_URL_LENGTH)}.
          </p>
          {withoutRuns?.fits && (
            <p data-testid="sessions.shareWithoutRuns">
              Without the runs: {count(withoutRuns.length)} characters, fits in a link.
            </p>
          )}
          {result?.kind === 'saved' ? (
            <p data-testid="sessions.shareSaved">
              Saved as {tooLong.file.fileName} in your downloads. Send that file; the receiver opens it with
              Import… in the sessions list.
            </p>
          ) : (
            <p>Or save the session as a file to send; the receiver opens it with Import….</p>
          )}
        </div>
      )}
      <div className="dialog-buttons">
        {withoutRuns?.fits && (
          <button
            type="button"
            onClick={() => {
              setIncludeRuns(false);
              void makeLink(false);
            }}
            disabled={busy}
            data-testid="sessions.shareCopyWithoutRuns"
          >
            Copy link without runs
          </button>
        )}
        {tooLong ? (
          <button
            type="button"
            className="primary"
            onClick={() => saveFile(tooLong)}
            data-testid="sessions.shareSave"
          >
            Save file
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            onClick={() => void makeLink(includeRuns)}
            disabled={busy}
            data-testid="sessions.shareCopy"
          >
            {busy ? 'Making the link…' : 'Copy link'}
          </button>
        )}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
