// A run's progress as the page and the command line show it: counts by status, tokens and cost, rate, time left.
import type { Pacer, RateMeter } from './pacer';
import type { RunBook } from './runBook';
import type { RunBudget } from './runBudget';
import type { RunControl } from './runControl';
import type { RunProgress } from './runTypes';

/** The parts of a runner its progress is read from. */
export interface ProgressParts {
  book: RunBook;
  control: RunControl;
  meter: RateMeter;
  pacer: Pacer;
  budget: RunBudget;
}

/** The progress at `now`; `serviceHoldUntil` is when the service's latest 429 said to try again. */
export function runProgress(parts: ProgressParts, serviceHoldUntil: number, now: number): RunProgress {
  const { book, control, budget } = parts;
  const { counts, billedTokens, possiblyBilledTokens } = book.tally;
  const pending = book.pending;
  const inFlight = book.inFlight.size;
  const rate = parts.meter.perMinute(now);
  const pace = rate > 0 ? rate : parts.pacer.settings.requestsPerMinute;
  const running = control.phase === 'running';
  return {
    phase: control.phase,
    halt: control.halted,
    total: book.rows.size,
    done: counts.done,
    reused: counts.reused,
    reusedEarlier: book.tally.reusedEarlier,
    partlyReused: book.tally.partlyReused,
    invalid: counts.invalid,
    failed: counts.failed,
    unknown: counts.unknown,
    pending,
    inFlight,
    billedTokens,
    possiblyBilledTokens,
    cost: budget.cost(billedTokens),
    possiblyBilledCost: budget.cost(possiblyBilledTokens),
    ratePerMinute: rate,
    // A stopped run has no time left to show: nothing is being sent.
    etaMs: !running || pending + inFlight === 0 ? null : ((pending + inFlight) * 60_000) / pace,
    serviceWaitMs: running && serviceHoldUntil > now ? serviceHoldUntil - now : null,
  };
}
