// Cohen's kappa between two raters on the rows both rated (two annotators, or an annotator or the majority against
// the judge), and its mean over every pair of annotators. The kappa itself is the alignment's kappaOf (quadratic
// weights for a score question), so the judge and the people are measured by one definition.
import { confusionOf, kappaOf, quadraticWeights } from '../alignment/kappa';
import { MISSING, rowCount } from './ratings';
import type { TrustData } from './ratings';
import type { Patterns } from './patterns';

/** Each pattern's cell (first rater's class * K + second's) in a confusion matrix, or -1 where either is missing. */
export type Cells = Int32Array;

/** Cells of two columns given per pattern. */
export function cellsOf(first: ArrayLike<number>, second: ArrayLike<number>, K: number): Cells {
  const out = new Int32Array(first.length);
  for (let p = 0; p < first.length; p++)
    out[p] = first[p] === MISSING || second[p] === MISSING ? -1 : first[p]! * K + second[p]!;
  return out;
}

/** One annotator's rating per pattern. */
export function annotatorColumn(patterns: Patterns, a: number): Int32Array {
  const P = patterns.count.length;
  const out = new Int32Array(P);
  for (let p = 0; p < P; p++) out[p] = patterns.ratings[p * patterns.A + a]!;
  return out;
}

/** How many rows the cells hold when each pattern counts weights[p] times. */
export function confusionOfCells(
  cells: Cells,
  K: number,
  weights: ArrayLike<number>,
  into: Float64Array = new Float64Array(K * K),
): { m: Float64Array; n: number } {
  into.fill(0);
  let n = 0;
  for (let p = 0; p < cells.length; p++) {
    const c = cells[p]!;
    if (c < 0) continue;
    into[c]! += weights[p]!;
    n += weights[p]!;
  }
  return { m: into, n };
}

/**
 * Cohen's kappa of every pair of annotators on the rows both rated (quadratic weighted for a score question), and
 * their mean over the pairs where it is defined (a pair with no shared rows or one class only is left out).
 */
export function pairwiseKappa(data: TrustData): {
  value: number | null;
  pairs: { a: string; b: string; value: number | null; n: number }[];
} {
  const A = data.annotators.length;
  const K = data.classes.length;
  const n = rowCount(data);
  const weights = data.type === 'score' && K > 1 ? quadraticWeights(K) : undefined;
  const column = (a: number): Int32Array =>
    Int32Array.from({ length: n }, (_, i) => data.ratings[i * A + a]!);
  const columns = Array.from({ length: A }, (_, a) => column(a));
  const pairs: { a: string; b: string; value: number | null; n: number }[] = [];
  for (let a = 0; a < A; a++)
    for (let b = a + 1; b < A; b++) {
      const both: number[] = [];
      for (let i = 0; i < n; i++) if (columns[a]![i] !== MISSING && columns[b]![i] !== MISSING) both.push(i);
      const m = confusionOf(columns[a]!, columns[b]!, K, both);
      pairs.push({
        a: data.annotators[a]!,
        b: data.annotators[b]!,
        value: kappaOf(m, K, weights),
        n: both.length,
      });
    }
  const defined = pairs.filter((p) => p.value !== null);
  return {
    value: defined.length === 0 ? null : defined.reduce((s, p) => s + p.value!, 0) / defined.length,
    pairs,
  };
}
