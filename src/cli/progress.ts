// What a headless run prints while it goes: on a terminal a progress bar (cli-progress) with done, failed, remaining,
// rate, time left, tokens and cost; elsewhere (CI logs) one plain line every few seconds. Owns the run's stderr output.
import { Presets, SingleBar } from 'cli-progress';
import type { RunProgress } from '../core/rows/runTypes';
import { formatCost } from '../contract';

export interface ProgressView {
  update(progress: RunProgress): void;
  /** A sentence for the user, printed above the bar. */
  say(line: string): void;
  stop(): void;
}

const duration = (ms: number | null): string => {
  if (ms === null) return '-';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
};

/** The figures of a progress line, in words. */
export function progressFigures(p: RunProgress): string {
  const settled = p.done + p.reused + p.invalid + p.failed + p.unknown;
  // One word per state, the same as the last line's: refused (422), failed (the service kept failing), unknown.
  const problems = (
    [
      [p.invalid, 'refused'],
      [p.failed, 'failed'],
      [p.unknown, 'unknown'],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, word]) => `${n.toLocaleString('en-US')} ${word}`);
  return [
    `${settled.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')} rows`,
    `${p.done.toLocaleString('en-US')} answered${p.reused > 0 ? ` + ${p.reused.toLocaleString('en-US')} reused` : ''}`,
    ...problems,
    `${(p.pending + p.inFlight).toLocaleString('en-US')} left`,
    `${Math.round(p.ratePerMinute).toLocaleString('en-US')}/min`,
    `time left ${p.pending + p.inFlight === 0 ? '-' : duration(p.etaMs)}`,
    `${p.billedTokens.toLocaleString('en-US')} tokens`,
    `≈ ${formatCost(p.cost)}`,
  ].join(' · ');
}

/** A bar on a terminal, lines every `everyMs` elsewhere, nothing with `quiet`. */
export function createProgressView(
  stream: NodeJS.WriteStream,
  { quiet = false, everyMs = 5000, now = () => Date.now() } = {},
): ProgressView {
  if (quiet) return { update: () => {}, say: (line) => void stream.write(`${line}\n`), stop: () => {} };
  if (stream.isTTY) {
    const bar = new SingleBar(
      { format: '{bar} {percentage}% · {figures}', hideCursor: true, stream, barsize: 24, fps: 5 },
      Presets.shades_classic,
    );
    let started = false;
    return {
      update: (p) => {
        const settled = p.done + p.reused + p.invalid + p.failed + p.unknown;
        if (!started) {
          bar.start(Math.max(1, p.total), settled, { figures: progressFigures(p) });
          started = true;
        } else bar.update(settled, { figures: progressFigures(p) });
      },
      say: (line) => {
        if (started) bar.stop();
        stream.write(`${line}\n`);
        started = false;
      },
      stop: () => {
        if (started) bar.stop();
        started = false;
      },
    };
  }
  let last = -Infinity;
  let latest: RunProgress | null = null;
  let printed = false;
  return {
    update: (p) => {
      latest = p;
      printed = false;
      if (now() - last >= everyMs) {
        last = now();
        printed = true;
        stream.write(`progress: ${progressFigures(p)}\n`);
      }
    },
    say: (line) => void stream.write(`${line}\n`),
    // The last line is the run's final progress (the command updates with it before it stops), printed once.
    stop: () => {
      if (latest && !printed) stream.write(`progress: ${progressFigures(latest)}\n`);
    },
  };
}
