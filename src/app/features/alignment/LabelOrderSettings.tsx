// The order a question's rows are labelled in, chosen beside the labelling card: the file's, random, or active (the
// rows the judge is unsure of first, toward a target and a label budget), with the figures each order is valid for.
import { useId } from 'react';
import type { Question } from '../../../contract';
import { newActiveOrder } from '../../../core/alignment/labelOrder';
import { ActiveTargetSelect } from '../../components/ActiveTargetSelect';
import type { LabelOrder } from '../../../core/alignment/labelOrder';
import { LabelBudgetInput } from '../../components/LabelBudgetInput';

export interface LabelOrderSettingsProps {
  definition: Question;
  order: LabelOrder;
  /** Rows the judge answered: the most an active budget can be. */
  rowCount: number;
  /** The run's seed: the same run gives the same random and active orders. */
  seed: number;
  onOrder: (order: LabelOrder) => void;
}

/** What an order's labels are valid for, in a sentence. */
export function orderValidity(order: LabelOrder): string {
  if (order.kind === 'random')
    return 'Random order: every figure (kappa, alpha, the alt-test, the estimates) holds for the rows labelled so far.';
  if (order.kind === 'active')
    return 'Active order: valid for the estimate below, each label weighted by the inverse of its probability. Kappa, alpha and the alt-test need a random sample: label in random order for them.';
  return 'File order: the figures hold for the labelled rows only if they are like the rest; random order makes every figure valid for a sample.';
}

export function LabelOrderSettings({ definition, order, rowCount, seed, onOrder }: LabelOrderSettingsProps) {
  const hintId = useId();
  const kindOf = (kind: string): LabelOrder =>
    kind === 'random'
      ? { kind: 'random', seed }
      : kind === 'active'
        ? newActiveOrder(definition, rowCount, seed)
        : { kind: 'file' };
  return (
    <div className="align-order" data-testid="align.order">
      <label>
        Order{' '}
        <select
          value={order.kind}
          onChange={(e) => onOrder(kindOf(e.currentTarget.value))}
          aria-describedby={hintId}
          data-testid="align.order.kind"
        >
          <option value="file">File order</option>
          <option value="random">Random</option>
          <option value="active">Active: where the judge is unsure</option>
        </select>
      </label>
      {order.kind === 'active' && (
        <>
          <ActiveTargetSelect
            question={definition}
            target={order.target}
            onTarget={(target) => onOrder({ ...order, target })}
            testId="align.order.target"
          />
          <LabelBudgetInput
            budget={order.budget}
            max={rowCount}
            onBudget={(budget) => onOrder({ ...order, budget })}
            testId="align.order.budget"
          />
        </>
      )}
      <p className="muted" id={hintId} data-testid="align.order.validity">
        {orderValidity(order)}
      </p>
    </div>
  );
}
