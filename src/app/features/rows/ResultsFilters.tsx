// Filters of the results table: status, low confidence, thresholds on answer columns, and text.
import { useId } from 'react';
import type { Question, Questions } from '../../../contract';
import { labelText } from '../../../core/labels/values';
import { classesOf } from '../../../core/labels/prediction';
import type { LabelValue } from '../../../core/alignment/types';
import { classValue } from '../../../core/rows/results';
import type {
  AgreementFilter,
  AnswerColumn,
  ResultFilter,
  StatusFilter,
  Threshold,
} from '../../../core/rows/results';

const STATUSES: { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All rows' },
  { value: 'answered', label: 'Answered' },
  { value: 'problems', label: 'Failed, refused or unknown' },
  { value: 'invalid', label: 'Refused (422)' },
  { value: 'failed', label: 'Failed' },
  { value: 'unknown', label: 'Unknown (may have been billed)' },
  { value: 'pending', label: 'Not sent yet' },
];

const OPS: Threshold['op'][] = ['<', '<=', '>', '>='];

export interface ResultsFiltersProps {
  filter: ResultFilter;
  columns: readonly AnswerColumn[];
  /** The run's questions: the filter by human label and judge's answer offers their values. */
  questions?: Questions;
  onChange: (filter: ResultFilter) => void;
  shown: number;
  total: number;
}

type FilterProps = Pick<ResultsFiltersProps, 'filter' | 'onChange'>;

/** Low confidence: a checkbox that turns the filter on, and its threshold in [0, 1]. */
function ConfidenceFilter({ filter, onChange }: FilterProps) {
  return (
    <>
      <label className="rows-check">
        <input
          type="checkbox"
          checked={filter.lowConfidenceBelow !== null}
          data-testid="rows.filter.lowConfidence"
          onChange={(e) => onChange({ ...filter, lowConfidenceBelow: e.currentTarget.checked ? 0.5 : null })}
        />
        Confidence below
      </label>
      <input
        type="number"
        min={0}
        max={1}
        step={0.05}
        aria-label="Confidence threshold"
        className="rows-filters__number"
        disabled={filter.lowConfidenceBelow === null}
        value={filter.lowConfidenceBelow ?? 0.5}
        onChange={(e) => {
          const v = Number(e.currentTarget.value);
          if (Number.isFinite(v)) onChange({ ...filter, lowConfidenceBelow: Math.min(1, Math.max(0, v)) });
        }}
      />
    </>
  );
}

interface ThresholdRowProps {
  threshold: Threshold;
  numeric: readonly AnswerColumn[];
  onPatch: (patch: Partial<Threshold>) => void;
  onRemove: () => void;
}

/** One threshold on a numeric answer column: the column, the comparison, the value, and its removal. */
function ThresholdRow({ threshold: t, numeric, onPatch, onRemove }: ThresholdRowProps) {
  return (
    <span className="rows-threshold" data-testid="rows.filter.threshold">
      <select
        aria-label="Column"
        value={t.column}
        onChange={(e) => onPatch({ column: e.currentTarget.value })}
      >
        {numeric.map((c) => (
          <option key={c.key} value={c.key}>
            {c.title}
          </option>
        ))}
      </select>
      <select
        aria-label="Comparison"
        value={t.op}
        onChange={(e) => onPatch({ op: e.currentTarget.value as Threshold['op'] })}
      >
        {OPS.map((op) => (
          <option key={op} value={op}>
            {op}
          </option>
        ))}
      </select>
      <input
        type="number"
        step={0.05}
        aria-label="Threshold"
        className="rows-filters__number"
        value={t.value}
        onChange={(e) => {
          const v = Number(e.currentTarget.value);
          if (Number.isFinite(v)) onPatch({ value: v });
        }}
      />
      <button type="button" aria-label="Remove this threshold" onClick={onRemove}>
        ×
      </button>
    </span>
  );
}

/** The thresholds on answer columns, and the button that adds one while a column is numeric. */
function ThresholdFilters({ filter, onChange, numeric }: FilterProps & { numeric: readonly AnswerColumn[] }) {
  const setThreshold = (i: number, patch: Partial<Threshold>) =>
    onChange({ ...filter, thresholds: filter.thresholds.map((t, j) => (i === j ? { ...t, ...patch } : t)) });
  return (
    <>
      {filter.thresholds.map((t, i) => (
        <ThresholdRow
          key={i}
          threshold={t}
          numeric={numeric}
          onPatch={(patch) => setThreshold(i, patch)}
          onRemove={() => onChange({ ...filter, thresholds: filter.thresholds.filter((_, j) => j !== i) })}
        />
      ))}
      {numeric.length > 0 && (
        <button
          type="button"
          data-testid="rows.filter.addThreshold"
          onClick={() =>
            onChange({
              ...filter,
              thresholds: [...filter.thresholds, { column: numeric[0]!.key, op: '>=', value: 0.5 }],
            })
          }
        >
          + Threshold
        </button>
      )}
    </>
  );
}

