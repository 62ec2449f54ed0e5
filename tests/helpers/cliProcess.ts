// The command line as a CI job or a pod runs it: its own process, its own environment, and optionally a signal once
// its results file holds so many rows (a pod evicted, Ctrl+C, SIGKILL mid-run).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '../../bin/evaluate-workbench.mjs');

/** How the process ended, and what it said on stderr. */
export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Result lines in a results file (its header left out); 0 while it does not exist yet. */
function resultLines(out: string): number {
  try {
    return (
      readFileSync(out, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '').length - 1
    );
  } catch {
    return 0;
  }
}

/** Runs `evaluate-workbench args` in `cwd` with only PATH, HOME and `env`; `stopAfter` signals it mid-run. */
export function spawnCli(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  stopAfter?: { lines: number; signal: NodeJS.Signals; out: string },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, WORKBENCH_ENV_FILE: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = stopAfter
      ? setInterval(() => {
          if (resultLines(stopAfter.out) < stopAfter.lines) return;
          clearInterval(timer);
          child.kill(stopAfter.signal);
        }, 20)
      : undefined;
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      resolve({ code, signal, stderr });
    });
  });
}
