// What the robustness check checks: the request on screen, or a sample of a file run's rows.
import type { RowRun } from '../../../core/rows/records';
import { CommitInput } from '../../components/CommitInput';
import { MAX_SAMPLE } from './robustnessStore';
import { wholeIn } from './wholeIn';

export interface CheckSourceFieldsProps {
  /** The radio group's name, unique on the page. */
  name: string;
  sourceKind: 'state' | 'rows';
  onSourceKind: (kind: 'state' | 'rows') => void;
  rowRuns: readonly RowRun[];
  chosenRun: RowRun | undefined;
  onRunId: (id: string) => void;
  sample: number;
  onSample: (n: number) => void;
  running: boolean;
  targetLabelOf: (id: string) => string;
}

export function CheckSourceFields(props: CheckSourceFieldsProps) {
  const { name, sourceKind, onSourceKind, rowRuns, chosenRun } = props;
  return (
    <fieldset className="robustness-dialog__source" disabled={props.running}>
      <legend>Check</legend>
      <label>
        <input
          type="radio"
          name={name}
          checked={sourceKind === 'state'}
          onChange={() => onSourceKind('state')}
          data-testid="robustness.sourceState"
        />
        the request on screen
      </label>
      <label>
        <input
          type="radio"
          name={name}
          checked={sourceKind === 'rows'}
          onChange={() => onSourceKind('rows')}
          disabled={rowRuns.length === 0}
          data-testid="robustness.sourceRows"
        />
        a sample of a file run’s rows
      </label>
      {sourceKind === 'rows' && chosenRun && (
        <span className="robustness-dialog__rows">
          <label>
            File run{' '}
            <select
              value={chosenRun.id}
              onChange={(e) => props.onRunId(e.target.value)}
              data-testid="robustness.rowsRun"
            >
              {rowRuns.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.fileName} ({r.rowCount} rows, {r.model} on {props.targetLabelOf(r.targetId)},{' '}
                  {new Date(r.createdAt).toLocaleString()})
                </option>
              ))}
            </select>
          </label>
          <label>
            Rows to sample{' '}
            <CommitInput
              inputMode="numeric"
              value={String(props.sample)}
              onCommit={wholeIn(1, Math.min(MAX_SAMPLE, chosenRun.rowCount || MAX_SAMPLE), props.onSample)}
              data-testid="robustness.sample"
            />
          </label>
        </span>
      )}
    </fieldset>
  );
}
