// Seeded fault injection: the same seed and the same sequence of requests meet the same faults.
import type { FaultSpec } from './options';
import { seededRandom } from '../../contract/random';

export type FaultKind = '429' | '529' | 'timeout' | 'reset';
/** What one evaluation meets: at most one fault, and an added latency in ms (0 without a latency range). */
export interface FaultDraw {
  fault: FaultKind | null;
  latencyMs: number;
}

/** Draws faults per evaluation: one number picks the fault, a second (only with a latency range) the latency. */
export function createFaultInjector(spec: FaultSpec, seed: number): () => FaultDraw {
  const random = seededRandom(seed);
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
