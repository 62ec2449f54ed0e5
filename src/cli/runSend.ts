// The sending step of a headless run: the rows file read once more in order, this run's rows gathered into windows of
// WINDOW_ROWS, each window through its own RowRunner (the app's pacer, dedup and retrying client), its outcomes folded
// into the run's counts; the progress shown while it goes; Ctrl+C (or SIGTERM) pauses, a second one cancels.
import { evaluate } from '../client';
import type { Questions } from '../contract';
import { estimateCost } from '../contract';
import { questionTokens, stateTokens } from '../contract/tokens';
import type { RowMapping } from '../core/rows/mapping';
import type { Clock, Pacing } from '../core/rows/pacer';
import { Pacer, RateMeter } from '../core/rows/pacer';
import type { SourceRow } from '../core/rows/parse';
import type { RowOutcome } from '../core/rows/records';
import { planRun } from '../core/rows/runPlan';
import type { RunProgress } from '../core/rows/runTypes';
import { RowRunner } from '../core/rows/runner';
import { collectGarbage } from './memory';
import type { ProgressView } from './progress';
import type { ResultsStore } from './resultsStore';
import type { Base, Planned, Start } from './runPlan';
import { rowBatches } from './rowsStream';
import type { RowsSource } from './rowsStream';
import type { CliTarget } from './targets';

/** Rows given to one runner at a time: the most rows (and their states) a run holds in memory. */
export const WINDOW_ROWS = 5_000;
/** Rows sent between full garbage collections (./memory.ts): a collection of a small heap takes tens of milliseconds. */
const COLLECT_EVERY_ROWS = 2_000;

/** What the sending step needs: the plan, where it starts, the target and the store the answers go to. */
export interface SendInput {
  source: RowsSource;
  mapping: RowMapping;
  questions: Questions;
  model: string;
  target: CliTarget;
  pacing: Pacing;
  budget: number | null;
  timeoutMs?: number;
  retryUnknown: boolean;
  planned: Pick<Planned, 'rows' | 'tokens'>;
  start: Start;
  store: ResultsStore;
}

export interface SendIo {
  view: ProgressView;
  onInterrupt(handler: (count: number) => void): () => void;
  clock: Clock;
}

/** How the sending ended: the runner's last progress (its halt), and whether the user stopped it. */
export interface Sent {
  /** The progress of the whole run when sending stopped, before it is settled (settleProgress). */
  progress: RunProgress;
  last: RunProgress | null;
  interrupted: boolean;
}

/** The run's counts so far, what the window running now adds, and the pace: the progress of the whole run. */
export function progressOf(
  base: Base,
  window: RunProgress | undefined,
  last: RunProgress | null,
  run: { total: number; price: number | null; ratePerMinute: number; configuredPerMinute: number },
): RunProgress {
  const settled = (k: keyof Base['counts']): number => base.counts[k] + (window?.[k] ?? 0);
  const billedTokens = base.billedTokens + (window?.billedTokens ?? 0);
  const possiblyBilledTokens = base.possiblyBilledTokens + (window?.possiblyBilledTokens ?? 0);
  const inFlight = window?.inFlight ?? 0;
  const done = settled('done');
  const reused = settled('reused');
  const invalid = settled('invalid');
  const failed = settled('failed');
  const unknown = settled('unknown');
  const pending = Math.max(0, run.total - done - reused - invalid - failed - unknown - inFlight);
  const phase = window?.phase ?? (last ? last.phase : 'idle');
  const rate = run.ratePerMinute;
  const pace = rate > 0 ? rate : run.configuredPerMinute;
  return {
    phase,
    halt: window?.halt ?? null,
    total: run.total,
    done,
    reused,
    reusedEarlier: (window?.reusedEarlier ?? 0) + base.counts.reused,
    partlyReused: window?.partlyReused ?? 0,
    invalid,
    failed,
    unknown,
    pending,
    inFlight,
    billedTokens,
    possiblyBilledTokens,
    cost: estimateCost(billedTokens, run.price ?? 0),
    possiblyBilledCost: estimateCost(possiblyBilledTokens, run.price ?? 0),
    ratePerMinute: rate,
    etaMs: phase !== 'running' || pending + inFlight === 0 ? null : ((pending + inFlight) * 60_000) / pace,
    serviceWaitMs: window?.serviceWaitMs ?? null,
  };
}

/** The state of a run while it sends: the counts so far and the window's runner, shared by the steps below. */
class Sending {
  runner: RowRunner | null = null;
  interrupted = false;
  last: RunProgress | null = null;
  sentSinceCollected = 0;
  readonly base: Base;
  readonly pacer: Pacer;
  readonly meter = new RateMeter();

  constructor(
    readonly input: SendInput,
    readonly io: SendIo,
  ) {
    this.base = input.start.base;
    this.pacer = new Pacer(input.pacing, io.clock);
  }

