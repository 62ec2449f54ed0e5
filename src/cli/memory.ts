// Keeping a long run's memory flat: V8 sizes its heap by how fast a process allocates, not by what it keeps, so a run
// that parses and writes a million rows grows its resident memory by a hundred megabytes of garbage not yet collected.
// A full collection between windows of rows (tens of milliseconds, every few thousand rows) keeps it at what is live.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;
/** Heap in use after the last full collection (bytes). */
let liveAfterLast = 0;

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
  if (!collect) return;
  collect();
  liveAfterLast = getHeapStatistics().used_heap_size;
}

/** Heap growth past the last collection's live heap that calls for another (bytes): about a young generation. */
export const GROWN_BYTES = 16 * 1024 * 1024;

/**
 * A full collection once the heap has grown GROWN_BYTES past what the last one left live, for what reads a file at disk
 * speed (the passes over the rows file, a resume skipping the rows already settled, a results file read back): they
 * allocate fast, and V8 lets dead rows pile up to its initial old-space size (130 MB at a million rows).
 */
export function collectWhenGrown(): void {
  if (getHeapStatistics().used_heap_size - liveAfterLast >= GROWN_BYTES) collectGarbage();
}
