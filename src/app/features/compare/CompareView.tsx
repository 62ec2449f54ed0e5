// The comparison view: 2..4 columns (a target and a model each) run on the session's state and questions, side by
// side, question by question on shared axes, flagged where they disagree. Wiring only: alignment and metrics are
// src/core/compare and src/core/metrics; the comparison itself is saved in the session by the container.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { ClientTarget } from '../../../client';
import type { EvaluateRequest } from '../../../contract';
import {
  MAX_COLUMNS,
  MIN_COLUMNS,
  addColumn,
  compareColumns,
  pinColumn,
  removeColumn,
  sameQuestionsAndState,
  sortQuestions,
  updateColumn,
} from '../../../core/compare';
import { newId } from '../../../core/ids';
import { plural } from '../../../core/words';
import type { ComparedCell, ComparedQuestion } from '../../../core/compare';
import type { Compare, CompareColumn, RunRecord } from '../../../core/session';
import { useCompare } from '../../stores/compare';
import type { ColumnControl } from './CompareColumnRunner';
import { CompareColumnRunner } from './CompareColumnRunner';
import { CompareQuestionRow } from './CompareQuestionRow';
import { CompareToolbar } from './CompareToolbar';
import { columnTitle } from './CompareColumnHeader';
import { statusFromRun, statusLine } from './columnStatus';
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

/** A column's name for people: its model and target. */
const columnLabel = (c: CompareColumn): string => `${c.model.trim() || 'no model'} on ${c.targetId}`;

