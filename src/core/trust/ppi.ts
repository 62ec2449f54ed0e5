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

/**
 * The running sums PPI reads, added to one row (or one weighted value) at a time: the labelled rows' weighted means
 * of Y and f with their centred second moments and co-moment, and the unlabelled predictions' mean and second moment
 * (West's weighted update, stable in one pass). A predictor that takes many values (a probability per row) is read
 * in one loop over the rows into these, with no copy of them.
 */
export class PpiSums {
  n = 0;
  meanY = 0;
  meanF = 0;
  ssY = 0;
  ssF = 0;
  coYF = 0;
  N = 0;
  meanU = 0;
  ssU = 0;

  /** A labelled row: its human label y and the judge's prediction f, standing for w rows. */
  labelled(y: number, f: number, w = 1): void {
    if (w === 0) return;
    this.n += w;
    const dy = y - this.meanY;
    const df = f - this.meanF;
    this.meanY += (w * dy) / this.n;
    this.meanF += (w * df) / this.n;
    this.ssY += w * dy * (y - this.meanY);
    this.ssF += w * df * (f - this.meanF);
    this.coYF += w * dy * (f - this.meanF);
  }

  /** A row the judge alone labelled: its prediction f, standing for w rows. */
  unlabelled(f: number, w = 1): void {
    if (w === 0) return;
    this.N += w;
    const d = f - this.meanU;
    this.meanU += (w * d) / this.N;
    this.ssU += w * d * (f - this.meanU);
  }
}

/** The sums of labelled pairs (y, f) and unlabelled predictions, each value counted by its weight. */
function sumsOf(
  y: ArrayLike<number>,
  f: ArrayLike<number>,
  fUnlabelled: ArrayLike<number>,
  weights: { labelled: Weights; unlabelled: Weights },
): PpiSums {
  const s = new PpiSums();
  for (let i = 0; i < y.length; i++) s.labelled(y[i]!, f[i]!, weightAt(weights.labelled, i));
  for (let i = 0; i < fUnlabelled.length; i++) s.unlabelled(fUnlabelled[i]!, weightAt(weights.unlabelled, i));
  return s;
}

/** value +- z se, clipped to the range the mean can take (a share stays in [0, 1]). */
const interval = (value: number, se: number, z: number, range: readonly [number, number]): MeanEstimate => ({
  value,
  lo: Math.max(range[0], value - z * se),
  hi: Math.min(range[1], value + z * se),
  se,
});

/**
 * PPI++ lambda as ppi_py's _calc_lam_glm for a mean, from the sums: cov(Y, f) over the labelled rows (divided by n)
 * over (1 + n/N) times the variance of every prediction (divided by n + N - 1), clipped to [0, 1]. A judge whose
 * predictions never vary carries no information: lambda 0 (ppi_py would divide by zero).
 */
export function ppiLambdaOf(s: PpiSums): number {
  const { n, N } = s;
  const total = n + N;
  const mean = (s.meanF * n + s.meanU * N) / total;
  // Both groups' squares about the pooled mean, from their own moments.
  const squares = s.ssF + n * (s.meanF - mean) ** 2 + s.ssU + N * (s.meanU - mean) ** 2;
  const variance = squares / (total - 1);
  if (!(variance > 0)) return 0;
  const lambda = s.coYF / n / ((1 + n / N) * variance);
  return Math.min(1, Math.max(0, lambda));
}

/**
 * The prediction-powered mean from the sums, lambda power-tuned (null) or given, beside the classical mean of the
 * labelled rows; both intervals clipped to `range`. Null with fewer than two labelled rows or no unlabelled one.
 */
export function ppiOf(
  s: PpiSums,
  lambda: number | null = null,
  z = Z95,
  range: readonly [number, number] = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY],
): PpiMean | null {
  const { n, N } = s;
  if (n < 2 || N === 0) return null;
  const lam = lambda ?? ppiLambdaOf(s);
  // Y - lambda f on the labelled rows (the rectifier) and lambda f on the unlabelled ones, population variances.
  const rectVariance = Math.max(0, (s.ssY - 2 * lam * s.coYF + lam * lam * s.ssF) / n);
  const value = lam * s.meanU + s.meanY - lam * s.meanF;
  const se = Math.sqrt((lam * lam * (s.ssU / N)) / N + rectVariance / n);
  const classical = interval(s.meanY, Math.sqrt(s.ssY / n / n), z, range);
  return {
    n,
    N,
    lambda: lam,
    tuned: lambda === null,
    ppi: interval(value, se, z, range),
    classical,
    judgeMean: (s.meanF * n + s.meanU * N) / (n + N),
    widthRatio: classical.se > 0 ? se / classical.se : null,
  };
}

/** PPI++ lambda (ppiLambdaOf) of labelled pairs (y, f) and unlabelled predictions, optionally weighted. */
export function ppiLambda(
  y: ArrayLike<number>,
  f: ArrayLike<number>,
  fUnlabelled: ArrayLike<number>,
  weights: { labelled: Weights; unlabelled: Weights } = { labelled: null, unlabelled: null },
): number {
  return ppiLambdaOf(sumsOf(y, f, fUnlabelled, weights));
}

/**
 * The prediction-powered mean (ppiOf) of labelled pairs (y, f) and unlabelled predictions. With `weights`, each
 * labelled pair and each unlabelled prediction stands for that many rows.
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
  return ppiOf(sumsOf(y, f, fUnlabelled, weights), lambda, z, range);
}
