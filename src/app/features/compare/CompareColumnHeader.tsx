// One column's header: which target and model it runs, its status, Run and Cancel, and the offer to pin an alias.
import type { ReactNode } from 'react';
import { classifyModelId } from '../../../contract';
import type { ColumnStatus } from './columnStatus';
import { describeAttempt, statusLine } from './columnStatus';

export interface CompareColumnHeaderProps {
  /** 0-based; column 0 is the baseline every other column is measured against. */
  index: number;
  model: string;
  /** On the local target, which judge answers this column ("local: model.gguf"); null elsewhere. */
  judge?: string | null;
  /** The target picker for this column (a select of the proxy's targets). */
  targetPicker: ReactNode;
  /** The model picker for this column. */
  modelPicker: ReactNode;
  status: ColumnStatus;
  /** The versioned id to pin this alias column to, or null. */
  pin: string | null;
  onPin: (model: string) => void;
  onRun: () => void;
  onCancel: () => void;
  /** Absent when the column cannot be removed (a comparison keeps at least 2). */
  onRemove?: () => void;
  /** Why this column cannot run now, or null. */
  runBlocked: string | null;
}

/** Column number for people: "Column 1 (baseline)", "Column 2". */
export const columnTitle = (index: number): string =>
  index === 0 ? 'Column 1 (baseline)' : `Column ${index + 1}`;

/** A column's name for people: its model and target. */
export const columnLabel = (c: { model: string; targetId: string }): string =>
  `${c.model.trim() || 'no model'} on ${c.targetId}`;

/** The header of one comparison column. */
export function CompareColumnHeader(props: CompareColumnHeaderProps) {
  const { status, index, pin } = props;
  const running = status.phase === 'running';
  const isAlias = classifyModelId(props.model.trim()) === 'alias';
  return (
    <section
      className={`cmp-column cmp-phase-${status.phase}`}
      aria-label={columnTitle(index)}
      data-testid="compare.column"
      data-column-index={index}
      data-phase={status.phase}
    >
      <header className="cmp-column-title">
        <h3>{columnTitle(index)}</h3>
        {props.onRemove && (
          <button
            type="button"
            className="cmp-quiet"
            onClick={props.onRemove}
            aria-label={`Remove ${columnTitle(index)}`}
            disabled={running}
            data-testid="compare.removeColumn"
          >
            Remove
          </button>
        )}
      </header>
      <div className="cmp-column-pickers">
        {props.targetPicker}
        {props.modelPicker}
      </div>
      {props.judge && (
        <p className="cmp-judge muted" data-testid="compare.columnJudge">
          {props.judge}
        </p>
      )}
      {isAlias && <AliasNotice model={props.model.trim()} pin={pin} running={running} onPin={props.onPin} />}
      <ColumnActions {...props} running={running} />
      <p className="cmp-status" role="status" aria-live="polite" data-testid="compare.columnStatus">
        {statusLine(status)}
      </p>
      {status.attempts.length > 1 && (
        <details className="cmp-attempts">
          <summary>{status.attempts.length} attempts</summary>
          <ol>
            {status.attempts.map((a) => (
              <li key={a.attempt}>{describeAttempt(a)}</li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}

interface AliasNoticeProps {
  /** The alias, trimmed. */
  model: string;
  pin: string | null;
  running: boolean;
  onPin: (model: string) => void;
}

/** An alias column: it may move between runs, and the offer to pin the version it answered with. */
function AliasNotice({ model, pin, running, onPin }: AliasNoticeProps) {
  return (
    <div className="cmp-alias" data-testid="compare.aliasNotice">
      {/* The explanation behind a disclosure keeps the header short; the pin stays one press away. */}
      <details>
        <summary>
          <strong>{model}</strong> is an alias{pin ? <>, last {pin}</> : null}
        </summary>
        <p>
          It can move to another version between runs.
          {pin
            ? ' Pin the version it answered with to compare like with like.'
            : ' Run it to see which version it resolves to.'}
        </p>
      </details>
      {pin && (
        <button type="button" onClick={() => onPin(pin)} disabled={running} data-testid="compare.pin">
          Pin {pin}
        </button>
      )}
    </div>
  );
}

/** The column's Run and Cancel. */
function ColumnActions(props: CompareColumnHeaderProps & { running: boolean }) {
  const { index, running } = props;
  return (
    <div className="cmp-column-actions">
      <button
        type="button"
        onClick={props.onRun}
        disabled={running || props.runBlocked !== null}
        title={props.runBlocked ?? undefined}
        aria-label={`Run ${columnTitle(index)}`}
        data-testid="compare.runColumn"
      >
        Run
      </button>
      <button
        type="button"
        onClick={props.onCancel}
        disabled={!running}
        aria-label={`Cancel ${columnTitle(index)}`}
        data-testid="compare.cancelColumn"
      >
        Cancel
      </button>
    </div>
  );
}
