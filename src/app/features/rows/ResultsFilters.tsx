// Filters of the results table: status, low confidence, thresholds on answer columns, and text.
import { useId } from 'react';
import type { AnswerColumn, ResultFilter, StatusFilter, Threshold } from '../../../core/rows/results';

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
  onChange: (filter: ResultFilter) => void;
  shown: number;
  total: number;
}

/** The filter bar above the table. */
export function ResultsFilters({ filter, columns, onChange, shown, total }: ResultsFiltersProps) {
  const statusId = useId();
  const textId = useId();
  const numeric = columns.filter((c) => c.numeric);
  const setThreshold = (i: number, patch: Partial<Threshold>) =>
    onChange({ ...filter, thresholds: filter.thresholds.map((t, j) => (i === j ? { ...t, ...patch } : t)) });
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
      {filter.thresholds.map((t, i) => (
        <span key={i} className="rows-threshold" data-testid="rows.filter.threshold">
          <select
            aria-label="Column"
            value={t.column}
            onChange={(e) => setThreshold(i, { column: e.currentTarget.value })}
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
            onChange={(e) => setThreshold(i, { op: e.currentTarget.value as Threshold['op'] })}
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
              if (Number.isFinite(v)) setThreshold(i, { value: v });
            }}
          />
          <button
            type="button"
            aria-label="Remove this threshold"
            onClick={() => onChange({ ...filter, thresholds: filter.thresholds.filter((_, j) => j !== i) })}
          >
            ×
          </button>
        </span>
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
