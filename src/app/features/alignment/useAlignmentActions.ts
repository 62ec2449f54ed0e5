// What the alignment screen does on the open run: open a row or a set of rows on another screen, escalate a
// cascade's abstentions to a next judge, run a variant with the session's questions.
import { NO_FILTER } from '../../../core/rows/results';
import type { ResultRow } from '../../../core/rows/results';
import { docOfRow } from '../../../core/rows/rowDoc';
import type { RowsState } from '../../stores/rows';
import { useRows } from '../../stores/rows';
import { useRowsView } from '../../stores/rowsView';
import type { SessionQuestions } from '../../stores/sessionQuestions';
import { useSessions } from '../../stores/sessions';
import type { AlignmentState } from './alignmentStore';
import type { RowsWanted } from './QuestionPanel';

export interface AlignmentActionsInput {
  rows: RowsState;
  align: AlignmentState;
  session: SessionQuestions;
  targetId: string;
  onOpenInWorkbench: () => void;
  onOpenRows: () => void;
}

/** The screen's handlers; each does nothing without an open run (or, for a variant, the session's questions). */
export function useAlignmentActions(input: AlignmentActionsInput) {
  const { rows, align, session, targetId, onOpenInWorkbench, onOpenRows } = input;
  const sessionId = useSessions((s) => s.openId);
  const run = rows.openRun;

  // A row opens as the run asked it (its questions, model and target) in a new session: the one open until now stays
  // in the sessions list as it was, and the notice says so.
  const openRow = async (row: ResultRow) => {
    if (!run) return;
    const doc = docOfRow(row.data, run);
    if (doc === null) return;
    const before = useSessions.getState().open?.name;
    await useSessions
      .getState()
      .openNewSession(
        doc,
        `Row ${row.id} of ${run.fileName}`,
        `Row ${row.id} of ${run.fileName} is open in a new session, with the run’s questions, model (${run.model}) and target (${run.targetId}).${before ? ` “${before}” is unchanged in the sessions list.` : ''}`,
      );
    onOpenInWorkbench();
  };

  // Every row of a cell, or every disagreement, in the rows screen: the report keeps only the first of them.
  const openRows = (question: string, wanted: RowsWanted) => {
    if (!run) return;
    useRowsView.getState().setFilter(run.id, {
      ...NO_FILTER,
      agreement: {
        question,
        ...wanted,
        scorePrediction: align.options.scorePrediction,
        threshold: align.options.noulThresholds[question] ?? 0.5,
      },
    });
    onOpenRows();
  };

  // A cascade's next judge: the session's model at the chosen target, asked only about the rows this judge abstains on.
  const escalate = async (question: string, numbers: number[], threshold: number | null) => {
    if (!run) return;
    const id = await rows.createVariant({
      questions: run.questions,
      model: session.model,
      targetId,
      ...(sessionId ? { sessionId } : {}),
      onlyRows: numbers,
      escalatedFrom: { runId: run.id, question, threshold },
    });
    if (id) void useRows.getState().start();
  };

  const runVariant = async () => {
    if (!session.questions) return;
    const id = await rows.createVariant({
      questions: session.questions,
      model: session.model,
      targetId,
      ...(sessionId ? { sessionId } : {}),
    });
    if (id) void useRows.getState().start();
  };

  return { openRow, openRows, escalate, runVariant };
}
