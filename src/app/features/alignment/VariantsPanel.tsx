// Variants: other runs of the same labelled rows (another wording, target, model or version), compared with the open
// one row by row: each figure of both, the paired difference with its interval, McNemar for accuracy, and what
// changed between them.
import { useEffect, useRef } from 'react';
import type { VariantComparison } from '../../../core/alignment/variants';
import { figureName, pValueText, readDifference, valueText } from '../../../core/alignment/figureWords';
import type { RowRun } from '../../../core/rows/records';
import type { VariantPlan } from '../../../core/rows/variantPlan';
import { formatCost } from '../../../contract';
import { LOCAL_COST_WORDS } from '../../../core/words';
import { VariantFamilyPanel } from './VariantFamilyPanel';

export interface VariantsPanelProps {
  run: RowRun;
  runs: readonly RowRun[];
  compareWith: string | null;
  /** The comparison of the pair chosen, once computed from the answers on screen; null until then. */
  comparison: VariantComparison | null;
  /** What the comparison waits for ("Comparing…"), or null when it is shown or none is asked for. */
  comparing: string | null;
  onCompare: (id: string | null) => void;
  /** Stores and runs a variant with the session's current questions, model and target. */
  onRunVariant: () => void;
  /** Why a variant cannot be made now (the session's questions do not parse, a run is going on). */
  blocked: string | null;
  /** What a variant with the session's questions, model and target would send, said before it runs. */
  plan?: { plan: VariantPlan; model: string; targetId: string } | null;
  /** Pins the session's model to a version (the alias's, as the service resolved it for this run). */
  onPin?: (model: string) => void;
}

const count = (n: number): string => n.toLocaleString('en-US');

/** The requests, tokens and cost a variant sends, in one sentence. */
function sendsText({
  plan,
  model,
  targetId,
}: {
  plan: VariantPlan;
  model: string;
  targetId: string;
}): string {
  if (plan.reason === 'nothing')
    return 'Nothing changed in the questions, model or target: every answer is reused, and no request is sent.';
  const cost =
    plan.cost === null
      ? 'cost unknown (the target states no price)'
      : `≈ ${formatCost(plan.cost)}${targetId === 'local' ? ` (${LOCAL_COST_WORDS})` : ''}`;
  const what = `${count(plan.requests)} request${plan.requests === 1 ? '' : 's'}, ${plan.reason === 'changed' ? 'at most' : 'about'} ${count(plan.tokens)} input tokens, ${cost}`;
  const questions = `${plan.asked.length} question${plan.asked.length === 1 ? '' : 's'}`;
  switch (plan.reason) {
    case 'alias':
      return `${model} is an alias: stored answers are reused only for a pinned version, so this variant sends all ${count(plan.requests)} rows with all ${questions}: ${what}.`;
    case 'other-target':
      return `Another target (${targetId}) answers differently: this variant sends all ${count(plan.requests)} rows with all ${questions}: ${what}.`;
    case 'other-model':
      return `Another model than the one that answered this run${plan.pinTo ? ` (${plan.pinTo})` : ''}: this variant sends all ${count(plan.requests)} rows with all ${questions}: ${what}.`;
    default:
      return `Only the changed ${plan.asked.length === 1 ? 'question' : 'questions'} (${plan.asked.join(', ')}) ${plan.asked.length === 1 ? 'is' : 'are'} asked again, the others reused: ${what}.`;
  }
}

const when = (t: number): string => new Date(t).toLocaleString();
const rowsText = (n: number): string => `${n.toLocaleString('en-US')} row${n === 1 ? '' : 's'}`;
const MARK = { better: '▲', worse: '▼', same: '=', undefined: '·' } as const;

/** The other runs of the same rows: the first run and its variants, without the open one. */
export function familyOf(run: RowRun, runs: readonly RowRun[]): RowRun[] {
  const group = run.variantOf ?? run.id;
  return runs.filter((r) => r.id !== run.id && (r.id === group || r.variantOf === group));
}

