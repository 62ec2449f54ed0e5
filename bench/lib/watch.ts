// What a bench reads of a command it runs in another process: the result lines written so far and the process's
// resident memory and CPU time, polled from outside as a user's monitoring would.
import { readFileSync } from 'node:fs';
import { countLines } from '../../src/cli/resultsStream';

/** Result lines in a results file (its header excluded); 0 while there is no file yet. */
export function resultLines(out: string): number {
  try {
    return Math.max(0, countLines(out) - 1);
  } catch {
    return 0;
  }
}

/** A process's resident set (MB) from /proc, null once it has exited. */
export function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Clock ticks a second in /proc/<pid>/stat (USER_HZ: 100 on Linux, whatever the kernel's own tick). */
const TICKS_PER_SECOND = 100;

/** A process's CPU time so far (ms, user and system) from /proc, null once it has exited. */
export function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's name (which may hold spaces, so read from its closing parenthesis).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
