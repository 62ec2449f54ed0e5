// Picking a file of rows: a file input that also takes a drop, the format and header options, reading progress.
import { useId, useState } from 'react';
import type { DragEvent } from 'react';
import type { ImportState } from '../../stores/rows';
import type { ParseOptions } from '../../workers/rowsParser';
import { formatBytes, formatCount } from './format';

export interface ImportPanelProps {
  state: ImportState;
  options: ParseOptions;
  onFile: (file: File) => void;
  onOptions: (options: Partial<ParseOptions>) => void;
  /** A results file written by the command line (`evaluate-workbench run --out`), opened as a finished run. */
  onResultsFile: (file: File) => void;
  disabled?: boolean;
}

const FORMATS: { value: ParseOptions['format']; label: string }[] = [
  { value: 'auto', label: 'Guess from the file' },
  { value: 'csv', label: 'CSV (or TSV)' },
  { value: 'jsonl', label: 'JSON Lines' },
  { value: 'json', label: 'JSON array' },
];

type OptionsProps = Pick<ImportPanelProps, 'options' | 'onOptions' | 'disabled'> & { formatId: string };

/** How the file is read: its format, whether a CSV's first line names the columns, and literal quotes. */
function ParseOptionsFields({ options, onOptions, disabled, formatId }: OptionsProps) {
  return (
    <div className="rows-import__options">
      <label htmlFor={formatId}>Format</label>
      <select
        id={formatId}
        value={options.format}
        disabled={disabled}
        onChange={(e) => onOptions({ format: e.currentTarget.value as ParseOptions['format'] })}
      >
        {FORMATS.map((f) => (
          <option key={f.value} value={f.value}>
            {f.label}
          </option>
        ))}
      </select>
      <label className="rows-check">
        <input
          type="checkbox"
          checked={options.header}
          disabled={disabled}
          onChange={(e) => onOptions({ header: e.currentTarget.checked })}
        />
        CSV: the first line names the columns
      </label>
      <label className="rows-check">
        <input
          type="checkbox"
          checked={options.literalQuotes}
          disabled={disabled}
          onChange={(e) => onOptions({ literalQuotes: e.currentTarget.checked })}
          data-testid="rows.literalQuotes"
        />
        CSV: quotes are plain text (one row per line)
      </label>
    </div>
  );
}

type ResultsPickerProps = Pick<ImportPanelProps, 'onResultsFile' | 'disabled'> & { resultsId: string };

/** The picker of a results file the command line wrote, opened as a finished run. */
function ResultsFilePicker({ onResultsFile, disabled, resultsId }: ResultsPickerProps) {
  return (
    <p className="rows-hint">
      <label htmlFor={resultsId}>
        Or open a results file written by the command line (evaluate-workbench run --out):
      </label>{' '}
      <input
        id={resultsId}
        type="file"
        accept=".jsonl,.ndjson,.json,.txt,application/x-ndjson,application/json"
        disabled={disabled}
        data-testid="rows.resultsFile"
        onClick={(e) => {
          e.currentTarget.value = '';
        }}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) onResultsFile(file);
        }}
      />
    </p>
  );
}

/** The file being read, with its progress, or why it could not be. */
function ReadingStatus({ state }: { state: ImportState }) {
  const p = state.progress;
  return (
    <>
      {state.phase === 'reading' && (
        <div className="rows-reading" role="status" data-testid="rows.reading">
          Reading {state.fileName}
          {p ? ` — ${formatBytes(p.bytes)} of ${formatBytes(p.total)}, ${formatCount(p.rows)} rows` : '…'}
          <progress max={p?.total || 1} value={p?.bytes ?? 0} aria-label="Reading the file" />
        </div>
      )}
      {state.phase === 'failed' && (
        <p className="error-text" role="alert">
          {state.fileName} could not be read: {state.error}
        </p>
      )}
    </>
  );
}

/** The file picker and its options. */
export function ImportPanel({
  state,
  options,
  onFile,
  onOptions,
  onResultsFile,
  disabled,
}: ImportPanelProps) {
  const inputId = useId();
  const resultsId = useId();
  const formatId = useId();
  const [over, setOver] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled) onFile(file);
  };
  return (
    <section className="rows-import panel" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>1. Pick a file of rows</h2>
      <div
        className={`rows-drop${over ? ' rows-drop--over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <label htmlFor={inputId}>CSV, JSON Lines or a JSON array: pick a file or drop it here.</label>
        <input
          id={inputId}
          type="file"
          accept=".csv,.tsv,.txt,.jsonl,.ndjson,.json,text/csv,application/json"
          disabled={disabled}
          data-testid="rows.file"
          // Cleared as the picker opens, not after: the same file picked again (after an edit on disk) reads again,
          // and the input keeps showing the name of the file it read.
          onClick={(e) => {
            e.currentTarget.value = '';
          }}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            if (file) onFile(file);
          }}
        />
        {state.phase === 'ready' && state.fileName && (
          <p className="rows-hint" data-testid="rows.fileName">
            Loaded: <strong>{state.fileName}</strong>
          </p>
        )}
      </div>
      <ParseOptionsFields {...{ options, onOptions, disabled, formatId }} />
      <ResultsFilePicker {...{ onResultsFile, disabled, resultsId }} />
      <ReadingStatus state={state} />
    </section>
  );
}
