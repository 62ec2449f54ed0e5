// The settings of the trust panel's tests, shared by every question: the alt-test's margin, the certificate's alpha
// and delta, and what stands for the judge in the prevalence estimates.
import type { PpiPredictor } from '../../../core/trust';
import { CommitInput } from '../../components/CommitInput';
import { useAlignment } from './alignmentStore';

/** A share between 0 and 1 typed by the user, or the sentence why not. */
function shareOf(text: string): number | string {
  const n = Number(text.trim());
  return Number.isFinite(n) && n > 0 && n < 1 ? n : 'Give a number between 0 and 1, such as 0.1.';
}

/** One share of the settings, committed when it is between 0 and 1. */
function ShareSetting({
  settingKey,
  label,
  hint,
}: {
  settingKey: 'epsilon' | 'alpha' | 'delta';
  label: string;
  hint: string;
}) {
  const value = useAlignment((s) => s.options.trust[settingKey]);
  const setTrust = useAlignment((s) => s.setTrust);
  return (
    <label className="align-trust__setting">
      {label}{' '}
      <CommitInput
        value={String(value)}
        inputMode="decimal"
        size={5}
        aria-description={hint}
        onCommit={(text) => {
          const v = shareOf(text);
          if (typeof v === 'string') return v;
          setTrust({ [settingKey]: v });
          return null;
        }}
        data-testid={`align.trust.${settingKey}`}
      />
    </label>
  );
}

export function TrustSettings() {
  const ppiPredictor = useAlignment((s) => s.options.trust.ppiPredictor);
  const setTrust = useAlignment((s) => s.setTrust);
  return (
    <div
      className="align-trust__settings"
      role="group"
      aria-label="Settings of these tests, for every question"
    >
      <ShareSetting
        settingKey="epsilon"
        label="Alt-test margin ε"
        hint="How much worse than an annotator the judge may align and still win"
      />
      <ShareSetting
        settingKey="alpha"
        label="Disagreement allowed α"
        hint="The threshold certifies agreement of at least 1 - alpha"
      />
      <ShareSetting
        settingKey="delta"
        label="Risk δ"
        hint="The certificate holds with probability at least 1 - delta"
      />
      <label className="align-trust__setting">
        Prevalence from{' '}
        <select
          value={ppiPredictor ?? 'probability'}
          aria-description="What stands for the judge in the prediction-powered estimates: a calibrated probability gives a narrower interval with the same guarantee"
          onChange={(e) => setTrust({ ppiPredictor: e.target.value as PpiPredictor })}
          data-testid="align.trust.ppiPredictor"
        >
          <option value="probability">the judge’s probabilities</option>
          <option value="label">the judge’s hard labels</option>
        </select>
      </label>
    </div>
  );
}
