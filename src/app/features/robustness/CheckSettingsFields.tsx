// How hard the robustness check tries: option orders, identical requests, the threshold and the near-duplicate states.
import { MAX_ORDERS } from '../../../core/robustness/orders';
import { MAX_REPEATS } from '../../../core/robustness/plan';
import { VARIANT_KINDS, VARIANT_LABELS } from '../../../core/robustness/variants';
import { CommitInput } from '../../components/CommitInput';
import type { CheckSettings } from './robustnessStore';
import { wholeIn } from './wholeIn';

export interface CheckSettingsFieldsProps {
  settings: CheckSettings;
  onSettings: (patch: Partial<CheckSettings>) => void;
  /** The option orders used when the settings name none. */
  autoOrders: number;
  running: boolean;
}

export function CheckSettingsFields({ settings, onSettings, autoOrders, running }: CheckSettingsFieldsProps) {
  return (
    <fieldset className="robustness-dialog__settings" disabled={running}>
      <legend>How hard</legend>
      <label>
        Option orders{' '}
        <CommitInput
          inputMode="numeric"
          value={String(settings.orders ?? autoOrders)}
          onCommit={wholeIn(1, MAX_ORDERS, (orders) => onSettings({ orders }))}
          data-testid="robustness.orders"
        />
      </label>
      <label>
        Identical requests{' '}
        <CommitInput
          inputMode="numeric"
          value={String(settings.repeats)}
          onCommit={wholeIn(1, MAX_REPEATS, (repeats) => onSettings({ repeats }))}
          data-testid="robustness.repeats"
        />
      </label>
      <label>
        Threshold (points){' '}
        <CommitInput
          inputMode="numeric"
          value={String(Math.round(settings.threshold * 100))}
          onCommit={wholeIn(1, 50, (points) => onSettings({ threshold: points / 100 }))}
          data-testid="robustness.threshold"
        />
      </label>
      <span className="robustness-dialog__variants" role="group" aria-label="Near-duplicate states">
        {VARIANT_KINDS.map((kind) => (
          <label key={kind}>
            <input
              type="checkbox"
              checked={settings.variants.includes(kind)}
              onChange={(e) =>
                onSettings({
                  variants: e.target.checked
                    ? VARIANT_KINDS.filter((k) => k === kind || settings.variants.includes(k))
                    : settings.variants.filter((k) => k !== kind),
                })
              }
            />
            {VARIANT_LABELS[kind]}
          </label>
        ))}
      </span>
    </fieldset>
  );
}
