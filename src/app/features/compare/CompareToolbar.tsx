// The comparison's controls: run or cancel every column, the flagging threshold, the sort order, the flagged filter.
import { useId, useState } from 'react';
import type { CompareSort } from '../../../core/compare';

export interface CompareToolbarProps {
  threshold: number;
  onThresholdChange: (threshold: number) => void;
  sort: CompareSort;
  onSortChange: (sort: CompareSort) => void;
  onlyFlagged: boolean;
  onOnlyFlaggedChange: (only: boolean) => void;
  flaggedCount: number;
  questionCount: number;
  /** Columns running now. */
  running: number;
  /** Why the columns cannot run now (the draft has errors), or null. */
  runBlocked: string | null;
  onRunAll: () => void;
  onCancelAll: () => void;
  canAddColumn: boolean;
  onAddColumn: () => void;
}

/** Clamps a threshold typed or slid to [0, 1] on the 0.01 grid the slider uses. */
export function clampThreshold(x: number): number {
  if (!Number.isFinite(x)) return 0;
  return Math.min(1, Math.max(0, Math.round(x * 100) / 100));
}

/** The comparison's top bar. */
export function CompareToolbar(props: CompareToolbarProps) {
  const id = useId();
  return (
    <div className="cmp-toolbar" role="toolbar" aria-label="Comparison" data-testid="compare.toolbar">
      <div className="cmp-toolbar-group">
        <button
          type="button"
          className="cmp-primary"
          onClick={props.onRunAll}
          disabled={props.runBlocked !== null || props.running > 0}
          title={props.runBlocked ?? 'Run every column on the same state and questions (Ctrl+Enter)'}
          data-testid="compare.runAll"
        >
          Run all
        </button>
        <button
          type="button"
          onClick={props.onCancelAll}
          disabled={props.running === 0}
          data-testid="compare.cancelAll"
        >
          Cancel all
        </button>
        <button
          type="button"
          onClick={props.onAddColumn}
          disabled={!props.canAddColumn}
          title={props.canAddColumn ? 'Add a column' : 'A comparison holds at most 4 columns'}
          data-testid="compare.addColumn"
        >
          Add column
        </button>
      </div>
      <ThresholdGroup
        id={`${id}-threshold`}
        threshold={props.threshold}
        onThresholdChange={props.onThresholdChange}
      />
      <OrderGroup id={`${id}-sort`} {...props} />
      <p className="cmp-flag-count" role="status" data-testid="compare.flaggedCount">
        {props.flaggedCount} of {props.questionCount} {props.questionCount === 1 ? 'question' : 'questions'}{' '}
        flagged
      </p>
    </div>
  );
}

interface ThresholdGroupProps {
  /** The slider's id, for its label. */
  id: string;
  threshold: number;
  onThresholdChange: (threshold: number) => void;
}

/** The flagging threshold, slid or typed. */
function ThresholdGroup({ id, threshold, onThresholdChange }: ThresholdGroupProps) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <div className="cmp-toolbar-group">
      <label htmlFor={id}>Flag above</label>
      <input
        id={id}
        type="range"
        min={0}
        max={1}
        step={0.01}
        value={threshold}
        aria-valuetext={`${threshold.toFixed(2)} disagreement`}
        onChange={(e) => onThresholdChange(clampThreshold(e.currentTarget.valueAsNumber))}
        data-testid="compare.thresholdSlider"
      />
      <input
        type="number"
        inputMode="decimal"
        min={0}
        max={1}
        step={0.01}
        // While the user types ("0.", "") the text is theirs; the threshold follows every value that parses.
        value={draft ?? String(threshold)}
        aria-label="Flag threshold"
        className="cmp-threshold-number"
        onChange={(e) => {
          const text = e.currentTarget.value;
          setDraft(text);
          const value = Number(text);
          if (text.trim() !== '' && Number.isFinite(value) && value >= 0 && value <= 1) {
            onThresholdChange(clampThreshold(value));
          }
        }}
        onBlur={() => setDraft(null)}
        data-testid="compare.threshold"
      />
    </div>
  );
}

/** The order of the questions, and the flagged filter. */
function OrderGroup(props: CompareToolbarProps & { id: string }) {
  return (
    <div className="cmp-toolbar-group">
      <label htmlFor={props.id}>Order</label>
      <select
        id={props.id}
        value={props.sort}
        onChange={(e) =>
          props.onSortChange(e.currentTarget.value === 'disagreement' ? 'disagreement' : 'question')
        }
        data-testid="compare.sort"
      >
        <option value="question">Question order</option>
        <option value="disagreement">Most disagreement first</option>
      </select>
      <label className="cmp-check">
        <input
          type="checkbox"
          checked={props.onlyFlagged}
          onChange={(e) => props.onOnlyFlaggedChange(e.currentTarget.checked)}
          data-testid="compare.onlyFlagged"
        />
        Only flagged
      </label>
    </div>
  );
}
