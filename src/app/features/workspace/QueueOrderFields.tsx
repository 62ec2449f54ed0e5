// The order a queue hands its rows out in: random (every figure stays valid) or active, the rows the judge is least
// sure of on one question first, toward an estimate of a target from a label budget.
import type { z } from 'zod';
import type { Questions } from '../../../contract';
import { ACTIVE_FLOOR } from '../../../contract/activeTarget';
import type { OrderSchema } from '../../../contract/workspace';
import { activeTargetsOf } from '../../../core/alignment/labelOrder';
import { ActiveTargetSelect } from '../../components/ActiveTargetSelect';
import { LabelBudgetInput } from '../../components/LabelBudgetInput';

export type QueueOrderInput = z.input<typeof OrderSchema>;

export interface QueueOrderFieldsProps {
  questions: Questions;
  rows: number;
  order: QueueOrderInput;
  setOrder: (order: QueueOrderInput) => void;
}

/** A new active order on `question`: its first target, at most 300 labels. */
function activeOn(questions: Questions, question: string, rows: number): QueueOrderInput {
  return {
    kind: 'active',
    question,
    target: activeTargetsOf(questions[question]!)[0]!.target,
    budget: Math.max(2, Math.min(300, rows)),
    floor: ACTIVE_FLOOR,
    seed: 1,
  };
}

export function QueueOrderFields({ questions, rows, order, setOrder }: QueueOrderFieldsProps) {
  const names = Object.keys(questions);
  return (
    <fieldset className="workspace-order" data-testid="workspace.publish.order">
      <legend>Order rows are handed out in</legend>
      <label>
        Order{' '}
        <select
          value={order.kind}
          onChange={(e) =>
            setOrder(
              e.currentTarget.value === 'active'
                ? activeOn(questions, names[0]!, rows)
                : { kind: 'random', seed: 1 },
            )
          }
          data-testid="workspace.publish.order.kind"
        >
          <option value="random">Random: every figure stays valid</option>
          <option value="active">Active: where the judge is least sure</option>
        </select>
      </label>
      {order.kind === 'active' && (
        <ActiveFields questions={questions} rows={rows} order={order} setOrder={setOrder} />
      )}
    </fieldset>
  );
}

function ActiveFields({
  questions,
  rows,
  order,
  setOrder,
}: QueueOrderFieldsProps & { order: Extract<QueueOrderInput, { kind: 'active' }> }) {
  return (
    <>
      <label>
        Question{' '}
        <select
          value={order.question}
          onChange={(e) => setOrder(activeOn(questions, e.currentTarget.value, rows))}
          data-testid="workspace.publish.order.question"
        >
          {Object.keys(questions).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <ActiveTargetSelect
        question={questions[order.question]!}
        target={order.target}
        onTarget={(target) => setOrder({ ...order, target })}
        testId="workspace.publish.order.target"
      />
      <LabelBudgetInput
        budget={order.budget}
        max={rows}
        onBudget={(budget) => setOrder({ ...order, budget })}
        testId="workspace.publish.order.budget"
      />
      <p className="muted">
        Valid for the estimate of the chosen target, each label weighted by the inverse of its probability.
        The ceiling, the alt-test and the threshold need a random sample: publish a queue in random order for
        them.
      </p>
    </>
  );
}
