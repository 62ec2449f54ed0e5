// The results as a virtualised table: only the rows in view are in the DOM, so 100,000 rows scroll smoothly. One
// column group per question (label and probability, expected score, probability of yes, confidence).
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { JsonValue, Questions } from '../../../contract';
import { labelText } from '../../../core/labels/values';
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
  label: 'judge’s answer',
  p: 'probability',
  confidence: 'confidence',
  score: 'expected score',
  level: 'judge’s top level',
  yes: 'judge’s P(yes)',
};

/** A column of the table after the input: one of the judge's answer, or the human label of a question. */
type Shown = { kind: 'answer'; column: AnswerColumn } | { kind: 'human'; question: string };

/** The column that holds the judge's answer itself (a label, a level, yes): the human label is read against it. */
const ANSWER_FIELDS: ReadonlySet<AnswerColumn['field']> = new Set(['label', 'level', 'yes']);

/** The answer columns, each question's human label right beside the judge's answer when some row has one. */
function shownColumns(columns: readonly AnswerColumn[], labelled: readonly string[]): Shown[] {
  const out: Shown[] = [];
  for (const column of columns) {
    out.push({ kind: 'answer', column });
    if (ANSWER_FIELDS.has(column.field) && labelled.includes(column.question))
      out.push({ kind: 'human', question: column.question });
  }
  return out;
}

/** The message column: the row's error, or which answers were taken from stored ones instead of asked. */
const messageOf = (row: ResultRow): string => {
  const o = row.outcome;
  if (o?.error) return o.error.message;
  return o?.reusedQuestions?.length ? `Stored answers reused for ${o.reusedQuestions.join(', ')}` : '';
};

const formatCell = (v: string | number | null, column: AnswerColumn): string =>
  v === null ? '' : typeof v === 'number' ? (column.field === 'level' ? String(v) : v.toFixed(2)) : v;

/** Fixed widths: every row is its own grid, so only fixed tracks keep the cells under their headers. */
const gridTemplate = (shown: readonly Shown[]): string =>
  [
    '64px',
    '120px',
    '96px',
    '320px',
    ...shown.map((c) => (c.kind === 'human' || c.column.field === 'label' ? '140px' : '92px')),
    '360px',
  ].join(' ');

/** The header row: line, id, status, input, a header per shown column (question over field), message. */
function TableHead({ shown, template }: { shown: readonly Shown[]; template: string }) {
  return (
    <div className="rows-table__head" role="row" style={{ gridTemplateColumns: template }}>
      <span role="columnheader">Line</span>
      <span role="columnheader">Id</span>
      <span role="columnheader">Status</span>
      <span role="columnheader">Input</span>
      {shown.map((s) =>
        s.kind === 'human' ? (
          <span
            key={`human.${s.question}`}
            role="columnheader"
            title={`${s.question}: human label`}
            className="rows-table__colhead"
            data-testid="rows.table.humanHeader"
          >
            <span className="rows-table__question">{s.question}</span>
            <span className="rows-table__field">human label</span>
          </span>
        ) : (
          <span
            key={s.column.key}
            role="columnheader"
            title={s.column.title}
            className={s.column.numeric ? 'rows-table__colhead num' : 'rows-table__colhead'}
          >
            <span className="rows-table__question">{s.column.question}</span>
            <span className="rows-table__field">{FIELD_LABEL[s.column.field]}</span>
          </span>
        ),
      )}
      <span role="columnheader">Message</span>
    </div>
  );
}

/** One shown column's cell of a row: the human label as text, or the judge's answer formatted. */
function ShownCell({ row, s, questions }: { row: ResultRow; s: Shown; questions: Questions | undefined }) {
  if (s.kind === 'human') {
    const label = row.labels?.[s.question];
    const text = label === undefined ? '' : labelText(label, questions?.[s.question]);
    return (
      <span role="cell" title={text}>
        {text}
      </span>
    );
  }
  const c = s.column;
  const text = formatCell(cellOf(row, c), c);
  return (
    <span role="cell" className={c.numeric ? 'num' : undefined} title={text}>
      {text}
    </span>
  );
}

interface TableRowProps {
  row: ResultRow;
  /** The row's place among those shown (0 for the first), and its offset in the scrolled area. */
  index: number;
  start: number;
  shown: readonly Shown[];
  template: string;
  inputColumns: readonly string[];
  questions: Questions | undefined;
}

/** One row of the table, placed at its offset in the scrolled area. */
function TableRow({ row, index, start, shown, template, inputColumns, questions }: TableRowProps) {
  const status = statusOf(row);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={`rows-table__row rows-table__row--${status}`}
      data-testid="rows.table.row"
      data-row-id={row.id}
      style={{ gridTemplateColumns: template, height: ROW_HEIGHT, transform: `translateY(${start}px)` }}
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
      {shown.map((s) => (
        <ShownCell
          key={s.kind === 'human' ? `human.${s.question}` : s.column.key}
          row={row}
          s={s}
          questions={questions}
        />
      ))}
      <span role="cell" className="rows-table__message" title={messageOf(row)}>
        {messageOf(row)}
      </span>
    </div>
  );
}

export interface ResultsTableProps {
  rows: readonly ResultRow[];
  /** Indices into `rows` to show, in order. */
  visible: readonly number[];
  columns: readonly AnswerColumn[];
  inputColumns: readonly string[];
  /** Questions some row has a human label of: shown beside the judge's answer. */
  labelled?: readonly string[];
  questions?: Questions;
}

/** The virtualised results table. */
export function ResultsTable({
  rows,
  visible,
  columns,
  inputColumns,
  labelled = [],
  questions,
}: ResultsTableProps) {
  const shown = shownColumns(columns, labelled);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  });
  const template = gridTemplate(shown);
  return (
    <div
      className="rows-table"
      role="table"
      aria-label="Results"
      aria-rowcount={visible.length + 1}
      data-testid="rows.table"
    >
      <div className="rows-table__scroll" ref={scroller} data-testid="rows.table.scroll">
        <TableHead shown={shown} template={template} />
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((item) => (
            <TableRow
              key={item.key}
              row={rows[visible[item.index]!]!}
              index={item.index}
              start={item.start}
              {...{ shown, template, inputColumns, questions }}
            />
          ))}
        </div>
      </div>
    </div>
  );
}
