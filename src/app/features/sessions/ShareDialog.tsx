// Making a share link: choose whether the runs go along, copy the link. A session too long for a link says so first,
// with its length and what fits (without the runs), and is saved as a file only when the user asks.
import type { SessionSummary } from '../../stores/sessions';
import { Dialog } from '../../components/Dialog';
import { ShareLinkShown, ShareTooLong } from './ShareResult';
import { useShareLink } from './useShareLink';
import type { ShareFn, TooLong } from './useShareLink';

interface ShareDialogProps {
  session: SessionSummary;
  share: ShareFn;
  onClose: () => void;
}

/** The share dialog for one session. */
export function ShareDialog({ session, share, onClose }: ShareDialogProps) {
  const link = useShareLink(session, share);
  const { result, tooLong } = link;

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
            checked={link.includeRuns}
            onChange={(e) => {
              link.setIncludeRuns(e.target.checked);
              link.setResult(null);
            }}
            data-testid="sessions.shareIncludeRuns"
          />
          Include the {session.runCount} run{session.runCount === 1 ? '' : 's'}: the receiver sees the answers
          without calling the service
        </label>
      )}
      {(result?.kind === 'copied' || result?.kind === 'shown') && (
        <ShareLinkShown result={result} urlBox={link.urlBox} />
      )}
      {tooLong && <ShareTooLong tooLong={tooLong} saved={result?.kind === 'saved'} />}
      <ShareDialogButtons
        tooLong={tooLong}
        busy={link.busy}
        onCopyWithoutRuns={() => {
          link.setIncludeRuns(false);
          void link.makeLink(false);
        }}
        onSave={link.saveFile}
        onCopy={() => void link.makeLink(link.includeRuns)}
        onClose={onClose}
      />
    </Dialog>
  );
}

interface ShareDialogButtonsProps {
  tooLong: TooLong | null;
  busy: boolean;
  onCopyWithoutRuns: () => void;
  onSave: (tooLong: TooLong) => void;
  onCopy: () => void;
  onClose: () => void;
}

/** Copy the link (or, too long, save the file; without the runs when that fits), and close. */
function ShareDialogButtons({
  tooLong,
  busy,
  onCopyWithoutRuns,
  onSave,
  onCopy,
  onClose,
}: ShareDialogButtonsProps) {
  return (
    <div className="dialog-buttons">
      {tooLong?.withoutRuns?.fits && (
        <button
          type="button"
          onClick={onCopyWithoutRuns}
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
          onClick={() => onSave(tooLong)}
          data-testid="sessions.shareSave"
        >
          Save file
        </button>
      ) : (
        <button
          type="button"
          className="primary"
          onClick={onCopy}
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
  );
}