/** The comparison of pinned model versions. */
export function CompareView(props: CompareViewProps) {
  const { compare, runs, onCompareChange, draftFor } = props;
  const sort = useCompare((s) => s.sort);
  const onlyFlagged = useCompare((s) => s.onlyFlagged);
  const setSort = useCompare((s) => s.setSort);
  const setOnlyFlagged = useCompare((s) => s.setOnlyFlagged);
  const controls = useRef(new Map<string, ColumnControl>());
  const [running, setRunning] = useState<ReadonlySet<string>>(new Set());

  const lastRuns = useMemo(() => {
    const byId = new Map(runs.map((r) => [r.id, r]));
    return compare.columns.map((c) => {
      const id = compare.runIds[c.id];
      return id === undefined ? undefined : byId.get(id);
    });
  }, [runs, compare.columns, compare.runIds]);

  const comparison = useMemo(
    () =>
      compareColumns(
        compare.columns.map((c, i) => ({
          id: c.id,
          request: lastRuns[i]?.request,
          response: lastRuns[i]?.response,
        })),
        compare.threshold,
      ),
    [compare.columns, compare.threshold, lastRuns],
  );
  const listed = sortQuestions(comparison.questions, sort).filter((q) => !onlyFlagged || q.flagged);

  const drafts = useMemo(
    () => new Map(compare.columns.map((c) => [c.id, draftFor(c)])),
    [compare.columns, draftFor],
  );
  const blocked = [...drafts.values()].find((d) => d.problem !== null)?.problem ?? null;

  const register = useCallback((columnId: string, control: ColumnControl | null) => {
    if (control) controls.current.set(columnId, control);
    else controls.current.delete(columnId);
  }, []);
  const onRunningChange = useCallback((columnId: string, isRunning: boolean) => {
    setRunning((prev) => {
      if (prev.has(columnId) === isRunning) return prev;
      const next = new Set(prev);
      if (isRunning) next.add(columnId);
      else next.delete(columnId);
      return next;
    });
  }, []);

  const pin = useCallback(
    (columnId: string, model: string) => onCompareChange((c) => pinColumn(c, columnId, model)),
    [onCompareChange],
  );
  const remove = useCallback(
    (columnId: string) => {
      controls.current.get(columnId)?.cancel();
      onCompareChange((c) => removeColumn(c, columnId));
    },
    [onCompareChange],
  );

  // Nothing runs while a column is blocked; columns already running are not restarted.
  const runAll = useCallback(() => {
    if (blocked === null && running.size === 0) controls.current.forEach((c) => c.run());
  }, [blocked, running]);
  const cancelAll = () => controls.current.forEach((c) => c.cancel());

  // The workbench's Run button and Ctrl+Enter run every column while compare mode is on screen.
  const setRunAll = useCompare((s) => s.setRunAll);
  useEffect(() => {
    setRunAll(runAll);
    return () => setRunAll(null);
  }, [setRunAll, runAll]);

  const missingReason = (columnId: string): string => {
    if (running.has(columnId)) return 'Running…';
    const i = compare.columns.findIndex((c) => c.id === columnId);
    const status = statusFromRun(lastRuns[i]);
    return status.phase === 'answered' ? 'No answer to this question in the last run.' : statusLine(status);
  };

  const staleLabels = comparison.staleColumnIds
    .map((id) => compare.columns.find((c) => c.id === id))
    .filter((c): c is CompareColumn => c !== undefined)
    .map(columnLabel);
  // The editors moved on since the columns ran: the answers shown are for the state and questions as they were.
  const edited = compare.columns.some((c, i) => {
    const sent = lastRuns[i]?.request;
    const now = drafts.get(c.id)?.request;
    return sent !== undefined && now !== null && now !== undefined && !sameQuestionsAndState(sent, now);
  });

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
        onSortChange={setSort}
        onlyFlagged={onlyFlagged}
        onOnlyFlaggedChange={setOnlyFlagged}
        flaggedCount={comparison.flaggedCount}
        questionCount={comparison.questions.length}
        running={running.size}
        runBlocked={blocked}
        onRunAll={runAll}
        onCancelAll={cancelAll}
        canAddColumn={compare.columns.length < MAX_COLUMNS}
        onAddColumn={() => onCompareChange((c) => addColumn(c, newId))}
      />
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
            onRunningChange={onRunningChange}
            register={register}
            onPin={pin}
            onRemove={compare.columns.length > MIN_COLUMNS ? remove : undefined}
            targetPicker={props.renderTargetPicker(column, index, (targetId) =>
              onCompareChange((c) => updateColumn(c, column.id, { targetId })),
            )}
            modelPicker={props.renderModelPicker(column, index, (model) =>
              onCompareChange((c) => updateColumn(c, column.id, { model })),
            )}
          />
        ))}
      </div>
      {edited && (
        <p className="cmp-warning" role="note" data-testid="compare.edited">
          The state or questions changed since these answers: run all to compare the current version.
        </p>
      )}
      {staleLabels.length > 0 && (
        <p className="cmp-warning" role="note" data-testid="compare.stale">
          {staleLabels.join(', ')} last ran on another state or other questions than the baseline: run all
          again to compare like with like.
        </p>
      )}
      {Object.keys(comparison.refusedCounts).length > 0 && (
        <p className="cmp-note" role="note" data-testid="compare.refusals">
          {compare.columns
            .filter((c) => comparison.refusedCounts[c.id] !== undefined)
            .map(
              (c) => `${columnLabel(c)} refused ${plural(comparison.refusedCounts[c.id] ?? 0, 'question')}`,
            )
            .join('; ')}
          : refusals are counted apart, never as a disagreement or a zero.
        </p>
      )}
      {comparison.questions.length === 0 ? (
        <p className="cmp-empty" data-testid="compare.empty">
          Run the columns to compare their answers question by question.
        </p>
      ) : listed.length === 0 ? (
        <p className="cmp-empty">No question disagrees by more than {compare.threshold.toFixed(2)}.</p>
      ) : (
        <>
          {/* Kept in view while the questions scroll: which column is which, and how many are flagged. */}
          <div className="cmp-sticky" data-testid="compare.sticky">
            <p className="cmp-sticky-count" data-testid="compare.stickyCount">
              {comparison.flaggedCount} of {comparison.questions.length} flagged
            </p>
            <div
              className="cmp-names"
              style={{ gridTemplateColumns: `repeat(${compare.columns.length}, minmax(0, 1fr))` }}
            >
              {compare.columns.map((c, i) => {
                const resolved = lastRuns[i]?.response?.model;
                return (
                  <p key={c.id} className="cmp-name" data-testid="compare.columnName">
                    <strong>{columnTitle(i)}</strong> <code>{c.model.trim() || 'no model'}</code>
                    {resolved && resolved !== c.model.trim() && <> → {resolved}</>}
                    <span className="muted"> · {c.targetId}</span>
                  </p>
                );
              })}
            </div>
          </div>
          <ol className="cmp-questions" aria-label="Questions compared">
            {listed.map((q) => (
              <li key={q.name}>
                <CompareQuestionRow
                  question={q}
                  columnLabels={compare.columns.map(columnLabel)}
                  threshold={compare.threshold}
                  renderAnswer={(cell, question) =>
                    props.renderAnswer(
                      cell,
                      question,
                      question.cells.findIndex((c) => c.columnId === cell.columnId),
                    )
                  }
                  missingReason={missingReason}
                />
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
