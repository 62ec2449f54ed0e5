// Seeded data for the trust tests: normal draws (Box-Muller over the contract's seeded random) and annotators who
// give each row's true class with a set accuracy, beside a judge of a given kind.
import { seededRandom } from '../../../../src/contract/random';
import { MISSING } from '../../../../src/core/trust/ratings';
import type { TrustData } from '../../../../src/core/trust/ratings';

export function normals(random: () => number, n: number, mean = 0, sd = 1): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = 1 - random();
    out[i] = mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  }
  return out;
}

/** A class other than `truth`, at random. */
const other = (random: () => number, truth: number, K: number): number =>
  (truth + 1 + Math.floor(random() * (K - 1))) % K;

/**
 * n rows, A annotators right `accuracy` of the time (missing `skip` of the time), and a judge that copies the first
 * annotator, guesses at random, or is right `judge` of the time.
 */
export function annotated(
  seed: number,
  n: number,
  options: { A?: number; K?: number; accuracy?: number; skip?: number; judge: 'copy' | 'random' | number },
): TrustData {
  const { A = 3, K = 4, accuracy = 0.8, skip = 0 } = options;
  const random = seededRandom(seed);
  const ratings = new Int32Array(n * A);
  const judge = new Int32Array(n);
  const confidence = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const truth = Math.floor(random() * K);
    for (let a = 0; a < A; a++)
      ratings[i * A + a] =
        a > 0 && random() < skip ? MISSING : random() < accuracy ? truth : other(random, truth, K);
    judge[i] =
      options.judge === 'copy'
        ? ratings[i * A]!
        : options.judge === 'random'
          ? Math.floor(random() * K)
          : random() < options.judge
            ? truth
            : other(random, truth, K);
    confidence[i] = random();
  }
  return {
    type: 'choice',
    classes: Array.from({ length: K }, (_, k) => `c${k}`),
    annotators: Array.from({ length: A }, (_, a) => `annotator_${a + 1}`),
    ratings,
    judge,
    confidence,
  };
}
