// The main screen's one line about a run of rows that stopped when the page closed, with the way back to it.
import { useResumeOffer } from '../../stores/resumeOffer';
import { formatCount } from './format';
import './ResumeNotice.css';

export interface ResumeNoticeProps {
  /** Shows the rows screen, which then opens the run. */
  onOpen: () => void;
}

/** "The run of tickets.csv stopped at 121 of 400 when the page closed. Open it" — or nothing. */
export function ResumeNotice({ onOpen }: ResumeNoticeProps) {
  const offer = useResumeOffer((s) => s.offer);
  const take = useResumeOffer((s) => s.take);
  const done = useResumeOffer((s) => s.done);
  if (!offer) return null;
  return (
    <p className="rows-resume-notice" role="status" data-testid="rows.resumeNotice">
      The run of {offer.fileName} stopped at {formatCount(offer.settled)} of {formatCount(offer.total)} when
      the page closed.{' '}
      <button
        type="button"
        className="link-button"
        onClick={() => {
          take();
          onOpen();
        }}
        data-testid="rows.resumeNotice.open"
      >
        Open it to resume
      </button>{' '}
      <button type="button" className="link-button" aria-label="Dismiss this notice" onClick={done}>
        Dismiss
      </button>
    </p>
  );
}