/** The run a comparison starts with: a variant against the first run, the first run against its newest variant. */
const defaultOther = (run: RowRun, family: readonly RowRun[]): RowRun | undefined =>
  run.variantOf ? (family.find((r) => r.id === run.variantOf) ?? family[0]) : family[0];

export function VariantsPanel({
  run,
  runs,
  compareWith,
  comparison,
  comparing,
  onCompare,
  onRunVariant,
  blocked,
  plan,
  onPin,
}: VariantsPanelProps) {
  const group = run.variantOf ?? run.id;
  const family = familyOf(run, runs);
  const other = runs.find((r) => r.id === compareWith);
  // A run with variants opens compared with one (never "nothing"); once per run, so choosing none stays chosen.
  const picked = useRef<string | null>(null);
  const first = defaultOther(run, family);
  useEffect(() => {
    if (picked.current === run.id || !first) return;
    picked.current = run.id;
    if (!compareWith || !family.some((r) => r.id === compareWith)) onCompare(first.id);
  }, [run.id, first, compareWith, family, onCompare]);
  return (
    <section className="align-variants panel" aria-label="Variants" data-testid="align.variants">
      <h3>Variants of these rows</h3>
      <p className="muted">
        A variant runs the same rows and labels with the session’s current questions, model and target.
        Answers already stored for an unchanged question, with a pinned model at the same target, are reused,
        so only what changed is sent again.
      </p>
      {plan && !blocked && (
        <p data-testid="align.variant.plan">
          {sendsText(plan)}
          {plan.plan.reason === 'alias' && plan.plan.pinTo && onPin && (
            <>
              {' '}
              <button
                type="button"
                onClick={() => onPin(plan.plan.pinTo!)}
                title={`Sets the session's model to ${plan.plan.pinTo}, the version the service answered this run with: its stored answers are then reused.`}
                data-testid="align.variant.pin"
              >
                Pin {plan.plan.pinTo}
              </button>
            </>
          )}
        </p>
      )}
      <button
        type="button"
        onClick={onRunVariant}
        disabled={blocked !== null}
        data-testid="align.variant.run"
      >
        Run a variant with the session’s current questions
      </button>
      {blocked && <p className="muted">{blocked}</p>}
      <VariantFamilyPanel run={run} runs={runs} />
      {family.length > 0 && (
        <p>
          <label>
            Compare this run (B) with{' '}
            <select
              value={compareWith ?? ''}
              onChange={(e) => onCompare(e.currentTarget.value || null)}
              data-testid="align.variant.compare"
            >
              <option value="">no other run (no comparison)</option>
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
      {comparing && (
        <p role="status" data-testid="align.variant.comparing">
          {comparing}
        </p>
      )}
      {comparison && other && family.some((r) => r.id === other.id) && (
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
          {comparison.questions.map((q) =>
            q.paired === 0 ? (
              // No row has a label and both runs' answers (a question nobody labelled): a table of "cannot be
              // compared" would say nothing more than this line.
              <p key={q.name} className="muted" data-testid={`align.variant.${q.name}`}>
                <code>{q.name}</code>: no row has a label and an answer of both runs, so there is nothing to
                compare.
              </p>
            ) : (
              <div key={q.name} className="align-variant" data-testid={`align.variant.${q.name}`}>
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
                          <td
                            title={d.difference.method}
                            data-testid={`align.variant.diff.${q.name}.${d.key}`}
                          >
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
                  Accuracy, McNemar: {rowsText(q.mcnemar.b)} right only in A, {rowsText(q.mcnemar.c)} right
                  only in B, {pValueText(q.mcnemar.pValue)} ({q.mcnemar.method}; below 0.05, the change in
                  accuracy is more than chance would give).
                  {q.labelMismatches > 0 &&
                    ` ${rowsText(q.labelMismatches)} whose label differs between the runs ${q.labelMismatches === 1 ? 'is' : 'are'} left out.`}
                </p>
              </div>
            ),
          )}
        </div>
      )}
    </section>
  );
}
