// Seeded randomness for the robustness plan: the same seed always gives the same orders and the same sample.
export { seededRandom } from '../../contract/random';

/** A 32-bit FNV-1a hash of a text, to derive one seed per question name from the plan's seed. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A shuffled copy (Fisher-Yates). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** `size` distinct indices below `count`, chosen at random, in increasing order (all of them when size >= count). */
export function sampleIndices(count: number, size: number, random: () => number): number[] {
  const n = Math.max(0, Math.floor(count));
  const k = Math.min(n, Math.max(0, Math.floor(size)));
  // Partial Fisher-Yates over a sparse map, so sampling 20 of 100,000 rows does not build a 100,000-entry array.
  const swapped = new Map<number, number>();
  const picked: number[] = [];
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(random() * (n - i));
    const atJ = swapped.get(j) ?? j;
    swapped.set(j, swapped.get(i) ?? i);
    picked.push(atJ);
  }
  return picked.sort((a, b) => a - b);
}
