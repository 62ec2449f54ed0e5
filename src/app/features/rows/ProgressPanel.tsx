// The run as it goes: a bar of done, failed and remaining rows, the rate, the ETA, tokens and cost so far, and the
// controls (start or resume, pause, cancel, retry on request). Why the run stopped is said in one sentence.
import type { RunProgress } from '../../../core/rows/runTypes';
import { formatCost } from '../../../contract';
import { formatCount, formatDuration, reuseText } from './format';
import { LOCAL_COST_WORDS } from '../../../core/words';

export interface ProgressPanelProps {
  progress: RunProgress;
  running: boolean;
  /** Another tab drives this run: shown live here, with Pause and Cancel reaching that tab, and no Resume. */
  watching?: boolean;
  configuredRate: number;
  /** The run goes to the local reference: its costs are the hosted list price, and nothing is billed. */
  local?: boolean;
  /** The run's target states no price: its cost is unknown, never $0.00 (the cost meter says "price unknown" too). */
  priceUnknown?: boolean;
  onStart: () => void;
  onPause: () => void;
  onCancel: () => void;
  onRetry: (which: 'failed' | 'unknown') => void;
}

const SEGMENTS = [
  { key: 'done', label: 'answered' },
  { key: 'reused', label: 'reused (not billed)' },
  { key: 'invalid', label: 'refused (422)' },
  { key: 'failed', label: 'failed' },
  { key: 'unknown', label: 'unknown, may have been billed' },
  { key: 'inFlight', label: 'in flight' },
  { key: 'pending', label: 'remaining' },
] as const;

/** Every row settled and nothing left to send or in flight. */
const isFinished = (p: RunProgress, running: boolean): boolean =>
  !running && p.pending === 0 && p.inFlight === 0 && p.total > 0;

const phaseText = (p: RunProgress, running: boolean, watching: boolean): string => {
  if (watching)
    return p.phase === 'pausing'
      ? 'Pausing in another tab: waiting for the rows in flight…'
      : p.phase === 'cancelling'
        ? 'Cancelling in another tab…'
        : 'Running in another tab';
  if (running)
    return p.phase === 'pausing'
      ? 'Pausing: waiting for the rows in flight…'
      : p.phase === 'cancelling'
        ? 'Cancelling…'
        : 'Running';
  if (p.phase === 'finished') return 'Finished';
  if (p.halt) return p.halt.message;
  // A run restored after a reload starts idle: with nothing left to send it is still finished.
  if (isFinished(p, running)) return 'Finished';
  const settled = p.done + p.reused + p.invalid + p.failed + p.unknown;
  if (settled === 0) return 'Ready to start';
  return p.pending > 0
    ? `Stopped at ${formatCount(settled)} of ${formatCount(p.total)}: Resume to send the other ${formatCount(p.pending)}`
    : 'Stopped';
};

/** The bar of settled, in-flight and remaining rows, and the count of each kind under it. */
function ProgressBar({ p, settled }: { p: RunProgress; settled: number }) {
  const total = Math.max(1, p.total);
  return (
    <>
      <div
        className="rows-bar"
        role="img"
        aria-label={`${formatCount(settled)} of ${formatCount(p.total)} rows settled`}
      >
        {SEGMENTS.map((s) =>
          p[s.key] > 0 ? (
            <span
              key={s.key}
              className={`rows-bar__seg rows-bar__seg--${s.key}`}
              style={{ width: `${(p[s.key] / total) * 100}%` }}
              title={`${formatCount(p[s.key])} ${s.label}`}
            />
          ) : null,
        )}
      </div>
      <ul className="rows-counts" data-testid="rows.counts">
        {SEGMENTS.map((s) => (
          <li
            key={s.key}
            className={`rows-count rows-count--${s.key}`}
            data-testid={`rows.count.${s.key}`}
            data-value={p[s.key]}
          >
            <strong>{formatCount(p[s.key])}</strong> {s.label}
          </li>
        ))}
      </ul>
    </>
  );
}

type FiguresProps = Pick<ProgressPanelProps, 'running' | 'configuredRate'> & {
  p: RunProgress;
  live: boolean;
  local: boolean;
  priceUnknown: boolean;
};

