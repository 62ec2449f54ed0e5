// A run's control: its phase, why it halted, the signal that stops new sends, the streak of failures on the service's
// side, and the wake-up the dispatch loop waits on. Pause, cancel, a budget stop and a failing streak all end here.
import type { Halt } from './records';
import type { RunPhase } from './runTypes';

/** Rows in a row that fail for the service's sake (not the row's) before the run stops by itself. */
export const FAILING_STREAK = 5;

/** Phase, halt and stop signal of one runner, across its calls of run(). */
export class RunControl {
  phase: RunPhase = 'idle';
  halted: Halt | null = null;
  private stop: AbortController | null = null;
  private streak = 0;
  /** What the dispatch loop and run() wait on. */
  readonly wake = new Wakeup();

  /** Starts a call of run(): a fresh stop signal, no halt, no streak. Throws when a call is still going. */
  begin(): AbortSignal {
    if (this.phase === 'running' || this.phase === 'pausing' || this.phase === 'cancelling') {
      throw new Error('This run is already going.');
    }
    this.phase = 'running';
    this.halted = null;
    this.streak = 0;
    this.stop = new AbortController();
    return this.stop.signal;
  }

  /** Ends a call of run(): finished when nothing is queued and nothing halted it. */
  end(queueEmpty: boolean): void {
    this.stop = null;
    this.phase = !this.halted && queueEmpty ? 'finished' : 'halted';
  }

  /** Whether this call of run() has been told to stop sending. */
  get stopping(): boolean {
    return this.stop?.signal.aborted ?? false;
  }

  /** The user's pause or cancel: a cancel's reason wins over any halt before it. */
  requestStop(phase: RunPhase, halt: Halt): void {
    if (this.phase !== 'running' && this.phase !== 'pausing') return;
    this.phase = phase;
    if (!this.halted || halt.reason === 'cancelled') this.halted = halt;
    this.abort(halt);
  }

  /** The run stops by itself (budget, storage, failing service); the first reason is kept, after a pause. */
  halt(halt: Halt): void {
    if (this.halted && this.halted.reason !== 'paused') return;
    this.halted = halt;
    if (this.phase === 'running') this.phase = 'pausing';
    this.abort(halt);
  }

  resetStreak(): void {
    this.streak = 0;
  }

  /** One more row failed on the service's side; FAILING_STREAK of them in a row halt the run. */
  bumpStreak(message: string): void {
    this.streak++;
    if (this.streak >= FAILING_STREAK && !this.halted) {
      this.halt({
        reason: 'failing',
        message: `${FAILING_STREAK} rows in a row failed on the service's side (last: ${message}); the run stopped. Resume when the service is back.`,
      });
    }
  }

  private abort(halt: Halt): void {
    this.stop?.abort(new DOMException(halt.message, 'AbortError'));
    this.wake.poke();
  }
}

/** A wake-up many may wait on: every waiter resumes at the next poke. */
export class Wakeup {
  private wake: (() => void) | null = null;

  /** Resolves at the next poke: a row settled, a row came back, or the run was told to stop. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      const previous = this.wake;
      this.wake = () => {
        previous?.();
        resolve();
      };
    });
  }

  poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
