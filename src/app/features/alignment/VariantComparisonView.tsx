// Two runs of the same rows compared: what changed between them, then each question's figures of both, the paired
// difference with its interval and reading, and McNemar for accuracy.
import { figureName, pValueText, readDifference, valueText } from '../../../core/alignment/figureWords';
import type { VariantComparison } from '../../../core/alignment/variants';
import type { RowRun } from '../../../core/rows/records';

const rowsText = (n: number): string => `${n.toLocaleString('en-US')} row${n === 1 ? '' : 's'}`;
const MARK = { better: '▲', worse: '▼', same: '=', undefined: '·' } as const;

export interface VariantComparisonViewProps {
  /** The open run (B). */
  run: RowRun;
  /** The run it is compared with (A). */
  other: RowRun;
  comparison: VariantComparison;
}

export function VariantComparisonView({ run, other, comparison }: VariantComparisonViewProps) {
  return (
    <div data-testid="align.variant.comparison">
      {(other.model !== run.model || other.targetId !== run.targetId) && (
        <p>
          {other.model !== run.model && (
            <>
              Model: <del>{other.model}</del> → <ins>{run.model}</ins>.{' '}
            </>
          )}
          {other.targetId !== run.targetId && (
            <>
              Target: <del>{other.targetId}</del> → <ins>{run.targetId}</ins>.
            </>
          )}
        </p>
      )}
      {comparison.unmatched.length > 0 && (
        <p className="muted">
          Asked by one run only, or with another type: {comparison.unmatched.join(', ')}.
        </p>
      )}
      {comparison.questions.map((q) => (
        <QuestionComparison key={q.name} question={q} />
      ))}
    </div>
  );
}

/** One question compared: a line when no row can be paired, else its table of differences and McNemar. */
function QuestionComparison({ question: q }: { question: VariantComparison['questions'][number] }) {
  return q.paired === 0 ? (
    // No row has a label and both runs' answers (a question nobody labelled): a table of "cannot be
    // compared" would say nothing more than this line.
    <p className="muted" data-testid={`align.variant.${q.name}`}>
      <code>{q.name}</code>: no row has a label and an answer of both runs, so there is nothing to compare.
    </p>
  ) : (
    <div className="align-variant" data-testid={`align.variant.${q.name}`}>
      <h4>
        <code>{q.name}</code> on {rowsText(q.paired)} answered by both runs
      </h4>
      <p>What changed: {q.changes.length ? q.changes.join('; ') : 'nothing in the question'}.</p>
      <table className="align-table">
        <thead>
          <tr>
            <th scope="col">Figure</th>
            <th scope="col">A</th>
            <th scope="col">B</th>
            <th scope="col">Change from A to B (95% CI, paired bootstrap)</th>
            <th scope="col">Better or worse</th>
          </tr>
        </thead>
        <tbody>
          {q.differences.map((d) => {
            const reading = readDifference(d.key, d.difference);
            return (
              <tr key={d.key} data-verdict={reading.verdict}>
                <th scope="row">{figureName(d.key)}</th>
                <td>{d.a === null ? 'undefined' : valueText(d.key, d.a)}</td>
                <td>{d.b === null ? 'undefined' : valueText(d.key, d.b)}</td>
                <td title={d.difference.method} data-testid={`align.variant.diff.${q.name}.${d.key}`}>
                  {reading.text}
                </td>
                <td
                  className={`align-verdict align-verdict--${reading.verdict}${reading.clear ? '' : ' align-verdict--unclear'}`}
                  data-testid={`align.variant.mark.${q.name}.${d.key}`}
                >
                  <span aria-hidden="true">{MARK[reading.verdict]}</span> {reading.mark}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted" title={q.mcnemar.method}>
        Accuracy, McNemar: {rowsText(q.mcnemar.b)} right only in A, {rowsText(q.mcnemar.c)} right only in B,{' '}
        {pValueText(q.mcnemar.pValue)} ({q.mcnemar.method}; below 0.05, the change in accuracy is more than
        chance would give).
        {q.labelMismatches > 0 &&
          ` ${rowsText(q.labelMismatches)} whose label differs between the runs ${q.labelMismatches === 1 ? 'is' : 'are'} left out.`}
      </p>
    </div>
  );
}
