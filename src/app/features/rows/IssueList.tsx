// Rows that will not be sent (or are sent with a caveat), each with its line number and reason. Virtualised: a broken
// file can have as many issues as rows.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import type { IssueKind, RowIssue } from '../../../core/rows/parse';
import { formatCount } from './format';

const KIND_LABEL: Record<IssueKind, string> = {
  malformed: 'malformed',
  empty: 'empty',
  too_large: 'too large',
  unmappable: 'no state',
  duplicate_id: 'duplicate id',
};

const ROW_HEIGHT = 28;

/** The issues, counted by kind, then listed by line. */
export function IssueList({ issues, title }: { issues: readonly RowIssue[]; title: string }) {
  const scroller = useRef<HTMLDivElement>(null);
  const counts = useMemo(() => {
    const map = new Map<IssueKind, number>();
    for (const i of issues) map.set(i.kind, (map.get(i.kind) ?? 0) + 1);
    return [...map];
  }, [issues]);
  const virtual = useVirtualizer({
    count: issues.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  if (issues.length === 0) return null;
  const skipped = issues.filter((i) => i.severity === 'skip').length;
  return (
    <section className="rows-issues" aria-label={title} data-testid="rows.issues">
      <h3>
        {title}: {formatCount(skipped)} left out
        {issues.length > skipped
          ? `, ${formatCount(issues.length - skipped)} warning${issues.length - skipped === 1 ? '' : 's'}`
          : ''}
      </h3>
      <p className="muted">
        {counts.map(([kind, n]) => `${formatCount(n)} ${KIND_LABEL[kind]}`).join(' · ')}
      </p>
      <div className="rows-issues__list" ref={scroller} role="list" data-testid="rows.issues.list">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((item) => {
            const issue = issues[item.index]!;
            return (
              <div
                key={item.key}
                role="listitem"
                className={`rows-issue rows-issue--${issue.severity}`}
                data-testid="rows.issue"
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <span className="rows-issue__line">line {issue.line}</span>
                <span className="rows-issue__kind">{KIND_LABEL[issue.kind]}</span>
                <span className="rows-issue__reason" title={issue.reason}>
                  {issue.reason}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
