// Which columns hold human labels and which are metadata: both are kept with the rows and never sent. A question takes
// one column, or several (one per annotator, the row's label their majority). Each label column shows its values
// with counts and what they read as, and unmatched values can be mapped to a label or left out. The figures themselves
// are on the alignment screen.
import { useId, useState } from 'react';
import type { Question, Questions } from '../../../contract';
import { annotatorOf } from '../../../core/labels/annotators';
import { labelText } from '../../../core/labels/values';
import type { LabelColumn, LabelReading } from '../../../core/labels/values';
import type { LabelValue } from '../../../core/alignment/types';
import type { LabelPlan } from '../../../core/rows/labels';
import type { RowMapping } from '../../../core/rows/mapping';
import { formatCount } from './format';

export interface LabelColumnsFormProps {
  mapping: RowMapping;
  columns: readonly string[];
  questions: Questions | null;
  /** Value tables from the latest plan. */
  plans: readonly LabelPlan[];
  onChange: (mapping: RowMapping) => void;
  disabled?: boolean;
}

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

const AUTO = '';
/** Distinct values a value table lists before "List all". */
const VALUES_SHOWN = 50;
const LEAVE_OUT = 'null';

function readingText(reading: LabelReading, question: Question): string {
  if (reading.kind === 'ok')
    return `${labelText(reading.value, question)} (${reading.how === 'mapped' ? 'your table' : reading.how})`;
  if (reading.kind === 'excluded') return 'left out (your table)';
  if (reading.kind === 'unmatched') return 'matches no label: left out';
  return 'empty';
}

