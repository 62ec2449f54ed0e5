// A small seeded random number generator, so every bootstrap interval is the same on every run and machine.

/** mulberry32: a 32-bit state generator, fast and good enough for resampling; returns floats in [0, 1). */
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

/** Fills `into` with n indices drawn with replacement from 0..n-1: one bootstrap resample. */
export function resampleIndices(n: number, random: () => number, into: Uint32Array): Uint32Array {
  for (let i = 0; i < n; i++) into[i] = Math.floor(random() * n);
  return into;
}
