// A noul question's threshold on P(yes): the slider, what moving it trades, and the best balanced accuracy found.
import type { QuestionReport } from '../../../core/alignment/compute';

export interface ThresholdSliderProps {
  name: string;
  best: NonNullable<QuestionReport['threshold']>['best'];
  threshold: number;
  onThreshold: (value: number) => void;
}

export function ThresholdSlider({ name, best, threshold, onThreshold }: ThresholdSliderProps) {
  const describedBy = `align-threshold-${name}-what`;
  return (
    <div className="align-threshold">
      <label htmlFor={`align-threshold-${name}`}>
        Threshold on P(yes): <strong data-testid={`align.threshold.${name}`}>{threshold.toFixed(2)}</strong>
      </label>
      <input
        id={`align-threshold-${name}`}
        type="range"
        min={0}
        max={1}
        step={0.01}
        value={threshold}
        aria-label={`Threshold on P(yes) for ${name}`}
        aria-valuetext={threshold.toFixed(2)}
        aria-describedby={describedBy}
        onChange={(e) => onThreshold(Number(e.currentTarget.value))}
        data-testid={`align.threshold.${name}.slider`}
      />
      <p id={describedBy} className="muted">
        The judge says yes when its P(yes) is at or above the threshold: moving it trades finding the yes rows
        (true-positive rate) against keeping the no rows out (true-negative rate). The confusion matrix and
        rates follow at once; the intervals a moment later.
      </p>
      {best ? (
        <p>
          Best balanced accuracy {best.balancedAccuracy.toFixed(2)} at {best.threshold.toFixed(2)} (TPR{' '}
          {best.tpr.toFixed(2)}, TNR {best.tnr.toFixed(2)}).{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => onThreshold(Math.round(best.threshold * 100) / 100)}
          >
            Use it
          </button>
        </p>
      ) : (
        <p className="muted">The best threshold needs labelled rows of both classes.</p>
      )}
    </div>
  );
}
