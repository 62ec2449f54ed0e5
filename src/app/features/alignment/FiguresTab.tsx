// The alignment screen's figures tab: the options, every labelled question's panel, the questions without labels,
// the conventions of the figures, and the variants (first when other runs of the same rows exist).
import type { ReactNode } from 'react';
import type { Question } from '../../../contract';
import type { AlignmentReport } from '../../../core/alignment/compute';
import type { RowRun } from '../../../core/rows/records';
import type { ResultRow } from '../../../core/rows/results';
import type { AlignmentState } from './alignmentStore';
import { QuestionPanel } from './QuestionPanel';
import type { QuestionPanelProps, RowsWanted } from './QuestionPanel';
import { ReportButtons } from './ReportButtons';

export interface FiguresTabProps {
  run: RowRun;
  align: AlignmentState;
  /** The open run's report, or null while it is computed. */
  report: AlignmentReport | null;
  byNumber: ReadonlyMap<number, ResultRow>;
  /** The variants panel, and whether it comes first (other runs of the same rows exist). */
  variants: ReactNode;
  variantsFirst: boolean;
  onOpenRow: (row: ResultRow) => void;
  onOpenRows: (question: string, wanted: RowsWanted) => void;
  escalation: NonNullable<QuestionPanelProps['escalation']>;
}

export function FiguresTab(props: FiguresTabProps) {
  const { run, align, report, byNumber, variants, variantsFirst } = props;
  const names = Object.keys(run.questions);
  const unlabelled = names.filter((n) => !report?.questions[n]);
  return (
    <>
      <div className="align-options">
        <label>
          Score prediction{' '}
          <select
            value={align.options.scorePrediction}
            onChange={(e) =>
              align.setScorePrediction(e.currentTarget.value as 'mostProbable' | 'expectedRounded')
            }
          >
            <option value="mostProbable">most probable level</option>
            <option value="expectedRounded">expected score, rounded</option>
          </select>
        </label>
        <ReportButtons run={run} report={report} rowIdOf={(id) => byNumber.get(Number(id))?.id ?? id} />
      </div>
      {variantsFirst && variants}
      {!report && <p role="status">Computing the figures…</p>}
      {report &&
        names
          .filter((n) => report.questions[n])
          .map((n) => (
            <QuestionPanel
              key={n}
              report={report.questions[n]!}
              definition={run.questions[n] as Question}
              mapping={run.mapping}
              rowOf={(number) => byNumber.get(number)}
              cell={align.cell}
              onCell={align.openCell}
              threshold={align.options.noulThresholds[n] ?? 0.5}
              onThreshold={(v) => align.setThreshold(n, v)}
              onOpenRow={props.onOpenRow}
              onOpenRows={(wanted) => props.onOpenRows(n, wanted)}
              bootstrap={report.bootstrap}
              fileBase={run.fileName.replace(/\.[^.]+$/, '') || 'rows'}
              escalation={props.escalation}
            />
          ))}
      {report && unlabelled.length > 0 && (
        <p className="muted" data-testid="align.unlabelled">
          No labels yet for {unlabelled.map((n) => `“${n}”`).join(', ')}: label rows in the app to measure
          them.
        </p>
      )}
      {report && <FigureConventions conventions={report.conventions} />}
      {!variantsFirst && variants}
    </>
  );
}

/** The conventions the figures follow, folded away. */
function FigureConventions({ conventions }: { conventions: readonly string[] }) {
  return (
    <details className="panel">
      <summary>Conventions of these figures</summary>
      <ul>
        {conventions.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
    </details>
  );
}
