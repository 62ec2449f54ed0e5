// Which columns hold human labels (one per question) and which are metadata: both are kept with the rows and never
// sent. Each label column shows its values with counts and what they read as, and unmatched values can be mapped to a
// label or left out. The figures themselves are on the alignment screen.
import { useId, useState } from 'react';
import type { Question, Questions } from '../../../contract';
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
  const specOf = (question: string) => labels.find((l) => l.question === question);
  const setColumn = (question: string, column: string) => {
    const rest = labels.filter((l) => l.question !== question);
    setLabels(column ? [...rest, { column, question, levelBase: 0, values: {} }] : rest);
  };
  const patch = (question: string, change: Partial<LabelColumn>) =>
    setLabels(labels.map((l) => (l.question === question ? { ...l, ...change } : l)));
  const used = new Set([...labels.map((l) => l.column), mapping.idColumn ?? '']);
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
            const spec = specOf(name);
            const question = questions![name]!;
            return (
              <div key={name} className="rows-labels__question">
                <label htmlFor={`${base}-${name}`}>
                  Human label of <code>{name}</code>
                </label>
                <select
                  id={`${base}-${name}`}
                  value={spec?.column ?? ''}
                  disabled={disabled}
                  data-testid={`rows.labels.column.${name}`}
                  onChange={(e) => setColumn(name, e.currentTarget.value)}
                >
                  <option value="">None</option>
                  {columns
                    .filter((c) => c === spec?.column || (!used.has(c) && !metadata.includes(c)))
                    .map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                </select>
                {spec && question.type === 'score' && (
                  <label className="rows-check">
                    <input
                      type="checkbox"
                      disabled={disabled}
                      checked={spec.levelBase === 1}
                      onChange={(e) => patch(name, { levelBase: e.currentTarget.checked ? 1 : 0 })}
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
        const spec = specOf(plan.question);
        const question = questions?.[plan.question];
        if (!spec || !question) return null;
        if (!plan.summary)
          return (
            <p key={plan.question} role="alert">
              {plan.problem}
            </p>
          );
        const s = plan.summary;
        const options = labelOptions(question);
        return (
          <div
            key={plan.question}
            className="rows-labels__values"
            data-testid={`rows.labels.values.${plan.question}`}
          >
            <h3>
              <code>{plan.column}</code> as the label of <code>{plan.question}</code>
            </h3>
            <p data-testid={`rows.labels.counts.${plan.question}`}>
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
                {(whole.has(plan.question) ? s.lines : s.lines.slice(0, VALUES_SHOWN)).map((line) => {
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
                            patch(plan.question, { values });
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
            {s.lines.length > VALUES_SHOWN && !whole.has(plan.question) && (
              <p className="muted">
                {formatCount(s.lines.length - VALUES_SHOWN)} more distinct values are not listed.{' '}
                <button
                  type="button"
                  onClick={() => setWhole((w) => new Set(w).add(plan.question))}
                  data-testid={`rows.labels.values.all.${plan.question}`}
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
