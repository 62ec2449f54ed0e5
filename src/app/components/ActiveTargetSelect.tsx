// The target an active order estimates, chosen from those its question offers (a label's share or the mean level, and
// agreement): one select for the labelling view's order and a workspace queue's.
import type { Question } from '../../contract';
import type { ActiveTarget } from '../../contract/activeTarget';
import { activeTargetsOf } from '../../core/alignment/labelOrder';

export interface ActiveTargetSelectProps {
  question: Question;
  target: ActiveTarget;
  onTarget: (target: ActiveTarget) => void;
  testId: string;
}

export function ActiveTargetSelect({ question, target, onTarget, testId }: ActiveTargetSelectProps) {
  const targets = activeTargetsOf(question);
  return (
    <label>
      Estimate{' '}
      <select
        value={targets.findIndex((t) => JSON.stringify(t.target) === JSON.stringify(target))}
        onChange={(e) => onTarget(targets[Number(e.currentTarget.value)]!.target)}
        data-testid={testId}
      >
        {targets.map((t, i) => (
          <option key={t.text} value={i}>
            {t.text}
          </option>
        ))}
      </select>
    </label>
  );
}
