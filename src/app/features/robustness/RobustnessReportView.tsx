// The robustness check's report: what was checked and billed, whether it is of what is planned now, and one card per
// question.
import { estimateCost, formatCost } from '../../../contract';
import type { RobustnessReport } from '../../../core/robustness/card';
import { identicalLine } from '../../../core/robustness/verdict';
import { RobustnessCardView } from './RobustnessCardView';

/** What a report's answers billed, at the price it was costed at (older reports: the published price). */
function billedText(report: RobustnessReport): string {
  if (report.inputPrice === null) return `${report.billedTokens} input tokens (price unknown)`;
  return `about ${formatCost(estimateCost(report.billedTokens, report.inputPrice))}`;
}

export interface RobustnessReportViewProps {
  report: RobustnessReport;
  /** True when the report was made for another request (or sample) than the one planned now. */
  stale: boolean;
}

export function RobustnessReportView({ report, stale }: RobustnessReportViewProps) {
  const identical = identicalLine(
    report.identicalAnswers,
    report.settings.repeats,
    report.source.kind === 'rows' ? report.source.sampled : 1,
  );
  return (
    <section className="robustness-report" aria-label="Robustness report" data-testid="robustness.report">
      <p className="muted num" data-testid="robustness.reportMeta">
        {report.source.kind === 'rows'
          ? `${report.source.sampled} of ${report.source.rowCount} rows of “${report.source.fileName}”`
          : 'The request on screen'}
        , {report.model} on {report.targetId}, {new Date(report.at).toLocaleString()}: {report.sent} sent,{' '}
        {report.reused} reused{report.failed > 0 ? `, ${report.failed} unanswered` : ''}; billed{' '}
        <span data-testid="robustness.billed">{billedText(report)}</span>
        {report.estimatedCost === null ? '' : ` (estimated ${formatCost(report.estimatedCost)})`}. Kept in
        this session and its share link.
      </p>
      {stale && (
        <p role="note" className="robustness-dialog__stale" data-testid="robustness.stale">
          This report was made for {report.source.kind === 'rows' ? 'another sample' : 'an earlier request'};
          run the check again for what is planned above.
        </p>
      )}
      {identical && <p data-testid="robustness.identical">{identical}</p>}
      {report.cards.map((card) => (
        <RobustnessCardView key={card.question} card={card} />
      ))}
    </section>
  );
}