/** The rate against the one set, the time left, the tokens and the cost so far (and what may have been billed). */
function ProgressFigures({ p, running, live, configuredRate, local, priceUnknown }: FiguresProps) {
  return (
    <dl className="rows-figures">
      <div>
        <dt>Rate</dt>
        <dd data-testid="rows.rate">
          {live ? `${formatCount(p.ratePerMinute)} / min` : '—'}{' '}
          <span className="muted">(set to {formatCount(configuredRate)} / min)</span>
          {running && p.serviceWaitMs !== null && (
            <span className="muted" data-testid="rows.serviceWait">
              {' '}
              · waiting {formatDuration(p.serviceWaitMs)} as the service asked
            </span>
          )}
        </dd>
      </div>
      <div>
        <dt>Time left</dt>
        <dd data-testid="rows.eta">{p.etaMs === null ? '—' : formatDuration(p.etaMs)}</dd>
      </div>
      <div>
        <dt>Input tokens so far</dt>
        <dd data-testid="rows.tokens">{formatCount(p.billedTokens)}</dd>
      </div>
      <div>
        <dt>Cost so far</dt>
        <dd data-testid="rows.cost">
          {priceUnknown ? 'unknown (the target states no price)' : formatCost(p.cost)}
          {local && <span className="muted"> ({LOCAL_COST_WORDS})</span>}
          {p.possiblyBilledTokens > 0 && (
            <span className="muted">
              {' '}
              + {priceUnknown ? 'an unknown cost' : `up to ${formatCost(p.possiblyBilledCost)}`} for{' '}
              {formatCount(p.possiblyBilledTokens)} tokens of attempts that may have been billed
            </span>
          )}
        </dd>
      </div>
    </dl>
  );
}

type ControlsProps = Pick<ProgressPanelProps, 'onStart' | 'onPause' | 'onCancel' | 'onRetry'> & {
  p: RunProgress;
  settled: number;
  live: boolean;
  watching: boolean;
};

/** Start or Resume, Pause, Cancel while the run is not finished; the retries of failed and unknown rows. */
function RunButtons({ p, settled, live, watching, onStart, onPause, onCancel, onRetry }: ControlsProps) {
  const canStart = !live && p.pending > 0;
  return (
    <div className="rows-controls">
      {/* A finished run has nothing to start, pause or cancel: only its retries remain. */}
      {!isFinished(p, live) && (
        <>
          <button
            type="button"
            className="primary"
            disabled={!canStart}
            onClick={onStart}
            data-testid="rows.resume"
            title={watching ? 'Another tab is sending this run; it runs in one tab at a time' : undefined}
          >
            {settled === 0 && p.inFlight === 0 ? 'Start' : 'Resume'}
          </button>
          <button
            type="button"
            disabled={!live || p.phase !== 'running'}
            onClick={onPause}
            data-testid="rows.pause"
            title="Stop sending; rows in flight finish"
          >
            Pause
          </button>
          <button
            type="button"
            className="danger"
            disabled={!live}
            onClick={onCancel}
            data-testid="rows.cancel"
            title="Stop now; rows in flight may have been billed"
          >
            Cancel
          </button>
        </>
      )}
      {p.failed > 0 && (
        <button
          type="button"
          disabled={watching}
          onClick={() => onRetry('failed')}
          data-testid="rows.retry.failed"
        >
          Retry {formatCount(p.failed)} failed
        </button>
      )}
      {p.unknown > 0 && (
        <button
          type="button"
          disabled={live}
          onClick={() => onRetry('unknown')}
          data-testid="rows.retry.unknown"
          title="These rows may have been evaluated already: sending them again may bill them twice"
        >
          Retry {formatCount(p.unknown)} unknown (may bill twice)
        </button>
      )}
    </div>
  );
}

/** Progress and controls of the open run. */
export function ProgressPanel({
  progress: p,
  running,
  watching = false,
  configuredRate,
  local = false,
  priceUnknown = false,
  onStart,
  onPause,
  onCancel,
  onRetry,
}: ProgressPanelProps) {
  const settled = p.done + p.reused + p.invalid + p.failed + p.unknown;
  const haltClass = !running && p.halt && p.halt.reason !== 'paused' ? ' rows-status--halt' : '';
  const live = running || watching;
  return (
    <section className="rows-progress panel" aria-label="Progress" data-testid="rows.progress">
      <ProgressBar p={p} settled={settled} />
      {p.reused + p.partlyReused > 0 && (
        <p className="muted" data-testid="rows.reuse">
          {reuseText(p)}
        </p>
      )}
      <p
        className={`rows-status${haltClass}`}
        role="status"
        data-testid="rows.status"
        data-phase={running ? 'running' : p.phase}
        data-owner={watching ? 'elsewhere' : running ? 'here' : 'none'}
      >
        {phaseText(p, running, watching)}
      </p>
      <ProgressFigures {...{ p, running, live, configuredRate, local, priceUnknown }} />
      <RunButtons {...{ p, settled, live, watching, onStart, onPause, onCancel, onRetry }} />
    </section>
  );
}
