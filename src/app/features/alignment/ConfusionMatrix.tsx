// A confusion matrix: human labels down, the judge's answers across. Each cell is a button that opens the rows
// behind it; the diagonal (agreement) is shaded.
import type { CSSProperties } from 'react';

export interface ConfusionMatrixProps {
  question: string;
  classes: readonly string[];
  counts: readonly (readonly number[])[];
  /** The open cell, if any. */
  open: { truth: number; predicted: number } | null;
  onOpen: (truth: number, predicted: number) => void;
}

export function ConfusionMatrix({ question, classes, counts, open, onOpen }: ConfusionMatrixProps) {
  const max = Math.max(1, ...counts.flat());
  return (
    <table className="align-confusion" data-testid={`align.confusion.${question}`}>
      <caption>
        Confusion of <code>{question}</code>: human label (rows) against the judge’s answer (columns)
      </caption>
      <thead>
        <tr>
          <th scope="col">Label ↓ / judge →</th>
          {classes.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {classes.map((truth, i) => (
          <tr key={truth}>
            <th scope="row">{truth}</th>
            {classes.map((predicted, j) => {
              const n = counts[i]?.[j] ?? 0;
              const isOpen = open?.truth === i && open.predicted === j;
              return (
                <td key={predicted} className={i === j ? 'align-confusion__agree' : undefined}>
                  <button
                    type="button"
                    disabled={n === 0}
                    aria-pressed={isOpen}
                    aria-label={`${n} rows labelled ${truth}, answered ${predicted}`}
                    data-testid={`align.cell.${question}.${i}.${j}`}
                    // The shade grows with the count (alignment.css); opacity would make small counts look disabled.
                    style={{ '--cell-share': n / max } as CSSProperties}
                    onClick={() => onOpen(i, j)}
                  >
                    {n}
                  </button>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
