// The clock a run of rows lives on in the browser: wall time, and sleeps timed by a worker so a hidden tab keeps its
// pace (the page's own timers are throttled to about one a minute after a few hidden minutes). Falls back to the
// page's timers where a worker cannot start. The worker starts on the first sleep, not when the app loads.
import { abortableSleep } from '../../client';
import type { Clock } from '../../core/rows/pacer';

type Timer = { post: (message: { id: number; ms?: number }) => void; waiting: Map<number, () => void> };

function startTimer(): Timer | null {
  if (typeof Worker === 'undefined') return null;
  try {
    const worker = new Worker(new URL('../workers/timer.worker.ts', import.meta.url), { type: 'module' });
    const waiting = new Map<number, () => void>();
    worker.onmessage = (event: MessageEvent<number>) => {
      const wake = waiting.get(event.data);
      waiting.delete(event.data);
      wake?.();
    };
    return { post: (message) => worker.postMessage(message), waiting };
  } catch {
    return null;
  }
}

/** A clock whose sleeps are timed in a worker. */
export function createBrowserClock(): Clock {
  let timer: Timer | null | undefined;
  let nextId = 1;
  return {
    now: () => Date.now(),
    sleep: (ms, signal) => {
      if (timer === undefined) timer = startTimer();
      const t = timer;
      if (!t) return abortableSleep(ms, signal);
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const id = nextId++;
        const onAbort = (): void => {
          t.waiting.delete(id);
          t.post({ id });
          reject(signal?.reason);
        };
        t.waiting.set(id, () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        });
        signal?.addEventListener('abort', onAbort, { once: true });
        t.post({ id, ms: Math.max(0, ms) });
      });
    },
  };
}
