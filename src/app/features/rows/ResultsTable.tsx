// The results as a virtualised table: only the rows in view are in the DOM, so 100,000 rows scroll smoothly. One
// column group per question (label and probability, expected score, probability of yes, confidence).
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { JsonValue } from '../../../contract';
import type { AnswerColumn, ResultRow } from '../../../core/rows/results';
import { cellOf, statusOf } from '../../../core/rows/results';
import type { RowStatus } from '../../../core/rows/records';

const ROW_HEIGHT = 30;

const STATUS_LABEL: Record<RowStatus, string> = {
  pending: 'not sent',
  sending: 'in flight',
  done: 'answered',
  reused: 'reused',
  invalid: 'refused',
  failed: 'failed',
  unknown: 'unknown',
};

/** A short text of a row's input for the table (the full input is in the export). */
function inputText(data: JsonValue, columns: readonly string[]): string {
  if (typeof data === 'string') return data;
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const parts = columns.length ? columns.map((c) => data[c]) : Object.values(data);
    return parts
      .map((v) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v)))
      .filter(Boolean)
      .join(' · ');
  }
  return JSON.stringify(data);
}

/** The second line of an answer column's header, under the question name. */
const FIELD_LABEL: Record<AnswerColumn['field'], string> = {
  label: 'label',
  p: 'probability',
  confidence: 'confidence',
  score: 'expected score',
  level: 'top level',
  yes: 'P(yes)',
};

/** The message column: the row's error, or which answers were taken from stored ones instead of asked. */
const messageOf = (row: ResultRow): string => {
  const o = row.outcome;
  if (o?.error) return o.error.message;
  return o?.reusedQuestions?.length ? `Stored answers reused for ${o.reusedQuestions.join(', ')}` : '';
};

const formatCell = (v: string | number | null, column: AnswerColumn): string =>
  v === null ? '' : typeof v === 'number' ? (column.field === 'level' ? String(v) : v.toFixed(2)) : v;

export interface ResultsTableProps {
  rows: readonly ResultRow[];
  /** Indices into `rows` to show, in order. */
  visible: readonly number[];
  columns: readonly AnswerColumn[];
  inputColumns: readonly string[];
}

/** The virtualised results table. */
export function ResultsTable({ rows, visible, columns, inputColumns }: ResultsTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  });
  // Fixed widths: every row is its own grid, so only fixed tracks keep the cells under their headers.
  const template = [
    '64px',
    '120px',
    '96px',
    '320px',
    ...columns.map((c) => (c.field === 'label' ? '140px' : '92px')),
    '360px',
  ].join(' ');
  return (
    <div
      className="rows-table"
      role="table"
      aria-label="Results"
      aria-rowcount={visible.length + 1}
      data-testid="rows.table"
    >
      <div className="rows-table__scroll" ref={scroller} data-testid="rows.table.scroll">
        <div className="rows-table__head" role="row" style={{ gridTemplateColumns: template }}>
          <span role="columnheader">Line</span>
          <span role="columnheader">Id</span>
          <span role="columnheader">Status</span>
          <span role="columnheader">Input</span>
          {columns.map((c) => (
            <span
              key={c.key}
              role="columnheader"
              title={c.title}
              className={c.numeric ? 'rows-table__colhead num' : 'rows-table__colhead'}
            >
              <span className="rows-table__question">{c.question}</span>
              <span className="rows-table__field">{FIELD_LABEL[c.field]}</span>
            </span>
          ))}
          <span role="columnheader">Message</span>
        </div>
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((item) => {
            const row = rows[visible[item.index]!]!;
            const status = statusOf(row);
            return (
              <div
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                className={`rows-table__row rows-table__row--${status}`}
                data-testid="rows.table.row"
                data-row-id={row.id}
                style={{
                  gridTemplateColumns: template,
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <span role="cell" className="num">
                  {row.line}
                </span>
                <span role="cell" title={row.id}>
                  {row.id}
                </span>
                <span role="cell">
                  <span className={`rows-badge rows-badge--${status}`}>{STATUS_LABEL[status]}</span>
                </span>
                <span role="cell" title={inputText(row.data, inputColumns)}>
                  {inputText(row.data, inputColumns)}
                </span>
                {columns.map((c) => {
                  const text = formatCell(cellOf(row, c), c);
                  return (
                    <span key={c.key} role="cell" className={c.numeric ? 'num' : undefined} title={text}>
                      {text}
                    </span>
                  );
                })}
                <span role="cell" className="rows-table__message" title={messageOf(row)}>
                  {messageOf(row)}
                </span>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
