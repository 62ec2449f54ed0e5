// An active order's estimate, under the labelling card and in a workspace queue's figures: the target's value with its
// interval from the labels so far, what random order would give with as many labels (with the judge, PPI++, and
// without, classical), and how many labels the order saved.
import type { Question } from '../../contract';
import { targetText } from '../../core/alignment/labelOrder';
import type { ActiveTarget } from '../../core/alignment/labelOrder';
import { Z95 } from '../../core/alignment/intervals';
import { activeSavingSentence } from '../../core/trust/active';
import type { ActiveMean } from '../../core/trust/active';

export interface ActiveEstimateProps {
  definition: Question;
  target: ActiveTarget;
  estimate: ShownEstimate | null;
}

/** What the panel shows of an estimate (a workspace's figures send this much of it). */
export type ShownEstimate = Pick<ActiveMean, 'active' | 'n' | 'beyondFrontier' | 'randomEquivalent'>;

const fixed = (x: number): string => x.toFixed(3);

export function ActiveEstimate({ definition, target, estimate }: ActiveEstimateProps) {
  const what = targetText(definition, target);
  if (!estimate)
    return (
      <p className="muted" data-testid="align.active.estimate">
        The estimate of the {what} shows from two labels given in this order.
      </p>
    );
  const { active, n, beyondFrontier, randomEquivalent } = estimate;
  return (
    <div className="panel align-active" data-testid="align.active.estimate">
      <p>
        <strong>
          {what[0]!.toUpperCase()}
          {what.slice(1)}: {fixed(active.value)}
        </strong>{' '}
        (95% CI {fixed(active.lo)} to {fixed(active.hi)}) from {n} labels in active order, each weighted by
        the inverse of its probability.
        {beyondFrontier > 0 &&
          ` ${beyondFrontier} label${beyondFrontier === 1 ? '' : 's'} after a skipped row wait for it.`}
      </p>
      <p data-testid="align.active.random">
        Random order with {n} labels: ±{fixed(Z95 * randomEquivalent.seAtN.ppi)} with the judge (PPI++), ±
        {fixed(Z95 * randomEquivalent.seAtN.classical)} without it (classical); this order: ±
        {fixed(Z95 * active.se)}.
      </p>
      <p data-testid="align.active.saving">{activeSavingSentence(estimate)}</p>
    </div>
  );
}
