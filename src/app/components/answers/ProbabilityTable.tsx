// The exact numbers of a chart as a table for screen readers (visually hidden; the chart itself is aria-hidden).
import { memo } from 'react';

export interface ProbabilityTableProps {
  id?: string;
  caption: string;
  columns: readonly string[];
  rows: readonly (readonly string[])[];
}

/** A visually hidden table: the text equivalent of a chart (memoised: 255 rows are not redone for nothing). */
export const ProbabilityTable = memo(function ProbabilityTable({
  id,
  caption,
  columns,
  rows,
}: ProbabilityTableProps) {
  return (
    // NOTE: hidden by a wrapper, not on the table: a table never gets narrower than its content, and a 1 px table
    // would still widen the page's scroll area.
    <div className="visually-hidden">
      <table id={id} data-testid="answers.table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {row.map((cell, j) =>
                j === 0 ? (
                  <th key={j} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={j}>{cell}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
});
