// Memory sampling for bench sections, in this process or in a server child (see child.ts).

/** Resident set size and V8 heap in use, in MB. */
export interface MemorySample {
  rssMb: number;
  heapUsedMb: number;
}

const MB = 1024 * 1024;

/** Samples this process's memory, after a full GC when node runs with --expose-gc (so garbage is not counted). */
export function sampleMemory(): MemorySample {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  const m = process.memoryUsage();
  return { rssMb: m.rss / MB, heapUsedMb: m.heapUsed / MB };
}

/** Rows comparing two samples, for printTable. */
export function memoryRows(
  before: MemorySample,
  after: MemorySample,
): Array<Record<string, string | number>> {
  return [
    { measure: 'RSS (MB)', before: before.rssMb, after: after.rssMb, change: after.rssMb - before.rssMb },
    {
      measure: 'heap used (MB)',
      before: before.heapUsedMb,
      after: after.heapUsedMb,
      change: after.heapUsedMb - before.heapUsedMb,
    },
  ];
}
