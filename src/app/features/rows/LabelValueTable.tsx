// One label column's values with their counts and what each reads as; a value can be mapped to a label or left out.
import type { Question } from '../../../contract';
import { annotatorOf } from '../../../core/labels/annotators';
import { labelText } from '../../../core/labels/values';
import type {
  LabelColumn,
  LabelColumnSummary,
  LabelReading,
  ValueTableLine,
} from '../../../core/labels/values';
import type { LabelValue } from '../../../core/alignment/types';
import type { LabelPlan } from '../../../core/rows/labels';
import { formatCount } from './format';
import type { LabelColumnEdits } from './useLabelColumnEdits';

const AUTO = '';
/** Distinct values a value table lists before "List all". */
const VALUES_SHOWN = 50;
const LEAVE_OUT = 'null';

/** The label options of a question as (value, text) pairs for a select; values are encoded as JSON. */
function labelOptions(question: Question): { value: string; text: string }[] {
  if (question.type === 'choice')
    return Object.keys(question.criteria).map((l) => ({ value: JSON.stringify(l), text: l }));
  if (question.type === 'score')
    return question.criteria.map((_, i) => ({ value: JSON.stringify(i), text: labelText(i, question) }));
  return [
    { value: 'true', text: 'yes' },
    { value: 'false', text: 'no' },
  ];
}

function readingText(reading: LabelReading, question: Question): string {
  if (reading.kind === 'ok')
    return `${labelText(reading.value, question)} (${reading.how === 'mapped' ? 'your table' : reading.how})`;
  if (reading.kind === 'excluded') return 'left out (your table)';
  if (reading.kind === 'unmatched') return 'matches no label: left out';
  return 'empty';
}

interface ValueRowProps {
  line: ValueTableLine;
  spec: LabelColumn;
  question: Question;
  options: { value: string; text: string }[];
  onValues: (values: LabelColumn['values']) => void;
  disabled: boolean | undefined;
}

/** One distinct value: its count, how it reads, and the select that changes it. */
function ValueRow({ line, spec, question, options, onValues, disabled }: ValueRowProps) {
  const own = Object.hasOwn(spec.values, line.raw) ? spec.values[line.raw] : undefined;
  const current = own === undefined ? AUTO : own === null ? LEAVE_OUT : JSON.stringify(own);
  return (
    <tr className={line.reading.kind === 'unmatched' ? 'rows-labels__unmatched' : undefined}>
      <td>
        <code>{JSON.stringify(line.raw)}</code>
      </td>
      <td>{formatCount(line.count)}</td>
      <td>{readingText(line.reading, question)}</td>
      <td>
        <select
          aria-label={`Read ${JSON.stringify(line.raw)} as`}
          value={current}
          disabled={disabled}
          onChange={(e) => {
            const v = e.currentTarget.value;
            const values = { ...spec.values };
            if (v === AUTO) delete values[line.raw];
            else values[line.raw] = JSON.parse(v) as LabelValue | null;
            onValues(values);
          }}
        >
          <option value={AUTO}>Automatic</option>
          <option value={LEAVE_OUT}>Leave out</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.text}
            </option>
          ))}
        </select>
      </td>
    </tr>
  );
}

export interface LabelValueTableProps {
  plan: LabelPlan;
  summary: LabelColumnSummary;
  spec: LabelColumn;
  question: Question;
  edits: LabelColumnEdits;
  disabled: boolean | undefined;
  /** Whether every value is listed, not only the first VALUES_SHOWN. */
  whole: boolean;
  onListAll: () => void;
}

/** A label column's value table; it lists its first VALUES_SHOWN values, the rest are one click away. */
export function LabelValueTable(props: LabelValueTableProps) {
  const { plan, summary: s, spec, question, edits, disabled, whole } = props;
  const options = labelOptions(question);
  const tid = edits.tableId(plan.question, plan.column);
  const onValues = (values: LabelColumn['values']) => edits.setValues(plan.column, values);
  return (
    <div className="rows-labels__values" data-testid={`rows.labels.values.${tid}`}>
      <h3>
        <code>{plan.column}</code> as the label of <code>{plan.question}</code>
        {edits.several(plan.question) && (
          <span className="muted">
            {' '}
            · annotator: <code>{annotatorOf(spec)}</code>
          </span>
        )}
      </h3>
      <p data-testid={`rows.labels.counts.${tid}`}>
        {formatCount(s.labelled)} rows labelled · {formatCount(s.unmatched)} with a value that matches no
        label · {formatCount(s.excluded)} left out by you · {formatCount(s.empty)} without a label. Rows
        without a label are still sent.
      </p>
      <table className="rows-labels__table">
        <thead>
          <tr>
            <th scope="col">Value in the file</th>
            <th scope="col">Rows</th>
            <th scope="col">Read as</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {(whole ? s.lines : s.lines.slice(0, VALUES_SHOWN)).map((line) => (
            <ValueRow key={line.raw} {...{ line, spec, question, options, onValues, disabled }} />
          ))}
        </tbody>
      </table>
      {s.lines.length > VALUES_SHOWN && !whole && (
        <p className="muted">
          {formatCount(s.lines.length - VALUES_SHOWN)} more distinct values are not listed.{' '}
          <button type="button" onClick={props.onListAll} data-testid={`rows.labels.values.all.${tid}`}>
            List all {formatCount(s.lines.length)} values
          </button>
        </p>
      )}
    </div>
  );
}
