// Starts `npm start` as a child process on a free port and stops it with its whole process group.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A running `npm start`. */
export interface WorkbenchProcess {
  url: string;
  /** Everything the server printed so far (keys are redacted by the server itself). */
  output(): string;
  stop(): Promise<void>;
}

// Variables a developer's shell may hold that would change what the tests see; each test says what it wants.
const CONFIG_PREFIXES = ['EVAL_', 'REFERENCE_', 'PROXY_'];
// NODE_ENV: vitest sets 'test', which must not reach the server's build.
const CONFIG_NAMES = new Set(['PORT', 'HOST', 'WORKBENCH_ENV_FILE', 'WORKBENCH_TARGETS_FILE', 'NODE_ENV']);

/** The process environment minus workbench settings, plus `vars`; never reads the developer's .env.local. */
export function isolatedEnv(vars: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!CONFIG_NAMES.has(k) && !CONFIG_PREFIXES.some((p) => k.startsWith(p))) env[k] = v;
  }
  // Nor the developer's workbench.targets.json: a test names its own file.
  return {
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    WORKBENCH_ENV_FILE: '',
    WORKBENCH_TARGETS_FILE: '',
    ...vars,
  };
}

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    // npm runs tsx runs node: signal the whole group so no server outlives the tests.
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

/** Runs `npm start` with `vars` (PORT=0: a free port) and resolves with its URL once it listens. */
export async function startWorkbenchProcess(
  vars: Record<string, string> = {},
  { timeoutMs = 200_000 }: { timeoutMs?: number } = {},
): Promise<WorkbenchProcess> {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: isolatedEnv(vars),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`npm start did not print its URL within ${timeoutMs / 1000} s. Output:\n${output}`));
    }, timeoutMs);
    const onData = (): void => {
      const match = /Evaluate Workbench running at (http:\/\/\S+)/.exec(output);
      if (match) {
        cleanup();
        resolve(match[1]!);
      }
    };
    const onExit = (code: number | null): void => {
      cleanup();
      reject(new Error(`npm start exited (${code}) before listening. Output:\n${output}`));
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  }).catch(async (error: unknown) => {
    await stopGroup(child);
    throw error;
  });

  return { url, output: () => output, stop: () => stopGroup(child) };
}
