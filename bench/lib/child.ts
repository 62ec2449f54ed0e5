// Runs a server for a bench section in its own process (its own core, its own heap), talking over IPC.
// Parent side: startChildServer. Child side: reportReady, which answers memory and service-time samples.
import { fork } from 'node:child_process';
import type { Server } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { MemorySample } from './memory';
import { sampleMemory } from './memory';

/** How the server itself fared: time from request to response finish, and how long its event loop was held up. */
export interface ServiceSample {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Event-loop delay p99 and max: high values with a low service time mean the process waited for a CPU. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

type Ask = 'memory' | 'service';
type FromChild =
  | { type: 'ready'; url: string }
  | { type: 'memory'; sample: MemorySample }
  | { type: 'service'; sample: ServiceSample };

/** A server running in a child process. */
export interface ChildServer {
  url: string;
  /** Memory of the child after a full GC. */
  memory(): Promise<MemorySample>;
  /** Service times since the previous call (or since start); needs the child to pass its server to reportReady. */
  service(): Promise<ServiceSample>;
  stop(): Promise<void>;
}

/**
 * Forks `script` (TypeScript, through tsx) with GC exposed, and waits for it to call reportReady. With
 * BENCH_CPU_PROF=<dir> in the environment, the child writes a V8 CPU profile there when it stops (open it in Chrome's
 * DevTools, Performance tab): where a section's server spends its time.
 */
export function startChildServer(script: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const profileDir = process.env.BENCH_CPU_PROF;
  const child = fork(script, [], {
    execArgv: [
      '--import',
      'tsx',
      '--expose-gc',
      ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = <T extends FromChild>(type: Ask): Promise<T> =>
    new Promise((resolve) => {
      const onMessage = (m: FromChild): void => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        resolve(m as T);
      };
      child.on('message', onMessage);
      child.send({ type });
    });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null): void =>
      reject(new Error(`${script} exited (${code}) before it was ready.`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.once('message', (message: FromChild) => {
      if (message.type !== 'ready') return reject(new Error(`Unexpected first message from ${script}.`));
      child.off('exit', onExit);
      resolve({
        url: message.url,
        memory: async () => (await ask<Extract<FromChild, { type: 'memory' }>>('memory')).sample,
        service: async () => (await ask<Extract<FromChild, { type: 'service' }>>('service')).sample,
        stop: () =>
          new Promise((res) => {
            if (child.exitCode !== null) return res();
            child.once('exit', () => res());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;

/**
 * Child side: tells the parent the server's URL and answers its samples until the parent goes away. With `server`,
 * each request's service time (request to response finish) is recorded for service().
 */
export function reportReady(
  url: string,
  close: () => Promise<void>,
  options: { server?: Server } = {},
): void {
  if (!process.send) throw new Error('reportReady runs in a process started by startChildServer.');
  let times: number[] = [];
  options.server?.on('request', (_req, res) => {
    const start = performance.now();
    res.once('finish', () => times.push(performance.now() - start));
  });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const NS_PER_MS = 1e6;
  process.on('message', (m: { type?: Ask }) => {
    if (m.type === 'memory') process.send!({ type: 'memory', sample: sampleMemory() } satisfies FromChild);
    if (m.type === 'service') {
      const sorted = Float64Array.from(times).sort();
      const sample: ServiceSample = {
        requests: sorted.length,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        loopDelayP99Ms: loop.percentile(99) / NS_PER_MS,
        loopDelayMaxMs: loop.max / NS_PER_MS,
      };
      times = [];
      loop.reset();
      process.send!({ type: 'service', sample } satisfies FromChild);
    }
  });
  const stop = (): void => void close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send({ type: 'ready', url } satisfies FromChild);
}
