// One column's run: its own React Query mutation, AbortController and live attempts, registered with the view so
// "Run all" can start every column at once. Renders the column's header.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { ClientTarget } from '../../../client';
import type { EvaluateRequest } from '../../../contract';
import { localJudgeLabel } from '../../../contract';
import { pinSuggestion } from '../../../core/compare';
import type { AttemptRecord, CompareColumn, RunRecord } from '../../../core/session';
import { compareRunMutation } from '../../queries/compare';
import { CompareColumnHeader } from './CompareColumnHeader';
import type { ColumnStatus } from './columnStatus';
import { statusFromRun } from './columnStatus';

/** What the view can do with a column from outside: start it, stop it. */
export interface ColumnControl {
  run: () => void;
  cancel: () => void;
}

export interface CompareColumnRunnerProps {
  sessionId: string;
  column: CompareColumn;
  index: number;
  /** The request this column would send (the session's, with this column's model), or why it cannot be sent. */
  draft: { request: EvaluateRequest | null; problem: string | null };
  /** The column's latest saved run. */
  lastRun: RunRecord | undefined;
  resolveTarget: (targetId: string) => ClientTarget;
  /** Saves a finished run as this column's latest (in the session the run was started from). */
  onRecorded: (columnId: string, run: RunRecord) => void;
  onRunningChange: (columnId: string, running: boolean) => void;
  register: (columnId: string, control: ColumnControl | null) => void;
  onPin: (columnId: string, model: string) => void;
  onRemove?: (columnId: string) => void;
  targetPicker: ReactNode;
  modelPicker: ReactNode;
}

/** A comparison column: header plus the machinery of its run. */
export function CompareColumnRunner(props: CompareColumnRunnerProps) {
  const { sessionId, column, resolveTarget, onRecorded, onRunningChange, register, draft } = props;
  const controller = useRef<AbortController | null>(null);
  const [attempts, setAttempts] = useState<AttemptRecord[]>([]);
  const mutation = useMutation({
    ...compareRunMutation(sessionId, column.id, resolveTarget),
    // NOTE: options-level callbacks run even if this column unmounts mid-run, so a finished run is never lost.
    onSuccess: (run) => onRecorded(column.id, run),
  });
  const { mutate, isPending } = mutation;

  const run = useCallback(() => {
    if (!draft.request) return;
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setAttempts([]);
    mutate({
      targetId: column.targetId,
      request: { ...draft.request, model: column.model.trim() },
      signal: abort.signal,
      onAttempt: (a) => {
        if (controller.current === abort) setAttempts((prev) => [...prev, a]);
      },
    });
  }, [draft.request, column.targetId, column.model, mutate]);

  const cancel = useCallback(() => controller.current?.abort(), []);

  useEffect(() => {
    register(column.id, { run, cancel });
    return () => register(column.id, null);
  }, [register, column.id, run, cancel]);

  useEffect(() => onRunningChange(column.id, isPending), [onRunningChange, column.id, isPending]);
  useEffect(() => () => onRunningChange(column.id, false), [onRunningChange, column.id]);

  // Leaving the comparison (another session, or compare mode closed) stops this column's run: its answer would have
  // no column to land in. The cancelled run is still recorded while its session is open.
  useEffect(() => () => controller.current?.abort(), []);

  const status: ColumnStatus = isPending
    ? { phase: 'running', attempts }
    : mutation.isError
      ? { phase: 'failed', attempts, message: mutation.error.message }
      : statusFromRun(props.lastRun);

  return (
    <CompareColumnHeader
      index={props.index}
      model={column.model}
      judge={
        column.targetId === 'local'
          ? localJudgeLabel(props.lastRun?.response?.model ?? column.model.trim())
          : null
      }
      targetPicker={props.targetPicker}
      modelPicker={props.modelPicker}
      status={status}
      pin={pinSuggestion(column.model, props.lastRun?.response?.model)}
      onPin={(model) => props.onPin(column.id, model)}
      onRun={run}
      onCancel={cancel}
      onRemove={props.onRemove ? () => props.onRemove?.(column.id) : undefined}
      runBlocked={draft.problem}
    />
  );
}
