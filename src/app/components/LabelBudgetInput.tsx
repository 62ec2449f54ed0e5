// An active order's label budget: applied on Enter or leaving the field, refused in a sentence outside 2..max (a
// budget clamped at each keystroke would turn "150" into "250" as it is typed).
import { CommitInput } from './CommitInput';

export interface LabelBudgetInputProps {
  budget: number;
  max: number;
  onBudget: (budget: number) => void;
  testId: string;
}

export function LabelBudgetInput({ budget, max, onBudget, testId }: LabelBudgetInputProps) {
  return (
    <label>
      Label budget{' '}
      <CommitInput
        value={String(budget)}
        inputMode="numeric"
        size={6}
        onCommit={(text) => {
          const next = Number(text);
          if (!Number.isInteger(next) || next < 2 || next > max) return `A whole number from 2 to ${max}.`;
          onBudget(next);
          return null;
        }}
        data-testid={testId}
      />
    </label>
  );
}
