// How each row becomes the state: the whole row as named fields, one column as text, or chosen columns; and which
// column (if any) names the rows in the results and the export.
import { useId } from 'react';
import type { State } from '../../../contract';
import type { RowMapping } from '../../../core/rows/mapping';
import { SegmentedControl } from '../../components/SegmentedControl';

export interface MappingFormProps {
  mapping: RowMapping;
  columns: readonly string[];
  /** False for files of plain values (JSON Lines of strings): only "whole row" applies. */
  objectRows: boolean;
  onChange: (mapping: RowMapping) => void;
  /** What the first rows map to, from the latest plan. */
  samples: readonly { line: number; id: string; state: State }[];
  disabled?: boolean;
}

const MODES = [
  { value: 'fields', label: 'Whole row as named fields' },
  { value: 'text', label: 'One column as text' },
  { value: 'columns', label: 'Chosen columns' },
  { value: 'conversation', label: 'One column as a conversation' },
] as const;

const RULES = [
  { value: 'transcript', label: 'A transcript, one line per turn' },
  { value: 'fields', label: 'Fields: conversation and last_assistant_turn' },
] as const;

/** A labelled choice of one of the file's columns. */
function ColumnSelect(props: {
  id: string;
  label: string;
  value: string;
  columns: readonly string[];
  disabled: boolean | undefined;
  testId: string;
  onChange: (column: string) => void;
}) {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value}
        disabled={props.disabled}
        data-testid={props.testId}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        {props.columns.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </>
  );
}

/** The mapping in another mode: its first free column or the free columns; labels, metadata and the id kept. */
function mappingInMode(
  mapping: RowMapping,
  columns: readonly string[],
  mode: RowMapping['mode'],
): RowMapping {
  const idColumn = mapping.idColumn;
  // Label and metadata columns stay as they are when the mode changes, and are never offered as the state.
  const kept = {
    ...(mapping.labels ? { labels: mapping.labels } : {}),
    ...(mapping.metadata ? { metadata: mapping.metadata } : {}),
  };
  const leftOut = leftOutColumns(mapping);
  const free = columns.filter((c) => c !== idColumn && !leftOut.has(c));
  if (mode === 'fields') return { mode, idColumn, ...kept };
  if (mode === 'text') return { mode, column: free[0] ?? columns[0] ?? '', idColumn, ...kept };
  if (mode === 'conversation')
    return { mode, column: free[0] ?? columns[0] ?? '', rule: { kind: 'transcript' }, idColumn, ...kept };
  return { mode, columns: free.length ? free : columns.filter((c) => c !== idColumn), idColumn, ...kept };
}

/** The label and metadata columns: never sent as the state. */
const leftOutColumns = (mapping: RowMapping): Set<string> =>
  new Set([...(mapping.labels ?? []).map((l) => l.column), ...(mapping.metadata ?? [])]);

type Conversational = Extract<RowMapping, { mode: 'conversation' }>;

interface ConversationFieldsProps {
  mapping: Conversational;
  columns: readonly string[];
  ids: { column: string; rule: string };
  disabled: boolean | undefined;
  onChange: (mapping: RowMapping) => void;
}

/** The conversation's column, and how it is sent to targets of the interface's form. */
function ConversationFields({ mapping, columns, ids, disabled, onChange }: ConversationFieldsProps) {
  return (
    <>
      <ColumnSelect
        id={ids.column}
        label="Conversation column"
        value={mapping.column}
        columns={columns}
        disabled={disabled}
        testId="rows.mapping.conversation"
        onChange={(column) => onChange({ ...mapping, column })}
      />
      <label htmlFor={ids.rule}>For targets of the interface&apos;s form, send it as</label>
      <select
        id={ids.rule}
        value={mapping.rule.kind}
        disabled={disabled}
        data-testid="rows.mapping.rule"
        onChange={(e) =>
          onChange({ ...mapping, rule: { kind: e.currentTarget.value as 'transcript' | 'fields' } })
        }
      >
        {RULES.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </select>
      <p className="muted rows-hint">
        Each cell holds a transcript (OpenAI chat or input, Anthropic messages, OpenTelemetry GenAI spans). A
        Decisions-dialect target reads the conversation itself.
      </p>
    </>
  );
}

interface ChosenColumnsProps {
  mapping: Extract<RowMapping, { mode: 'columns' }>;
  columns: readonly string[];
  disabled: boolean | undefined;
  onChange: (mapping: RowMapping) => void;
}

/** The columns sent as the state's fields, in the file's order; at least one stays chosen. */
function ChosenColumns({ mapping, columns, disabled, onChange }: ChosenColumnsProps) {
  return (
    <fieldset className="rows-mapping__columns">
      <legend>Fields sent as the state (everything sent is billed and can distract)</legend>
      {columns.map((c) => (
        <label key={c} className="rows-check">
          <input
            type="checkbox"
            disabled={disabled}
            checked={mapping.columns.includes(c)}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              const next = on
                ? columns.filter((x) => x === c || mapping.columns.includes(x))
                : mapping.columns.filter((x) => x !== c);
              if (next.length > 0) onChange({ ...mapping, columns: next });
            }}
          />
          {c}
        </label>
      ))}
    </fieldset>
  );
}