/** The label and metadata columns of a mapping. */
export function LabelColumnsForm({
  mapping,
  columns,
  questions,
  plans,
  onChange,
  disabled,
}: LabelColumnsFormProps) {
  const base = useId();
  // Value tables list their first VALUES_SHOWN values; the rest are one click away.
  const [whole, setWhole] = useState<ReadonlySet<string>>(new Set());
  const labels = mapping.labels ?? [];
  const metadata = mapping.metadata ?? [];
  const names = Object.keys(questions ?? {});
  const setLabels = (next: LabelColumn[]) => onChange({ ...mapping, labels: next });
  const specsOf = (question: string) => labels.filter((l) => l.question === question);
  const specOf = (column: string) => labels.find((l) => l.column === column);
  /** Sets the question's column at `at` (one past the last adds an annotator; '' removes that one). */
  const setColumn = (question: string, at: number, column: string) => {
    const mine = specsOf(question);
    const levelBase = mine[0]?.levelBase ?? 0;
    const next = [...mine];
    if (!column) next.splice(at, 1);
    else next.splice(at, 1, { column, question, levelBase, values: {} });
    setLabels([...labels.filter((l) => l.question !== question), ...next]);
  };
  // The level base is the question's scale, so it is the same for each of its annotators.
  const setLevelBase = (question: string, levelBase: 0 | 1) =>
    setLabels(labels.map((l) => (l.question === question ? { ...l, levelBase } : l)));
  const setValues = (column: string, values: LabelColumn['values']) =>
    setLabels(labels.map((l) => (l.column === column ? { ...l, values } : l)));
  const used = new Set([...labels.map((l) => l.column), mapping.idColumn ?? '']);
  const several = (question: string) => specsOf(question).length > 1;
  /** Test ids of a column's value table: by question, and by column too where the question has several. */
  const tableId = (question: string, column: string) =>
    several(question) ? `${question}.${column}` : question;
  const choices = (own: string | undefined) =>
    columns.filter((c) => c === own || (!used.has(c) && !metadata.includes(c)));
  return (
    <section className="rows-labels panel" aria-label="Human labels and metadata" data-testid="rows.labels">
      <h2>Human labels and metadata (optional)</h2>
      <p className="muted">
        A column can hold people’s answers to a question, to measure the judge against them on the alignment
        screen. Label and metadata columns are kept with each row and never sent.
      </p>
      {!questions && <p className="muted">Fix the session’s questions to map label columns.</p>}
      {names.length > 0 && (
        <div className="rows-labels__grid">
          {names.map((name) => {
            const mine = specsOf(name);
            const question = questions![name]!;
            // One select per column of the question, then an empty one that adds another annotator's column.
            const slots = [...mine.map((l) => l.column), ...(mine.length > 0 ? [''] : [])];
            if (slots.length === 0) slots.push('');
            return (
              <div key={name} className="rows-labels__question">
                {slots.map((column, at) => {
                  const adding = at > 0 && at === mine.length;
                  const id = `${base}-${name}${at > 0 ? `-${at}` : ''}`;
                  return (
                    <span key={adding ? '+' : at} className="rows-labels__question">
                      <label htmlFor={id}>
                        {at === 0 ? (
                          <>
                            Human label of <code>{name}</code>
                          </>
                        ) : adding ? (
                          <>
                            Another annotator’s column for <code>{name}</code>
                          </>
                        ) : (
                          <>
                            Annotator {at + 1}’s column for <code>{name}</code>
                          </>
                        )}
                      </label>
                      <select
                        id={id}
                        value={column}
                        disabled={disabled}
                        data-testid={`rows.labels.column.${name}${at === 0 ? '' : adding ? '.add' : `.${at + 1}`}`}
                        onChange={(e) => setColumn(name, at, e.currentTarget.value)}
                      >
                        <option value="">None</option>
                        {choices(column || undefined).map((c) => (
                          <option key={c} value={c}>
                            {c}
                          </option>
                        ))}
                      </select>
                    </span>
                  );
                })}
                {mine.length > 1 && (
                  <p className="muted" data-testid={`rows.labels.annotators.${name}`}>
                    {mine.length} annotators ({mine.map((l) => annotatorOf(l)).join(', ')}): a row’s label is
                    their majority; a tie goes to the column listed first.
                  </p>
                )}
                {mine.length > 0 && question.type === 'score' && (
                  <label className="rows-check">
                    <input
                      type="checkbox"
                      disabled={disabled}
                      checked={mine[0]!.levelBase === 1}
                      onChange={(e) => setLevelBase(name, e.currentTarget.checked ? 1 : 0)}
                    />
                    Level numbers start at 1
                  </label>
                )}
              </div>
            );
          })}
        </div>
      )}
      <fieldset className="rows-labels__metadata">
        <legend>Metadata columns (kept with the row, never sent)</legend>
        {columns
          .filter((c) => !used.has(c))
          .map((c) => (
            <label key={c} className="rows-check">
              <input
                type="checkbox"
                disabled={disabled}
                checked={metadata.includes(c)}
                data-testid={`rows.labels.metadata.${c}`}
                onChange={(e) =>
                  onChange({
                    ...mapping,
                    metadata: e.currentTarget.checked ? [...metadata, c] : metadata.filter((x) => x !== c),
                  })
                }
              />
              {c}
            </label>
          ))}
      </fieldset>
      {plans.map((plan) => {
        const spec = specOf(plan.column);
        const question = questions?.[plan.question];
        if (!spec || spec.question !== plan.question || !question) return null;
        if (!plan.summary)
          return (
            <p key={plan.column} role="alert">
              {plan.problem}
            </p>
          );
        const s = plan.summary;
        const options = labelOptions(question);
        const tid = tableId(plan.question, plan.column);
        return (
          <div key={plan.column} className="rows-labels__values" data-testid={`rows.labels.values.${tid}`}>
            <h3>
              <code>{plan.column}</code> as the label of <code>{plan.question}</code>
              {several(plan.question) && (
                <span className="muted">
                  {' '}
                  · annotator: <code>{annotatorOf(spec)}</code>
                </span>
              )}
            </h3>
            <p data-testid={`rows.labels.counts.${tid}`}>
              {formatCount(s.labelled)} rows labelled · {formatCount(s.unmatched)} with a value that matches
              no label · {formatCount(s.excluded)} left out by you · {formatCount(s.empty)} without a label.
              Rows without a label are still sent.
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
                {(whole.has(plan.column) ? s.lines : s.lines.slice(0, VALUES_SHOWN)).map((line) => {
                  const own = Object.hasOwn(spec.values, line.raw) ? spec.values[line.raw] : undefined;
                  const current = own === undefined ? AUTO : own === null ? LEAVE_OUT : JSON.stringify(own);
                  return (
                    <tr
                      key={line.raw}
                      className={line.reading.kind === 'unmatched' ? 'rows-labels__unmatched' : undefined}
                    >
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
                            setValues(plan.column, values);
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
                })}
              </tbody>
            </table>
            {s.lines.length > VALUES_SHOWN && !whole.has(plan.column) && (
              <p className="muted">
                {formatCount(s.lines.length - VALUES_SHOWN)} more distinct values are not listed.{' '}
                <button
                  type="button"
                  onClick={() => setWhole((w) => new Set(w).add(plan.column))}
                  data-testid={`rows.labels.values.all.${tid}`}
                >
                  List all {formatCount(s.lines.length)} values
                </button>
              </p>
            )}
          </div>
        );
      })}
    </section>
  );
}
