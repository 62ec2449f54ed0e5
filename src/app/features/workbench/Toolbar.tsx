// The run bar above the editors: model, Run (Ctrl/Cmd+Enter), Cancel while running, and what the run is doing.
import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { AttemptRecord } from '../../../core/session';
import { formatLatency } from '../../../core/answerSeries';
import { ModelPicker } from '../../queries/ModelPicker';

export interface ToolbarProps {
  targetId: string;
  model: string;
  onModelChange: (model: string) => void;
  modelProblem: string | null;
  /** The model problem is the service's 422 (shown in the answers). */
  modelRefused?: boolean;
  resolvedModel?: string;
  running: boolean;
  attempts: readonly AttemptRecord[];
  onRun: () => void;
  onCancel: () => void;
  modelInputId: string;
  /** Buttons beside the model (get code, paste a request). */
  tools?: ReactNode;
  /** Compare mode: the columns carry their own targets and models, so the model field gives way to them. */
  comparing?: boolean;
  columnCount?: number;
  editorsFolded?: boolean;
  onToggleEditors?: () => void;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * What the run is doing now: the attempt in flight ("Attempt 2 · waiting for the service…"), or the wait before the
 * next one counted down ("Attempt 1 · 429, retry in 0.6 s"). `sinceLastMs`: time since the latest attempt settled.
 */
export function progress(attempts: readonly AttemptRecord[], sinceLastMs: number): string {
  const last = attempts[attempts.length - 1];
  if (!last) return 'Attempt 1 · waiting for the service…';
  const outcome = typeof last.outcome === 'number' ? String(last.outcome) : last.outcome;
  const left = last.retryInMs !== undefined ? last.retryInMs - sinceLastMs : 0;
  if (left > 0) return `Attempt ${last.attempt + 1} · ${outcome}, retry in ${formatLatency(left)}`;
  return `Attempt ${last.attempt + 2} · waiting for the service…`;
}

/** Ticks while a run goes on, with the time since the attempts last changed. */
function useSinceLastAttempt(running: boolean, attempts: readonly AttemptRecord[]): number {
  const settledAt = useRef(Date.now());
  const [now, setNow] = useState(() => Date.now());
  const count = attempts.length;
  useEffect(() => {
    settledAt.current = Date.now();
    setNow(settledAt.current);
  }, [count]);
  useEffect(() => {
    if (!running) return;
    // A tenth of a second: the countdown reads smoothly without re-rendering the toolbar more than needed.
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [running]);
  return Math.max(0, now - settledAt.current);
}

/** The toolbar of the main screen. */
export function Toolbar(props: ToolbarProps) {
  const { running, attempts } = props;
  const since = useSinceLastAttempt(running, attempts);
  return (
    <div className="workbench-toolbar" role="toolbar" aria-label="Run" data-testid="workbench.toolbar">
      {props.comparing ? (
        <>
          <p className="workbench-toolbar__compare" data-testid="workbench.compareNote">
            {props.columnCount} columns, each with its own target and model
          </p>
          <button
            type="button"
            onClick={props.onToggleEditors}
            aria-pressed={!props.editorsFolded}
            aria-keyshortcuts="Control+Shift+E Meta+Shift+E"
            title="Ctrl+Shift+E"
            data-testid="workbench.toggleEditors"
          >
            {props.editorsFolded ? 'Show editors' : 'Fold editors'} <kbd>{isMac ? '⌘' : 'Ctrl'}⇧E</kbd>
          </button>
        </>
      ) : (
        <ModelPicker
          targetId={props.targetId}
          value={props.model}
          onChange={props.onModelChange}
          problem={props.modelProblem}
          refusedByService={props.modelRefused}
          resolved={props.resolvedModel}
          inputId={props.modelInputId}
        />
      )}
      {props.tools && <div className="workbench-toolbar__tools">{props.tools}</div>}
      <div className="workbench-toolbar__run">
        {/* The countdown is for the eyes; screen readers hear each attempt once (the countdown frozen at its start). */}
        <span className="workbench-toolbar__status num" aria-hidden="true" data-testid="workbench.runStatus">
          {running ? progress(attempts, since) : ''}
        </span>
        <span className="visually-hidden" role="status" aria-live="polite">
          {running ? progress(attempts, 0) : ''}
        </span>
        {running && (
          <button type="button" onClick={props.onCancel} data-testid="workbench.cancel">
            Cancel
          </button>
        )}
        <button
          type="button"
          className="primary run-button"
          onClick={props.onRun}
          disabled={running}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          data-testid="workbench.run"
        >
          {props.comparing ? 'Run all' : 'Run'} <kbd>{isMac ? '⌘' : 'Ctrl'}↵</kbd>
        </button>
      </div>
    </div>
  );
}
