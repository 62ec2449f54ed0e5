// Which columns hold human labels and which are metadata: both are kept with the rows and never sent. A question takes
// one column, or several (one per annotator, the row's label their majority). Each label column shows its values
// with counts and what they read as, and unmatched values can be mapped to a label or left out. The figures themselves
// are on the alignment screen.
import { useId, useState } from 'react';
import type { Questions } from '../../../contract';
import type { LabelPlan } from '../../../core/rows/labels';
import type { RowMapping } from '../../../core/rows/mapping';
import { LabelQuestionColumns } from './LabelQuestionColumns';
import { LabelValueTable } from './LabelValueTable';
import { useLabelColumnEdits } from './useLabelColumnEdits';
import type { LabelColumnEdits } from './useLabelColumnEdits';

export interface LabelColumnsFormProps {
  mapping: RowMapping;
  columns: readonly string[];
  questions: Questions | null;
  /** Value tables from the latest plan. */
  plans: readonly LabelPlan[];
  onChange: (mapping: RowMapping) => void;
  disabled?: boolean;
}

interface MetadataColumnsProps {
  columns: readonly string[];
  edits: LabelColumnEdits;
  disabled: boolean | undefined;
}

/** The columns kept with each row as metadata: any column not already a label or the id. */
function MetadataColumns({ columns, edits, disabled }: MetadataColumnsProps) {
  return (
    <fieldset className="rows-labels__metadata">
      <legend>Metadata columns (kept with the row, never sent)</legend>
      {columns
        .filter((c) => !edits.used.has(c))
        .map((c) => (
          <label key={c} className="rows-check">
            <input
              type="checkbox"
              disabled={disabled}
              checked={edits.metadata.includes(c)}
              data-testid={`rows.labels.metadata.${c}`}
              onChange={(e) => edits.setMetadata(c, e.currentTarget.checked)}
            />
            {c}
          </label>
        ))}
    </fieldset>
  );
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
  // Value tables list their first values; which columns list them all is kept here, across the plans' updates.
  const [whole, setWhole] = useState<ReadonlySet<string>>(new Set());
  const edits = useLabelColumnEdits(mapping, columns, onChange);
  const names = Object.keys(questions ?? {});
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
          {names.map((name) => (
            <LabelQuestionColumns
              key={name}
              {...{ name, base, edits, disabled }}
              question={questions![name]!}
            />
          ))}
        </div>
      )}
      <MetadataColumns columns={columns} edits={edits} disabled={disabled} />
      {plans.map((plan) => {
        const spec = edits.specOf(plan.column);
        const question = questions?.[plan.question];
        if (!spec || spec.question !== plan.question || !question) return null;
        if (!plan.summary)
          return (
            <p key={plan.column} role="alert">
              {plan.problem}
            </p>
          );
        return (
          <LabelValueTable
            key={plan.column}
            {...{ plan, spec, question, edits, disabled }}
            summary={plan.summary}
            whole={whole.has(plan.column)}
            onListAll={() => setWhole((w) => new Set(w).add(plan.column))}
          />
        );
      })}
    </section>
  );
}
