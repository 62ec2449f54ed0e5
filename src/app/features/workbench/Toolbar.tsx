// The run bar above the editors: model, Run (Ctrl/Cmd+Enter), Cancel while running, and what the run is doing.
import type { ReactNode } from 'react';
import type { AttemptRecord } from '../../../core/session';
import { formatLatency } from '../../../core/answerSeries';
import { ModelPicker } from './ModelPicker';

export interface ToolbarProps {
  targetId: string;
  model: string;
  onModelChange: (model: string) => void;
  modelProblem: string | null;
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

/** What the latest attempt says while a run goes on: "attempt 2 · 429, retry in 0.50 s". */
function progress(attempts: readonly AttemptRecord[]): string {
  const last = attempts[attempts.length - 1];
  if (!last) return 'Sending…';
  const outcome = typeof last.outcome === 'number' ? String(last.outcome) : last.outcome;
  const retry = last.retryInMs !== undefined ? `, retrying in ${formatLatency(last.retryInMs)}` : '';
  return `Attempt ${last.attempt + 1} · ${outcome}${retry}`;
}

/** The toolbar of the main screen. */
export function Toolbar(props: ToolbarProps) {
  const { running, attempts } = props;
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
          resolved={props.resolvedModel}
          inputId={props.modelInputId}
        />
      )}
      {props.tools && <div className="workbench-toolbar__tools">{props.tools}</div>}
      <div className="workbench-toolbar__run">
        <span
          className="workbench-toolbar__status num"
          role="status"
          aria-live="polite"
          data-testid="workbench.runStatus"
        >
          {running ? progress(attempts) : ''}
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
