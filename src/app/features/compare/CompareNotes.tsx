// The notes under the comparison's columns: the editors moved on since they ran, a column ran on another state or
// other questions than the baseline, and the refusals counted apart.
import type { Comparison } from '../../../core/compare';
import type { CompareColumn } from '../../../core/session';
import { plural } from '../../../core/words';
import { columnLabel } from './CompareColumnHeader';

export interface CompareNotesProps {
  columns: readonly CompareColumn[];
  comparison: Comparison;
  /** True when the state or questions changed since the columns ran. */
  edited: boolean;
}

export function CompareNotes({ columns, comparison, edited }: CompareNotesProps) {
  const staleLabels = comparison.staleColumnIds
    .map((id) => columns.find((c) => c.id === id))
    .filter((c): c is CompareColumn => c !== undefined)
    .map(columnLabel);
  return (
    <>
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
          {columns
            .filter((c) => comparison.refusedCounts[c.id] !== undefined)
            .map(
              (c) => `${columnLabel(c)} refused ${plural(comparison.refusedCounts[c.id] ?? 0, 'question')}`,
            )
            .join('; ')}
          : refusals are counted apart, never as a disagreement or a zero.
        </p>
      )}
    </>
  );
}