/** The filter bar above the table. */
export function ResultsFilters({ filter, columns, questions, onChange, shown, total }: ResultsFiltersProps) {
  const statusId = useId();
  const textId = useId();
  const numeric = columns.filter((c) => c.numeric);
  return (
    <div className="rows-filters" data-testid="rows.filters">
      <label htmlFor={statusId}>Show</label>
      <select
        id={statusId}
        value={filter.status}
        data-testid="rows.filter.status"
        onChange={(e) => onChange({ ...filter, status: e.currentTarget.value as StatusFilter })}
      >
        {STATUSES.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </select>
      <ConfidenceFilter filter={filter} onChange={onChange} />
      <ThresholdFilters filter={filter} onChange={onChange} numeric={numeric} />
      {questions && Object.keys(questions).length > 0 && (
        <AgreementFields
          value={filter.agreement ?? null}
          questions={questions}
          onChange={(agreement) => onChange({ ...filter, agreement })}
        />
      )}
      <label htmlFor={textId} className="visually-hidden">
        Find text
      </label>
      <input
        id={textId}
        type="search"
        placeholder="Find in id, input or error"
        value={filter.text}
        onChange={(e) => onChange({ ...filter, text: e.currentTarget.value })}
      />
      <span className="muted" role="status" data-testid="rows.filter.shown">
        {shown.toLocaleString()} of {total.toLocaleString()} rows
      </span>
    </div>
  );
}

const ANY = '';
const valueKey = (v: LabelValue): string => JSON.stringify(v);

/** The values of a question, as options: the choice labels, the levels, yes and no. */
const valuesOf = (question: Question): { key: string; text: string }[] =>
  classesOf(question).map((_, i) => {
    const v = classValue(question, i);
    return { key: valueKey(v), text: labelText(v, question) };
  });

interface AgreementFieldsProps {
  value: AgreementFilter | null;
  questions: Questions;
  onChange: (value: AgreementFilter | null) => void;
}

/** The question whose human label filters the rows; a new one starts with any label and any answer. */
function AgreementQuestion({ value, questions, onChange, id }: AgreementFieldsProps & { id: string }) {
  return (
    <>
      <label htmlFor={id}>Human label of</label>
      <select
        id={id}
        value={value?.question ?? ANY}
        data-testid="rows.filter.agreement.question"
        onChange={(e) => {
          const q = e.currentTarget.value;
          onChange(
            q === ANY
              ? null
              : {
                  question: q,
                  label: null,
                  answer: null,
                  scorePrediction: value?.scorePrediction ?? 'mostProbable',
                  threshold: value?.threshold ?? 0.5,
                },
          );
        }}
      >
        <option value={ANY}>any question</option>
        {Object.keys(questions).map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </>
  );
}

interface LabelAnswerProps {
  value: AgreementFilter;
  question: Question;
  onChange: (value: AgreementFilter | null) => void;
  base: string;
}

/** The human label and the judge's answer (a value, or the same as / differs from the label), with how it is read. */
function LabelAndAnswer({ value, question, onChange, base }: LabelAnswerProps) {
  const options = valuesOf(question);
  const answerKey = value.relation ? value.relation : value.answer === null ? ANY : valueKey(value.answer);
  const optionList = options.map((o) => (
    <option key={o.key} value={o.key}>
      {o.text}
    </option>
  ));
  return (
    <>
      <label htmlFor={`${base}-l`}>is</label>
      <select
        id={`${base}-l`}
        value={value.label === null ? ANY : valueKey(value.label)}
        data-testid="rows.filter.agreement.label"
        onChange={(e) => {
          const v = e.currentTarget.value;
          onChange({ ...value, label: v === ANY ? null : (JSON.parse(v) as LabelValue) });
        }}
      >
        <option value={ANY}>any label</option>
        {optionList}
      </select>
      <label htmlFor={`${base}-a`}>judge’s answer</label>
      <select
        id={`${base}-a`}
        value={answerKey}
        data-testid="rows.filter.agreement.answer"
        onChange={(e) => {
          const v = e.currentTarget.value;
          const { relation: _relation, ...rest } = value;
          if (v === 'agree' || v === 'disagree') onChange({ ...rest, answer: null, relation: v });
          else onChange({ ...rest, answer: v === ANY ? null : (JSON.parse(v) as LabelValue) });
        }}
      >
        <option value={ANY}>any answer</option>
        <option value="agree">same as the label</option>
        <option value="disagree">differs from the label</option>
        {optionList}
      </select>
      {question.type === 'noul' && (
        <span className="muted">(yes at P(yes) ≥ {value.threshold.toFixed(2)})</span>
      )}
      {question.type === 'score' && value.scorePrediction === 'expectedRounded' && (
        <span className="muted">(expected score, rounded)</span>
      )}
    </>
  );
}

/** Rows by one question's human label and the judge's answer (what a confusion cell of the alignment screen opens). */
function AgreementFields({ value, questions, onChange }: AgreementFieldsProps) {
  const base = useId();
  const question = value ? questions[value.question] : undefined;
  return (
    <span className="rows-agreement" data-testid="rows.filter.agreement">
      <AgreementQuestion value={value} questions={questions} onChange={onChange} id={`${base}-q`} />
      {value && question && (
        <LabelAndAnswer value={value} question={question} onChange={onChange} base={base} />
      )}
    </span>
  );
}
