// Variants: other runs of the same labelled rows (another wording, target, model or version), compared with the open
// one row by row: each figure of both, the paired difference with its interval, McNemar for accuracy, and what
// changed between them.
import type { VariantComparison } from '../../../core/alignment/variants';
import { differenceSentence } from '../../../core/alignment/differenceSentence';
import type { RowRun } from '../../../core/rows/records';

export interface VariantsPanelProps {
  run: RowRun;
  runs: readonly RowRun[];
  compareWith: string | null;
  comparison: VariantComparison | null;
  comparing: boolean;
  onCompare: (id: string | null) => void;
  /** Stores and runs a variant with the session's current questions, model and target. */
  onRunVariant: () => void;
  /** Why a variant cannot be made now (the session's questions do not parse, a run is going on). */
  blocked: string | null;
}

const f2 = (x: number | null): string => (x === null ? 'undefined' : x.toFixed(2));
const when = (t: number): string => new Date(t).toLocaleString();

export function VariantsPanel({
  run,
  runs,
  compareWith,
  comparison,
  comparing,
  onCompare,
  onRunVariant,
  blocked,
}: VariantsPanelProps) {
  const group = run.variantOf ?? run.id;
  const family = runs.filter((r) => r.id !== run.id && (r.id === group || r.variantOf === group));
  const other = runs.find((r) => r.id === compareWith);
  return (
    <section className="align-variants panel" aria-label="Variants" data-testid="align.variants">
      <h3>Variants of these rows</h3>
      <p className="muted">
        A variant runs the same rows and labels with the session’s current questions, model and target.
        Answers already stored for an unchanged request are reused, so only what changed is sent again.
      </p>
      <button
        type="button"
        onClick={onRunVariant}
        disabled={blocked !== null}
        data-testid="align.variant.run"
      >
        Run a variant with the session’s current questions
      </button>
      {blocked && <p className="muted">{blocked}</p>}
      {family.length > 0 && (
        <p>
          <label>
            Compare this run (B) with{' '}
            <select
              value={compareWith ?? ''}
              onChange={(e) => onCompare(e.currentTarget.value || null)}
              data-testid="align.variant.compare"
            >
              <option value="">nothing</option>
              {family.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.id === group ? 'the first run' : 'a variant'} of {when(r.createdAt)} · {r.model}
                </option>
              ))}
            </select>{' '}
            (A)
          </label>
        </p>
      )}
      {comparing && <p role="status">Comparing…</p>}
      {comparison && other && (
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
            <div key={q.name} className="align-variant" data-testid={`align.variant.${q.name}`}>
              <h4>
                <code>{q.name}</code> on {q.paired} paired rows
              </h4>
              <p>What changed: {q.changes.length ? q.changes.join('; ') : 'nothing in the question'}.</p>
              <table className="align-table">
                <thead>
                  <tr>
                    <th scope="col">Figure</th>
                    <th scope="col">A</th>
                    <th scope="col">B</th>
                    <th scope="col">B − A (95% CI, paired bootstrap)</th>
                  </tr>
                </thead>
                <tbody>
                  {q.differences.map((d) => (
                    <tr key={d.key}>
                      <th scope="row">{d.key}</th>
                      <td>{f2(d.a)}</td>
                      <td>{f2(d.b)}</td>
                      <td title={d.difference.method} data-testid={`align.variant.diff.${q.name}.${d.key}`}>
                        {differenceSentence(d)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p className="muted" title={q.mcnemar.method}>
                Accuracy, McNemar: {q.mcnemar.b} rows right only in A, {q.mcnemar.c} right only in B, p ={' '}
                {q.mcnemar.pValue < 0.001 ? '< 0.001' : q.mcnemar.pValue.toFixed(3)} ({q.mcnemar.method}).
                {q.labelMismatches > 0 &&
                  ` ${q.labelMismatches} rows whose label differs between the runs are left out.`}
              </p>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
