// The alignment report: kept with the session with the run's human labels (so both travel in session files and share
// links, and the report replays offline), or saved as a file, Markdown or HTML with the reliability diagrams in SVG.
import type { AlignmentReport } from '../../../core/alignment/compute';
import { alignmentHtml, alignmentMarkdown, summariseReport } from '../../../core/alignment/report';
import { labelledRowsOf } from '../../../core/alignment/sessionLabels';
import type { RowRun } from '../../../core/rows/records';
import { downloadParts } from '../../platform/download';
import { useRows } from '../../stores/rows';
import { useSessions } from '../../stores/sessions';

export interface ReportButtonsProps {
  run: RowRun;
  report: AlignmentReport | null;
  /** The file's row id of a row number, as reports name rows. */
  rowIdOf: (id: string) => string;
}

export function ReportButtons({ run, report, rowIdOf }: ReportButtonsProps) {
  const base = run.fileName.replace(/\.[^.]+$/, '') || 'rows';
  const setAlignment = useSessions((s) => s.setAlignment);
  const hasSession = useSessions((s) => s.open !== null);
  // The run's labels go with the figures, so the session can put them back on a run of the same file.
  const summary = () =>
    report
      ? summariseReport(report, run, rowIdOf, new Date(), labelledRowsOf(useRows.getState().results()))
      : null;
  const save = (kind: 'md' | 'html') => {
    const s = summary();
    if (!s) return;
    if (kind === 'md')
      downloadParts(`${base}-alignment.md`, 'text/markdown;charset=utf-8', [alignmentMarkdown(s)]);
    else downloadParts(`${base}-alignment.html`, 'text/html;charset=utf-8', [alignmentHtml(s)]);
  };
  return (
    <span className="align-report">
      <button
        type="button"
        disabled={!report || !hasSession}
        onClick={() => setAlignment(summary() ?? undefined)}
        data-testid="align.report.keep"
        title="Kept with the open session: it goes into session files and share links"
      >
        Keep this report in the session
      </button>
      <button type="button" disabled={!report} onClick={() => save('md')} data-testid="align.report.md">
        Report (Markdown)
      </button>
      <button type="button" disabled={!report} onClick={() => save('html')} data-testid="align.report.html">
        Report (HTML)
      </button>
    </span>
  );
}
