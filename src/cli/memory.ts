// Keeping a long run's memory flat: V8 sizes its heap by how fast a process allocates, not by what it keeps, so a run
// that parses and writes a million rows grows its resident memory by a hundred megabytes of garbage not yet collected.
// A full collection between windows of rows (tens of milliseconds, every few thousand rows) keeps it at what is live.
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;
/** Heap in use after the last full collection (bytes). */
let liveAfterLast = 0;

/**
 * The young generation's size (both halves, bytes) at which it stops growing once the command asks. V8 doubles it up
 * to 32 MB under a fast allocator (a file read at disk speed), and a running process cannot lower its maximum; it can
 * set the growth factor, so the factor goes to 1 once the space is this large: what --max-semi-space-size=4 does
 * (about 20 MB less resident, in the same time; docs/scale-out.md).
 */
export const YOUNG_CAP_BYTES = 8 * 1024 * 1024;

let youngCap: 'off' | 'watching' | 'capped' = 'off';

/** From now on, keep the young generation at YOUNG_CAP_BYTES: the command's own processes, never a test runner's. */
export function capYoungGeneration(): void {
  if (youngCap === 'off') youngCap = 'watching';
  watchYoungGeneration();
}

/** Stops the young generation's growth once it has reached the cap (a look every megabyte of a file read). */
function watchYoungGeneration(): void {
  if (youngCap !== 'watching') return;
  const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  if (!young || young.space_size < YOUNG_CAP_BYTES) return;
  setFlagsFromString('--semi-space-growth-factor=1');
  youngCap = 'capped';
}

/** Runs a full garbage collection when this process can (V8's gc exposed at run time); otherwise does nothing. */
export function collectGarbage(): void {
  watchYoungGeneration();
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

/** Heap growth past the last collection's live heap that calls for another (bytes): two young generations, capped. */
export const GROWN_BYTES = 16 * 1024 * 1024;

/**
 * A full collection once the heap has grown GROWN_BYTES past what the last one left live, for what reads a file at disk
 * speed (the passes over the rows file, a resume skipping the rows already settled, a results file read back): they
 * allocate fast, and V8 lets dead rows pile up to its initial old-space size (130 MB at a million rows).
 */
export function collectWhenGrown(): void {
  watchYoungGeneration();
  if (getHeapStatistics().used_heap_size - liveAfterLast >= GROWN_BYTES) collectGarbage();
}
