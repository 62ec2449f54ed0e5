// Seeded resampling, so every bootstrap interval is the same on every run and machine. The generator is the contract's
// seededRandom (re-exported for the figures' callers); resampleCounts inlines it for speed.
export { seededRandom } from '../../contract/random';

/** The state of a mulberry32 stream, advanced in bulk by `resampleCounts`. */
export interface SeededStream {
  state: number;
}

export const seededStream = (seed: number): SeededStream => ({ state: seed >>> 0 });

/**
 * One bootstrap resample as counts: draws n rows with replacement from 0..n-1 and writes into `into` how many times
 * each row was drawn (the same multinomial as n drawn indices). The generator is mulberry32 inlined, as in
 * the contract's seededRandom, because a call per draw was most of a resample's cost.
 */
export function resampleCounts(n: number, stream: SeededStream, into: Uint32Array): Uint32Array {
  into.fill(0);
  let a = stream.state;
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    into[Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)]! += 1;
  }
  stream.state = a;
  return into;
}

/** The seed of one question's resamples: the run's seed mixed with an FNV-1a hash of the question name. */
export function questionSeed(seed: number, name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return (h ^ seed) >>> 0;
}
