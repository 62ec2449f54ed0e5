// The export buttons of a run's results, with the choice to add the lines of the file that were not sent.
import { useState } from 'react';

export interface ResultsExportProps {
  /** How many lines of the file were left out (the choice is off when none were). */
  skipped: number;
  onExport: (kind: 'csv' | 'jsonl', options: { leftOut: boolean }) => void;
}

/** CSV and JSONL exports of the results. */
export function ResultsExport({ skipped, onExport }: ResultsExportProps) {
  const [withLeftOut, setWithLeftOut] = useState(false);
  return (
    <span className="rows-results__export">
      Export with row ids, model and usage:
      <button
        type="button"
        onClick={() => onExport('csv', { leftOut: withLeftOut })}
        data-testid="rows.export.csv"
      >
        CSV
      </button>
      <button
        type="button"
        onClick={() => onExport('jsonl', { leftOut: withLeftOut })}
        data-testid="rows.export.jsonl"
      >
        JSONL
      </button>
      <label title="Adds a line for each line of the file that was not sent, with its line number and reason, so the export joins back to the file line by line.">
        <input
          type="checkbox"
          checked={withLeftOut}
          disabled={skipped === 0}
          onChange={(e) => setWithLeftOut(e.target.checked)}
          data-testid="rows.export.leftOut"
        />
        with the {skipped} line(s) left out
      </label>
    </span>
  );
}
