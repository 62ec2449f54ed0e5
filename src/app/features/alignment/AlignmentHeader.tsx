// The open run's heading on the alignment screen: its name, where a cascade began, its progress, the team workspace
// queue whose labels it follows, and run controls.
import type { RowRun } from '../../../core/rows/records';
import type { RowsState } from '../../stores/rows';
import { FollowQueue } from './FollowQueue';

export interface AlignmentHeaderProps {
  run: RowRun;
  rows: RowsState;
  /** True while the figures are being computed. */
  computing: boolean;
}

export function AlignmentHeader({ run, rows, computing }: AlignmentHeaderProps) {
  return (
    <header className="align-header">
      <div>
        <h2 data-testid="align.title">
          {run.fileName}
          {run.variantOf ? ' (variant)' : ''}
        </h2>
        {run.escalatedFrom && (
          <p className="muted" data-testid="align.cascade.next">
            The next judge of a cascade: it was asked only about the rows the run before abstained on for “
            {run.escalatedFrom.question}”.{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => void rows.openRunById(run.escalatedFrom!.runId)}
              data-testid="align.cascade.first"
            >
              Open the cascade from its first judge
            </button>
          </p>
        )}
        <span className="muted">
          {run.rowCount} rows · model <code>{run.model}</code> · target {run.targetId}
          {rows.progress ? ` · ${rows.progress.done + rows.progress.reused} answered` : ''}
          {rows.running ? ' · running' : ''}
          {computing ? ' · computing…' : ''}
        </span>
        <div className="align-follow">
          <FollowQueue run={run} rows={rows} />
        </div>
      </div>
      <div className="align-header__actions">
        {!rows.running && !rows.watching && rows.progress && rows.progress.pending > 0 && (
          <button type="button" onClick={() => void rows.start()} data-testid="align.run.start">
            Run the {rows.progress.pending.toLocaleString('en-US')} unanswered row
            {rows.progress.pending === 1 ? '' : 's'}
          </button>
        )}
        {rows.running && (
          <button type="button" onClick={rows.pause}>
            Pause
          </button>
        )}
        <button type="button" disabled={rows.running} onClick={rows.closeRun}>
          Another run
        </button>
      </div>
    </header>
  );
}
