// The alignment screen: how the judge's answers on a labelled run agree with people's labels, per question (with n
// and 95% intervals), how calibrated its probabilities are, the confident mistakes, labelling in the app, and
// variants compared row by row. Wiring only: the figures are computed in src/core/alignment, in a worker.
import { useRows } from '../../stores/rows';
import { useSessionQuestions } from '../../stores/sessionQuestions';
import { AlignmentHeader } from './AlignmentHeader';
import { AlignmentRunPicker } from './AlignmentRunPicker';
import { AlignmentVariants } from './AlignmentVariants';
import { FiguresTab } from './FiguresTab';
import { LabelRowsTab } from './LabelRowsTab';
import { familyOf } from './VariantsPanel';
import { useAlignment } from './alignmentStore';
import type { AlignmentState } from './alignmentStore';
import { TakeLabels } from './TakeLabels';
import { useAlignmentActions } from './useAlignmentActions';
import { useAlignmentFigures } from './useAlignmentFigures';
import { useAlignmentPlans } from './useAlignmentPlans';
import { useOpenRunAddress } from './useOpenRunAddress';
import './alignment.css';

export interface AlignmentScreenProps {
  targetId: string;
  /** The target's price per million input tokens (null: it states none), for what a variant would cost. */
  inputPrice?: number | null;
  /** Shows the main screen (after a row was put there as the state). */
  onOpenInWorkbench: () => void;
  /** Shows the rows screen (after a filter of the open run was set there). */
  onOpenRows: () => void;
}

export function AlignmentScreen(props: AlignmentScreenProps) {
  const { targetId, inputPrice: price } = props;
  const rows = useRows();
  const align = useAlignment();
  const session = useSessionQuestions();
  const run = rows.openRun;
  useOpenRunAddress(run?.id ?? null);
  const { related } = useAlignmentFigures(rows, align);
  const { stored, byNumber, variantSends, takePlan } = useAlignmentPlans(rows, session, targetId, price);
  const actions = useAlignmentActions({ ...props, rows, align, session });

  if (!run) return <AlignmentRunPicker rows={rows} stored={stored} />;

  const report = align.report && align.reportOf?.runId === run.id ? align.report : null;
  const variants = (
    <AlignmentVariants
      run={run}
      rows={rows}
      align={align}
      related={related}
      problem={session.problem}
      plan={variantSends}
      onRunVariant={() => void actions.runVariant()}
    />
  );
  return (
    <div className="align-screen" data-testid="align.screen">
      <AlignmentHeader run={run} rows={rows} computing={align.computing} />
      {(rows.error || align.error) && (
        <p role="alert" className="rows-message rows-message--error">
          {rows.error ?? align.error}
        </p>
      )}
      {takePlan && stored && (
        <TakeLabels
          key={run.id}
          plan={takePlan}
          keptRows={stored.labels?.length ?? 0}
          fileName={stored.run.fileName}
          onTake={(changes) => rows.setLabels(changes)}
        />
      )}
      <AlignmentViews align={align} />
      {align.view === 'label' ? (
        <LabelRowsTab run={run} rows={rows} align={align} byNumber={byNumber} />
      ) : (
        <FiguresTab
          run={run}
          align={align}
          report={report}
          byNumber={byNumber}
          // With other runs of the same rows to compare with, the comparison comes first, above every question's mistakes.
          variantsFirst={familyOf(run, rows.runs).length > 0}
          variants={variants}
          onOpenRow={(row) => void actions.openRow(row)}
          onOpenRows={actions.openRows}
          escalation={{
            nextJudge: rows.running || !session.model ? null : `${session.model} at ${targetId}`,
            onEscalate: (q, numbers, threshold) => void actions.escalate(q, numbers, threshold),
          }}
        />
      )}
    </div>
  );
}

/** The switch between the figures and the labelling view. */
function AlignmentViews({ align }: { align: AlignmentState }) {
  return (
    <nav className="align-views" aria-label="Alignment views">
      <button
        type="button"
        aria-pressed={align.view === 'figures'}
        onClick={() => align.setView('figures')}
        data-testid="align.view.figures"
      >
        Figures
      </button>
      <button
        type="button"
        aria-pressed={align.view === 'label'}
        onClick={() => align.setView('label')}
        data-testid="align.view.label"
      >
        Label rows
      </button>
    </nav>
  );
}