/** What the first rows are sent as. */
function StateSamples({ samples }: { samples: MappingFormProps['samples'] }) {
  if (samples.length === 0) return null;
  return (
    <div className="rows-samples" data-testid="rows.samples">
      <h3>Sent as the state</h3>
      {samples.map((s) => (
        <div key={s.line} className="rows-sample">
          <span className="muted">
            line {s.line} · id {s.id}
          </span>
          <pre>{typeof s.state === 'string' ? s.state : JSON.stringify(s.state, null, 2)}</pre>
        </div>
      ))}
    </div>
  );
}

type MappingFieldsProps = Omit<MappingFormProps, 'objectRows' | 'samples'> & {
  ids: { id: string; column: string; rule: string };
};

/** The fields of the chosen mode, then the row id column and what is never sent. */
function MappingFields({ mapping, columns, onChange, disabled, ids }: MappingFieldsProps) {
  const idColumn = mapping.idColumn;
  const leftOut = leftOutColumns(mapping);
  const given = { columns, disabled, onChange };
  return (
    <div className="rows-mapping__fields">
      {mapping.mode === 'conversation' && <ConversationFields mapping={mapping} ids={ids} {...given} />}
      {mapping.mode === 'text' && (
        <>
          <ColumnSelect
            id={ids.column}
            label="Text column"
            value={mapping.column}
            columns={columns}
            disabled={disabled}
            testId="rows.mapping.text"
            onChange={(column) => onChange({ ...mapping, column })}
          />
        </>
      )}
      {mapping.mode === 'columns' && <ChosenColumns mapping={mapping} {...given} />}
      <label htmlFor={ids.id}>Row id column</label>
      <select
        id={ids.id}
        value={idColumn ?? ''}
        disabled={disabled}
        data-testid="rows.mapping.id"
        onChange={(e) => onChange({ ...mapping, idColumn: e.currentTarget.value || null })}
      >
        <option value="">None: rows are numbered</option>
        {columns.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
      {mapping.mode === 'fields' && idColumn && (
        <p className="muted rows-hint">The id column is left out of the state.</p>
      )}
      {leftOut.size > 0 && (
        <p className="muted rows-hint" data-testid="rows.mapping.leftOut">
          Never sent (labels and metadata): {[...leftOut].map((c) => `\`${c}\``).join(', ')}.
        </p>
      )}
    </div>
  );
}

/** The mapping controls and a sample of the state they produce. */
export function MappingForm({ mapping, columns, objectRows, onChange, samples, disabled }: MappingFormProps) {
  const ids = { id: useId(), column: useId(), rule: useId() };
  return (
    <section className="rows-mapping panel" aria-label="Map each row to the state">
      <h2>2. Map each row to the state</h2>
      {objectRows ? (
        <SegmentedControl
          label="State from each row"
          value={mapping.mode}
          options={MODES}
          onChange={(mode) => onChange(mappingInMode(mapping, columns, mode))}
          testId="rows.mapping.mode"
        />
      ) : (
        <p className="muted">Each row is a plain value: it is sent as the state as it is.</p>
      )}
      {objectRows && <MappingFields {...{ mapping, columns, onChange, disabled, ids }} />}
      <StateSamples samples={samples} />
    </section>
  );
}
