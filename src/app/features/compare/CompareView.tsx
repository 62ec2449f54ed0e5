// The comparison view: 2..4 columns (a target and a model each) run on the session's state and questions, side by
// side, question by question on shared axes, flagged where they disagree. Wiring only: alignment and metrics are
// src/core/compare and src/core/metrics; the comparison itself is saved in the session by the container.
import type { ReactNode } from 'react';
import type { ClientTarget } from '../../../client';
import type { EvaluateRequest } from '../../../contract';
import { MAX_COLUMNS, MIN_COLUMNS, addColumn, sortQuestions, updateColumn } from '../../../core/compare';
import { newId } from '../../../core/ids';
import type { ComparedCell, ComparedQuestion } from '../../../core/compare';
import type { Compare, CompareColumn, RunRecord } from '../../../core/session';
import { useCompare } from '../../stores/compare';
import { CompareColumnRunner } from './CompareColumnRunner';
import { CompareNotes } from './CompareNotes';
import { CompareQuestions } from './CompareQuestions';
import { CompareToolbar } from './CompareToolbar';
import { statusFromRun, statusLine } from './columnStatus';
import { useColumnControls } from './useColumnControls';
import { useComparison } from './useComparison';
import './compare.css';

export interface CompareViewProps {
  sessionId: string;
  compare: Compare;
  runs: readonly RunRecord[];
  /** The request a column would send with its model, or why it cannot be sent (syntax or contract errors). */
  draftFor: (column: CompareColumn) => { request: EvaluateRequest | null; problem: string | null };
  resolveTarget: (targetId: string) => ClientTarget;
  /** Applies an edit to the session's comparison (functional, so parallel columns never overwrite each other). */
  onCompareChange: (edit: (compare: Compare) => Compare) => void;
  /** Appends a finished run to the session and makes it the column's latest. */
  onRunRecorded: (columnId: string, run: RunRecord) => void;
  /** The target picker of a column; `onChange` switches the column to another target. */
  renderTargetPicker: (
    column: CompareColumn,
    index: number,
    onChange: (targetId: string) => void,
  ) => ReactNode;
  /** The model picker of a column; `onChange` sets the column's model id. */
  renderModelPicker: (column: CompareColumn, index: number, onChange: (model: string) => void) => ReactNode;
  /** Draws one answer on the question's shared axes (the answer cards with shared option order and domain). */
  renderAnswer: (cell: ComparedCell, question: ComparedQuestion, columnIndex: number) => ReactNode;
}

/** Narrowest a column gets: room for a chart's labels, its bars and their values (4 fit beside each other at 1280 px
 * once the editors fold). */
const MIN_COLUMN_PX = 230;

/** The comparison of pinned model versions. */
export function CompareView(props: CompareViewProps) {
  const { compare, runs, onCompareChange, draftFor } = props;
  const sort = useCompare((s) => s.sort);
  const onlyFlagged = useCompare((s) => s.onlyFlagged);
  const { lastRuns, comparison, drafts, blocked, edited } = useComparison(compare, runs, draftFor);
  const listed = sortQuestions(comparison.questions, sort).filter((q) => !onlyFlagged || q.flagged);
  const columns = useColumnControls(onCompareChange, blocked);
  const { running, runAll } = columns;

  const missingReason = (columnId: string): string => {
    if (running.has(columnId)) return 'Running…';
    const i = compare.columns.findIndex((c) => c.id === columnId);
    const status = statusFromRun(lastRuns[i]);
    return status.phase === 'answered' ? 'No answer to this question in the last run.' : statusLine(status);
  };

  return (
    <div
      className="cmp-view"
      // Below this width per column the charts have no room for their bars: the side scrolls instead.
      style={{ minWidth: compare.columns.length * MIN_COLUMN_PX }}
      data-testid="compare.view"
      onKeyDown={(e) => {
        // Ctrl/Cmd+Enter runs every column, as it runs the single model outside compare mode.
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          runAll();
        }
      }}
    >
      <h2 className="visually-hidden">Compare model versions</h2>
      <CompareToolbar
        threshold={compare.threshold}
        onThresholdChange={(threshold) => onCompareChange((c) => ({ ...c, threshold }))}
        sort={sort}
        onSortChange={useCompare.getState().setSort}
        onlyFlagged={onlyFlagged}
        onOnlyFlaggedChange={useCompare.getState().setOnlyFlagged}
        flaggedCount={comparison.flaggedCount}
        questionCount={comparison.questions.length}
        running={running.size}
        runBlocked={blocked}
        onRunAll={runAll}
        onCancelAll={columns.cancelAll}
        canAddColumn={compare.columns.length < MAX_COLUMNS}
        onAddColumn={() => onCompareChange((c) => addColumn(c, newId))}
      />
      <ColumnGrid {...props} drafts={drafts} lastRuns={lastRuns} controls={columns} />
      <CompareNotes columns={compare.columns} comparison={comparison} edited={edited} />
      <CompareQuestions
        columns={compare.columns}
        lastRuns={lastRuns}
        comparison={comparison}
        listed={listed}
        threshold={compare.threshold}
        renderAnswer={props.renderAnswer}
        missingReason={missingReason}
      />
    </div>
  );
}

interface ColumnGridProps extends CompareViewProps {
  drafts: ReturnType<typeof useComparison>['drafts'];
  lastRuns: ReturnType<typeof useComparison>['lastRuns'];
  controls: ReturnType<typeof useColumnControls>;
}

/** The columns side by side, each with its pickers, its run and its status. */
function ColumnGrid(props: ColumnGridProps) {
  const { compare, onCompareChange, drafts, lastRuns, controls } = props;
  return (
    <div
      className="cmp-columns"
      style={{ gridTemplateColumns: `repeat(${compare.columns.length}, minmax(0, 1fr))` }}
    >
      {compare.columns.map((column, index) => (
        <CompareColumnRunner
          key={column.id}
          sessionId={props.sessionId}
          column={column}
          index={index}
          draft={drafts.get(column.id) ?? { request: null, problem: 'No request.' }}
          lastRun={lastRuns[index]}
          resolveTarget={props.resolveTarget}
          onRecorded={props.onRunRecorded}
          onRunningChange={controls.onRunningChange}
          register={controls.register}
          onPin={controls.pin}
          onRemove={compare.columns.length > MIN_COLUMNS ? controls.remove : undefined}
          targetPicker={props.renderTargetPicker(column, index, (targetId) =>
            onCompareChange((c) => updateColumn(c, column.id, { targetId })),
          )}
          modelPicker={props.renderModelPicker(column, index, (model) =>
            onCompareChange((c) => updateColumn(c, column.id, { model })),
          )}
        />
      ))}
    </div>
  );
}
