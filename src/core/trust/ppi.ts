// Prediction-powered inference for a mean (Angelopoulos, Bates, Fannjiang, Jordan & Zrnic 2023) with PPI++'s
// power-tuned lambda (Angelopoulos, Duchi & Zrnic 2023), as ppi_py's ppi_mean_ci computes them: from n human labels
// Y with the judge's predictions f on them and N more rows the judge alone labelled,
//   theta = lambda * mean(f_unlabelled) + mean(Y - lambda * f_labelled),
//   lambda = cov(Y, f_labelled) / ((1 + n / N) * var(f_labelled and f_unlabelled together)), clipped to [0, 1],
// with a normal interval whose variance adds the two parts. lambda = 1 is plain PPI; lambda = 0 is the classical
// interval from the labelled rows alone (ppi_py's classical_mean_ci), which is shown beside it.
import { Z95 } from '../alignment/intervals';

/** A mean with its normal 95% interval and standard error. */
export interface MeanEstimate {
  value: number;
  lo: number;
  hi: number;
  se: number;
}

export interface PpiMean {
  /** Labelled rows (a human label and a prediction) and unlabelled rows (a prediction alone). */
  n: number;
  N: number;
  lambda: number;
  /** How lambda was chosen: power-tuned (PPI++), or given (1 is plain PPI). */
  tuned: boolean;
  ppi: MeanEstimate;
  classical: MeanEstimate;
  /** The mean of the judge's predictions over every row it answered, labelled or not. */
  judgeMean: number;
  /** The PPI interval's width over the classical one's (their standard errors' ratio, before any clipping): below 1
   * means PPI is narrower. */
  widthRatio: number | null;
}

/**
 * How many rows each value stands for: every value once when absent. A judge's labels take a few distinct values, so a
 * million rows are handed over as a K by K table of counts instead of a million numbers.
 */
export type Weights = ArrayLike<number> | null;

const weightAt = (w: Weights, i: number): number => (w === null ? 1 : w[i]!);

/** How many rows the values stand for. */
function rowsOf(x: ArrayLike<number>, w: Weights): number {
  if (w === null) return x.length;
  let n = 0;
  for (let i = 0; i < x.length; i++) n += w[i]!;
  return n;
}

/**
 * Mean and population variance (numpy's default ddof = 0) of x + c·z row by row (of x alone without z), each value
 * counted by its weight; two passes for precision, and plain loops: a million rows in a few milliseconds.
 */
function moments(
  x: ArrayLike<number>,
  w: Weights = null,
  z: ArrayLike<number> | null = null,
  c = 0,
): { mean: number; variance: number } {
  const n = rowsOf(x, w);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += weightAt(w, i) * (z === null ? x[i]! : x[i]! + c * z[i]!);
  const mean = n === 0 ? Number.NaN : sum / n;
  let squares = 0;
  for (let i = 0; i < x.length; i++) {
    const d = (z === null ? x[i]! : x[i]! + c * z[i]!) - mean;
    squares += weightAt(w, i) * d * d;
  }
  return { mean, variance: n === 0 ? Number.NaN : squares / n };
}

/** value +- z se, clipped to the range the mean can take (a share stays in [0, 1]). */
const interval = (value: number, se: number, z: number, range: readonly [number, number]): MeanEstimate => ({
  value,
  lo: Math.max(range[0], value - z * se),
  hi: Math.min(range[1], value + z * se),
  se,
});

/**
 * PPI++ lambda as ppi_py's _calc_lam_glm for a mean: cov(Y, f) over the labelled rows (divided by n) over
 * (1 + n/N) times the variance of every prediction (divided by n + N - 1), clipped to [0, 1]. A judge whose
 * predictions never vary carries no information: lambda 0 (ppi_py would divide by zero).
 */
export function ppiLambda(
  y: ArrayLike<number>,
  f: ArrayLike<number>,
  fUnlabelled: ArrayLike<number>,
  weights: { labelled: Weights; unlabelled: Weights } = { labelled: null, unlabelled: null },
): number {
  const n = rowsOf(y, weights.labelled);
  const N = rowsOf(fUnlabelled, weights.unlabelled);
  const my = moments(y, weights.labelled).mean;
  const labelled = moments(f, weights.labelled);
  const unlabelled = moments(fUnlabelled, weights.unlabelled);
  let cov = 0;
  for (let i = 0; i < y.length; i++)
    cov += weightAt(weights.labelled, i) * (y[i]! - my) * (f[i]! - labelled.mean);
  cov /= n;
  const total = n + N;
  const mean = (labelled.mean * n + unlabelled.mean * N) / total;
  // Both groups' squares about the pooled mean, from their own moments: no pass over the rows again.
  const squares =
    n * (labelled.variance + (labelled.mean - mean) ** 2) +
    N * (unlabelled.variance + (unlabelled.mean - mean) ** 2);
  const variance = squares / (total - 1);
  if (!(variance > 0)) return 0;
  const lambda = cov / ((1 + n / N) * variance);
  return Math.min(1, Math.max(0, lambda));
}

/**
 * The prediction-powered mean with lambda power-tuned (lambda null) or given, beside the classical mean of the
 * labelled rows; both intervals clipped to `range` (ppi_py does not clip). Null when there are fewer than two
 * labelled rows or no unlabelled one. With `weights`, each labelled pair (y, f) and each unlabelled prediction stands
 * for that many rows.
 */
export function ppiMean(
  y: ArrayLike<number>,
  f: ArrayLike<number>,
  fUnlabelled: ArrayLike<number>,
  lambda: number | null = null,
  z = Z95,
  range: readonly [number, number] = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY],
  weights: { labelled: Weights; unlabelled: Weights } = { labelled: null, unlabelled: null },
): PpiMean | null {
  if (y.length !== f.length)
    throw new Error(`${y.length} labels but ${f.length} predictions on the labelled rows.`);
  const n = rowsOf(y, weights.labelled);
  const N = rowsOf(fUnlabelled, weights.unlabelled);
  if (n < 2 || N === 0) return null;
  const lam = lambda ?? ppiLambda(y, f, fUnlabelled, weights);
  const unlabelled = moments(fUnlabelled, weights.unlabelled);
  const rect = moments(y, weights.labelled, f, -lam);
  const value = lam * unlabelled.mean + rect.mean;
  const se = Math.sqrt((lam * lam * unlabelled.variance) / N + rect.variance / n);
  const human = moments(y, weights.labelled);
  const classical = interval(human.mean, Math.sqrt(human.variance / n), z, range);
  const ppi = interval(value, se, z, range);
  const judgeMean = (moments(f, weights.labelled).mean * n + unlabelled.mean * N) / (n + N);
  return {
    n,
    N,
    lambda: lam,
    tuned: lambda === null,
    ppi,
    classical,
    judgeMean,
    widthRatio: classical.se > 0 ? se / classical.se : null,
  };
}
