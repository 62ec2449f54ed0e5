// Requests per minute, concurrency and the budget cap: committed on Enter or blur, checked before they apply.
import { useId } from 'react';
import { RATE_LIMIT_INPUT_TOKENS_PER_SECOND, RATE_LIMIT_REQUESTS_PER_MINUTE } from '../../../contract';
import type { Pacing } from '../../../core/rows/pacer';
import { CommitInput } from '../../components/CommitInput';

export interface PacingFieldsProps {
  pacing: Pacing;
  maxCost: number | null;
  onPacing: (pacing: Pacing) => void;
  onMaxCost: (maxCost: number | null) => void;
}

const positive = (text: string): number | null => {
  const n = Number(text.trim());
  return Number.isFinite(n) && n > 0 ? n : null;
};

/** The run's pacing and budget settings. */
export function PacingFields({ pacing, maxCost, onPacing, onMaxCost }: PacingFieldsProps) {
  const rpm = useId();
  const conc = useId();
  const cap = useId();
  return (
    <div className="rows-pacing" data-testid="rows.pacing">
      <label htmlFor={rpm}>Requests per minute</label>
      <CommitInput
        id={rpm}
        inputMode="numeric"
        value={String(pacing.requestsPerMinute)}
        data-testid="rows.pacing.rpm"
        onCommit={(text) => {
          const n = positive(text);
          if (n === null || n > 1_000_000) return 'A number of requests per minute above 0.';
          onPacing({ ...pacing, requestsPerMinute: n });
          return null;
        }}
      />
      <label htmlFor={conc}>Requests at once</label>
      <CommitInput
        id={conc}
        inputMode="numeric"
        value={String(pacing.concurrency)}
        data-testid="rows.pacing.concurrency"
        onCommit={(text) => {
          const n = positive(text);
          if (n === null || !Number.isInteger(n) || n > 64) return 'A whole number from 1 to 64.';
          onPacing({ ...pacing, concurrency: n });
          return null;
        }}
      />
      <label htmlFor={cap}>Budget cap (optional)</label>
      <CommitInput
        id={cap}
        inputMode="decimal"
        placeholder="no cap"
        value={maxCost === null ? '' : String(maxCost)}
        data-testid="rows.budget"
        onCommit={(text) => {
          if (text.trim() === '') {
            onMaxCost(null);
            return null;
          }
          const n = positive(text);
          if (n === null) return 'An amount above 0, or empty for no cap.';
          onMaxCost(n);
          return null;
        }}
      />
      <p className="muted rows-hint">
        The published limits are {RATE_LIMIT_REQUESTS_PER_MINUTE} requests per minute and{' '}
        {RATE_LIMIT_INPUT_TOKENS_PER_SECOND.toLocaleString()} input tokens per second; the run also keeps
        under {pacing.tokensPerSecond.toLocaleString()} tokens per second. A 429 holds every send for as long
        as the service asks.
      </p>
    </div>
  );
}
