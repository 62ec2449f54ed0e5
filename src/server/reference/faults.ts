// Seeded fault injection: the same seed and the same sequence of requests meet the same faults.
import type { FaultSpec } from './options';

/** mulberry32: a tiny, fast, well-mixed 32-bit PRNG; returns uniform numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FaultKind = '429' | '529' | 'timeout' | 'reset';
/** What one evaluation meets: at most one fault, and an added latency in ms (0 without a latency range). */
export interface FaultDraw {
  fault: FaultKind | null;
  latencyMs: number;
}

/** Draws faults per evaluation: one number picks the fault, a second (only with a latency range) the latency. */
export function createFaultInjector(spec: FaultSpec, seed: number): () => FaultDraw {
  const random = mulberry32(seed);
  const bands: ReadonlyArray<readonly [FaultKind, number]> = [
    ['429', spec.p429],
    ['529', spec.p529],
    ['timeout', spec.timeout],
    ['reset', spec.reset],
  ];
  const none = spec.p429 + spec.p529 + spec.timeout + spec.reset === 0 && spec.latency === null;
  return () => {
    if (none) return { fault: null, latencyMs: 0 };
    const u = random();
    let fault: FaultKind | null = null;
    let edge = 0;
    for (const [kind, p] of bands) {
      edge += p;
      if (u < edge) {
        fault = kind;
        break;
      }
    }
    let latencyMs = 0;
    if (spec.latency) {
      const [min, max] = spec.latency;
      latencyMs = Math.round(min + random() * (max - min));
    }
    return { fault, latencyMs };
  };
}
