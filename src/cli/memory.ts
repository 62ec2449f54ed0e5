// Keeping a long run's memory flat: V8 sizes its heap by how fast a process allocates, not by what it keeps, so a run
// that parses and writes a million rows grows its resident memory by a hundred megabytes of garbage not yet collected.
// A full collection between windows of rows (tens of milliseconds, every few thousand rows) keeps it at what is live.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

/** Runs a full garbage collection when this process can (V8's gc exposed at run time); otherwise does nothing. */
export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  collect?.();
}
