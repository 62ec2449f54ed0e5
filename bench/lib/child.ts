// Runs a server for a bench section in its own process (its own core, its own heap), talking over IPC.
// Parent side: startChildServer. Child side: reportReady, which also answers memory samples.
import { fork } from 'node:child_process';
import type { MemorySample } from './memory';
import { sampleMemory } from './memory';

type FromChild = { type: 'ready'; url: string } | { type: 'memory'; sample: MemorySample };

/** A server running in a child process. */
export interface ChildServer {
  url: string;
  /** Memory of the child after a full GC. */
  memory(): Promise<MemorySample>;
  stop(): Promise<void>;
}

/** Forks `script` (TypeScript, through tsx) with GC exposed, and waits for it to call reportReady. */
export function startChildServer(script: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const child = fork(script, [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
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
        memory: () =>
          new Promise((res) => {
            child.once('message', (m: FromChild) => {
              if (m.type === 'memory') res(m.sample);
            });
            child.send({ type: 'memory' });
          }),
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

/** Child side: tells the parent the server's URL and answers memory requests until the parent goes away. */
export function reportReady(url: string, close: () => Promise<void>): void {
  if (!process.send) throw new Error('reportReady runs in a process started by startChildServer.');
  process.on('message', (m: { type?: string }) => {
    if (m.type === 'memory') process.send!({ type: 'memory', sample: sampleMemory() } satisfies FromChild);
  });
  const stop = (): void => void close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
  process.send({ type: 'ready', url } satisfies FromChild);
}