  progress(): RunProgress {
    return progressOf(this.base, this.runner?.progress(), this.last, {
      total: this.input.planned.rows,
      price: this.input.target.inputPrice,
      ratePerMinute: this.meter.perMinute(this.io.clock.now()),
      configuredPerMinute: this.pacer.settings.requestsPerMinute,
    });
  }

  /** A row sent: counted for the rate, and a full collection every COLLECT_EVERY_ROWS rows. */
  sent(): void {
    this.meter.record(this.io.clock.now());
    if (++this.sentSinceCollected >= COLLECT_EVERY_ROWS) {
      this.sentSinceCollected = 0;
      collectGarbage();
    }
  }
}

/** The runner of one window: its rows planned again (tokens from the plan pass), rows cut off in flight kept unknown. */
function windowRunner(s: Sending, rows: SourceRow[]): RowRunner {
  const { input } = s;
  const plan = planRun(
    rows,
    input.mapping,
    input.questions,
    { stateTokens, questionTokens },
    (row) => input.planned.tokens[row.number]!,
  );
  const ids = new Map(plan.rows.map((p) => [p.number, p.id]));
  input.store.setSources(
    new Map(rows.map((r) => [r.number, { ...r, id: ids.get(r.number) ?? String(r.number) }])),
  );
  const outcomes = new Map<number, RowOutcome>();
  for (const row of plan.rows) {
    // Cut off in flight last time: the runner records it as unknown ("may have been billed"), never re-sent silently.
    if (input.start.inFlight[row.number] === 1 && !input.retryUnknown)
      outcomes.set(row.number, {
        status: 'sending',
        at: Date.now(),
        attempts: 1,
        possiblyBilledAttempts: 0,
        requeues: 0,
      });
  }
  const price = input.target.inputPrice;
  const spent = estimateCost(s.base.billedTokens + s.base.possiblyBilledTokens, price ?? 0);
  return new RowRunner(
    {
      targetId: input.target.id,
      target: input.target.client,
      model: input.model,
      questions: input.questions,
      rows: plan.rows,
      outcomes,
      pacing: input.pacing,
      maxCost: input.budget === null ? null : Math.max(0, input.budget - spent),
      inputPrice: price,
      ...(input.timeoutMs !== undefined && { timeoutMs: input.timeoutMs }),
    },
    { evaluate, clock: s.io.clock, store: input.store, pacer: s.pacer },
  );
}

/** Runs one window of rows through its own runner; folds its outcome into the base; false when the run stops. */
async function runWindow(s: Sending, rows: SourceRow[]): Promise<boolean> {
  const current = windowRunner(s, rows);
  const unsubscribe = current.subscribe((update) => {
    if (update.outcome.status === 'sending') s.sent();
    s.io.view.update(s.progress());
  });
  s.runner = current;
  let progress: RunProgress;
  try {
    progress = await current.run();
  } finally {
    unsubscribe();
  }
  for (const k of Object.keys(s.base.counts) as (keyof Base['counts'])[]) s.base.counts[k] += progress[k];
  s.base.billedTokens += progress.billedTokens;
  s.base.possiblyBilledTokens += progress.possiblyBilledTokens;
  s.runner = null;
  s.last = progress;
  collectGarbage();
  return !progress.halt && progress.pending === 0 && !s.interrupted;
}

/** The rows file in order, this run's rows gathered into windows, each run until one stops the run. */
async function runWindows(s: Sending): Promise<void> {
  const { sendable } = s.input.start;
  const batches = rowBatches(s.input.source);
  let window: SourceRow[] = [];
  let going = true;
  for (;;) {
    const next = await batches.next();
    if (next.done || s.interrupted) break;
    for (const row of next.value.rows) if (sendable[row.number] === 1) window.push(row);
    if (window.length >= WINDOW_ROWS) {
      going = await runWindow(s, window);
      window = [];
      if (!going) break;
    }
  }
  if (going && window.length > 0 && !s.interrupted) await runWindow(s, window);
  await batches.return(undefined as never);
}

/** Sends this run's rows, showing progress; the first interrupt pauses (rows in flight finish), a second cancels. */
export async function sendRows(input: SendInput, io: SendIo): Promise<Sent> {
  const s = new Sending(input, io);
  const { view } = io;
  const ticker = setInterval(() => view.update(s.progress()), 1000);
  const stopListening = io.onInterrupt((count) => {
    s.interrupted = true;
    if (count === 1) {
      view.say(
        'Stopping: rows in flight finish and are recorded. Ctrl+C again cancels them (they may be billed).',
      );
      s.runner?.pause();
    } else s.runner?.cancel();
  });
  try {
    view.update(s.progress());
    if (input.start.toSend > 0) await runWindows(s);
    return { progress: s.progress(), last: s.last, interrupted: s.interrupted };
  } finally {
    clearInterval(ticker);
    stopListening();
  }
}
