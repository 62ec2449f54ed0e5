// Variants: other runs of the same labelled rows (another wording, target, model or version), compared with the open
// one row by row: each figure of both, the paired difference with its interval, McNemar for accuracy, and what
// changed between them.
import { useEffect, useRef } from 'react';
import type { VariantComparison } from '../../../core/alignment/variants';
import { VariantComparisonView } from './VariantComparisonView';
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

/** The other runs of the same rows: the first run and its variants, without the open one. */
export function familyOf(run: RowRun, runs: readonly RowRun[]): RowRun[] {
  const group = run.variantOf ?? run.id;
  return runs.filter((r) => r.id !== run.id && (r.id === group || r.variantOf === group));
}

/** The run a comparison starts with: a variant against the first run, the first run against its newest variant. */
const defaultOther = (run: RowRun, family: readonly RowRun[]): RowRun | undefined =>
  run.variantOf ? (family.find((r) => r.id === run.variantOf) ?? family[0]) : family[0];

/** A run with variants opens compared with one (never "nothing"); once per run, so choosing none stays chosen. */
function useDefaultComparison(
  run: RowRun,
  family: readonly RowRun[],
  compareWith: string | null,
  onCompare: (id: string | null) => void,
): void {
  const picked = useRef<string | null>(null);
  const first = defaultOther(run, family);
  useEffect(() => {
    if (picked.current === run.id || !first) return;
    picked.current = run.id;
    if (!compareWith || !family.some((r) => r.id === compareWith)) onCompare(first.id);
  }, [run.id, first, compareWith, family, onCompare]);
}

export function VariantsPanel(props: VariantsPanelProps) {
  const { run, runs, compareWith, comparison, comparing, onCompare, blocked, plan } = props;
  const family = familyOf(run, runs);
  const other = runs.find((r) => r.id === compareWith);
  useDefaultComparison(run, family, compareWith, onCompare);
  return (
    <section className="align-variants panel" aria-label="Variants" data-testid="align.variants">
      <h3>Variants of these rows</h3>
      <p className="muted">
        A variant runs the same rows and labels with the session’s current questions, model and target.
        Answers already stored for an unchanged question, with a pinned model at the same target, are reused,
        so only what changed is sent again.
      </p>
      {plan && !blocked && <VariantPlanLine plan={plan} onPin={props.onPin} />}
      <button
        type="button"
        onClick={props.onRunVariant}
        disabled={blocked !== null}
        data-testid="align.variant.run"
      >
        Run a variant with the session’s current questions
      </button>
      {blocked && <p className="muted">{blocked}</p>}
      <VariantFamilyPanel run={run} runs={runs} />
      {family.length > 0 && (
        <CompareWithPicker run={run} family={family} compareWith={compareWith} onCompare={onCompare} />
      )}
      {comparing && (
        <p role="status" data-testid="align.variant.comparing">
          {comparing}
        </p>
      )}
      {comparison && other && family.some((r) => r.id === other.id) && (
        <VariantComparisonView run={run} other={other} comparison={comparison} />
      )}
    </section>
  );
}

/** What a variant would send, and pinning an alias's version so stored answers are reused. */
function VariantPlanLine({
  plan,
  onPin,
}: {
  plan: NonNullable<VariantsPanelProps['plan']>;
  onPin: VariantsPanelProps['onPin'];
}) {
  return (
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
  );
}

interface CompareWithPickerProps {
  run: RowRun;
  family: readonly RowRun[];
  compareWith: string | null;
  onCompare: (id: string | null) => void;
}

/** The other run of the same rows to compare the open one with, or none. */
function CompareWithPicker({ run, family, compareWith, onCompare }: CompareWithPickerProps) {
  const group = run.variantOf ?? run.id;
  return (
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
  );
}
