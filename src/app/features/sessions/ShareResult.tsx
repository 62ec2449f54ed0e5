// What making a share link came to: the link (copied, or shown to copy by hand) with the labels it leaves out, or the
// session too long for a link, with what would fit and the file to send instead.
import type { RefObject } from 'react';
import { MAX_SHARE_URL_LENGTH, labelsLeftOutSentence } from '../../../core/shareLink';
import type { ShareResult, TooLong } from './useShareLink';

const count = (n: number): string => n.toLocaleString();

type LinkResult = Extract<ShareResult, { kind: 'copied' | 'shown' }>;

/** The link made, whether it was copied, and the box to copy it from. */
export function ShareLinkShown({
  result,
  urlBox,
}: {
  result: LinkResult;
  urlBox: RefObject<HTMLTextAreaElement | null>;
}) {
  return (
    <>
      {result.kind === 'copied' && (
        <p role="status" data-testid="sessions.shareMessage">
          Link copied ({count(result.url.length)} characters).
        </p>
      )}
      {result.kind === 'shown' && (
        <p role="status" data-testid="sessions.shareMessage">
          The browser did not allow copying; select the link below and copy it.
        </p>
      )}
      {result.labelsLeftOut && (
        <p role="status" data-testid="sessions.shareLabelsLeftOut">
          {labelsLeftOutSentence(result.labelsLeftOut)}
        </p>
      )}
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
    </>
  );
}

/** Too long for a link: its length against what links keep, what fits without the runs, and the file. */
export function ShareTooLong({ tooLong, saved }: { tooLong: TooLong; saved: boolean }) {
  const withoutRuns = tooLong.withoutRuns;
  return (
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
      {saved ? (
        <p data-testid="sessions.shareSaved">
          Saved as {tooLong.file.fileName} in your downloads. Send that file; the receiver opens it with
          Import… in the sessions list.
        </p>
      ) : (
        <p>Or save the session as a file to send; the receiver opens it with Import….</p>
      )}
    </div>
  );
}
