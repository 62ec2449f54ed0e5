// A small set of mutually exclusive choices drawn as segments: native radio inputs, so arrow keys and labels just work.
import { useId } from 'react';

export interface SegmentedControlProps<T extends string> {
  /** Accessible name of the group. */
  label: string;
  value: T;
  options: readonly { value: T; label: string; title?: string }[];
  onChange: (value: T) => void;
  testId?: string;
}

/** Radio buttons styled as a segmented control. */
export function SegmentedControl<T extends string>({
  label,
  value,
  options,
  onChange,
  testId,
}: SegmentedControlProps<T>) {
  const name = useId();
  return (
    <div className="segmented" role="radiogroup" aria-label={label} data-testid={testId}>
      {options.map((o) => (
        <label key={o.value} className="segmented__option" title={o.title}>
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={value === o.value}
            onChange={() => onChange(o.value)}
          />
          <span>{o.label}</span>
        </label>
      ))}
    </div>
  );
}
