// Cohen's kappa (1960) and its weighted form (Cohen 1968) from a confusion matrix of counts.

/** A K by K confusion matrix in a flat array: m[truth * K + predicted]. */
export type Confusion = Float64Array;

/** Counts the pairs of the given rows (all rows when `indices` is null) into a K by K matrix. */
export function confusionOf(
  truth: ArrayLike<number>,
  predicted: ArrayLike<number>,
  K: number,
  indices: ArrayLike<number> | null,
): Confusion {
  const m = new Float64Array(K * K);
  const n = indices ? indices.length : truth.length;
  for (let j = 0; j < n; j++) {
    const i = indices ? indices[j]! : j;
    m[truth[i]! * K + predicted[i]!]! += 1;
  }
  return m;
}

/** Quadratic disagreement weights (i - j)^2 / (K - 1)^2, as in quadratic weighted kappa. */
export function quadraticWeights(K: number): Float64Array {
  const w = new Float64Array(K * K);
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) w[i * K + j] = ((i - j) * (i - j)) / ((K - 1) * (K - 1));
  return w;
}

/**
 * Kappa of a confusion matrix: 1 - observed disagreement / disagreement expected by chance, with 0/1 weights unless
 * `weights` is given. Null when chance disagreement is 0 (both raters used one and the same class only).
 */
export function kappaOf(m: Confusion, K: number, weights?: Float64Array): number | null {
  let n = 0;
  const rows = new Float64Array(K);
  const cols = new Float64Array(K);
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) {
      const c = m[i * K + j]!;
      n += c;
      rows[i]! += c;
      cols[j]! += c;
    }
  if (n === 0) return null;
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) {
      const w = weights ? weights[i * K + j]! : i === j ? 0 : 1;
      observed += w * m[i * K + j]!;
      expected += (w * rows[i]! * cols[j]!) / n;
    }
  if (expected === 0) return null;
  return 1 - observed / expected;
}
