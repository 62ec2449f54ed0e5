// The reference's seeded random numbers, for its fault draws and its answer noise: one function, imported by both, so
// neither imports the other (this broke the faults -> options -> perturb -> faults file cycle).
// NOTE: the same algorithm and signature as core/robustness/random.ts's seededRandom; issue 31 folds them into one.

/** mulberry32: a tiny, fast, well-mixed 32-bit PRNG; returns uniform numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
