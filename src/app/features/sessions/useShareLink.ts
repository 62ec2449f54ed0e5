// The share dialog's state: whether the runs go along, the link being made, and what came of it (copied, shown to
// copy by hand, too long for a link, saved as a file).
import { useEffect, useRef, useState } from 'react';
import type { LabelsLeftOut } from '../../../core/shareLink';
import type { ShareOutcome, SessionSummary } from '../../stores/sessions';
import { copyText, downloadText } from './browserFiles';

export type TooLong = Extract<ShareOutcome, { kind: 'file' }>;
export type ShareResult =
  | { kind: 'copied' | 'shown'; url: string; labelsLeftOut?: LabelsLeftOut }
  | { kind: 'tooLong'; outcome: TooLong }
  | { kind: 'saved'; outcome: TooLong };

export type ShareFn = (id: string, includeRuns: boolean) => Promise<ShareOutcome | null>;

/** The share dialog's choices and result, the link's box (focused when a link is shown), and its two actions. */
export function useShareLink(session: SessionSummary, share: ShareFn) {
  const [includeRuns, setIncludeRuns] = useState(session.runCount > 0);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ShareResult | null>(null);
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
  return { includeRuns, setIncludeRuns, busy, result, setResult, urlBox, makeLink, saveFile, tooLong };
}
