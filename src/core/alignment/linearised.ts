// Linearised (delta-method) intervals for large files: the infinitesimal jackknife of every figure, which is the
// first-order variance the row bootstrap estimates (Efron 1981, "Nonparametric estimates of standard error"), at the
// cost of one pass over the rows instead of hundreds. Each figure's influence of a row (how the figure moves when
// that row weighs a little more) has a closed form from the confusion counts and bin sums; the variance is the sum of
// the squared centred influences. ROC AUC uses DeLong's placement values (the same thing for a Mann-Whitney
// statistic) and Spearman the Fisher z interval of Bonett and Wright (2000).
import { Z95 } from './intervals';
import { finish, gather, scratchFor, statKeys } from './questionData';
import type { QuestionData, Scratch } from './questionData';

/** Above this many labelled rows of a question (with B left open), intervals are linearised, not bootstrapped. */
export const LINEARISED_ABOVE = 20_000;

/** The sentence of the method, for the conventions and each figure. */
export const LINEARISED_METHOD =
  '95% normal interval from the linearised (infinitesimal jackknife) standard error, clipped to the figure’s range';

/** A question's figures with the standard error of each, and what the corrected prevalence needs. */
export interface Linearisation {
  /** The figure's value by statKeys name (NaN where undefined). */
  point: (key: string) => number;
  /** Standard error of a figure (NaN where unknown): kappa, macro_f1, qwk, mae, auroc, brier, log_loss, ece. */
  se: (key: string) => number;
  /** Variance of a · sensitivity + b · specificity of one class (the corrected prevalence's labelled-rows part). */
  senSpecVariance: (k: number, a: number, b: number) => number;
}

/**
 * Σ over rows of (u − ū)² when a row's influence u depends only on its confusion cell (label a, prediction b): a sum
 * over the K² cells weighted by their counts instead of a pass over the rows.
 */
function cellVariance(m: Float64Array, K: number, u: (a: number, b: number) => number): number {
  let n = 0;
  let sum = 0;
  for (let c = 0; c < K * K; c++) {
    if (m[c] === 0) continue;
    n += m[c]!;
    sum += m[c]! * u(Math.floor(c / K), c % K);
  }
  if (n === 0) return Number.NaN;
  const mean = sum / n;
  let v = 0;
  for (let c = 0; c < K * K; c++) {
    if (m[c] === 0) continue;
    const d = u(Math.floor(c / K), c % K) - mean;
    v += m[c]! * d * d;
  }
  return v;
}

/** Row and column sums of a confusion matrix: rows labelled each class, rows predicted each class. */
function margins(m: Float64Array, K: number): { r: Float64Array; c: Float64Array; n: number } {
  const r = new Float64Array(K);
  const c = new Float64Array(K);
  let n = 0;
  for (let a = 0; a < K; a++)
    for (let b = 0; b < K; b++) {
      r[a]! += m[a * K + b]!;
      c[b]! += m[a * K + b]!;
      n += m[a * K + b]!;
    }
  return { r, c, n };
}

/**
 * Variance of kappa with disagreement weights w (0/1 for Cohen's, quadratic for QWK): kappa = 1 − O/E with O the mean
 * weight of the rows' cells and E the one expected from the margins; a row in cell (a, b) moves O by (w_ab − O)/n and
 * E by (Σ_l w_al c_l + Σ_k w_kb r_k)/n² − 2E/n.
 */
function kappaVariance(m: Float64Array, K: number, weights: Float64Array | null): number {
  const w = (a: number, b: number): number => (weights ? weights[a * K + b]! : a === b ? 0 : 1);
  const { r, c, n } = margins(m, K);
  let O = 0;
  let E = 0;
  for (let a = 0; a < K; a++)
    for (let b = 0; b < K; b++) {
      O += (w(a, b) * m[a * K + b]!) / n;
      E += (w(a, b) * r[a]! * c[b]!) / (n * n);
    }
  if (n === 0 || E === 0) return Number.NaN;
  const byTruth = new Float64Array(K);
  const byPrediction = new Float64Array(K);
  for (let a = 0; a < K; a++)
    for (let l = 0; l < K; l++) {
      byTruth[a]! += (w(a, l) * c[l]!) / n;
      byPrediction[a]! += (w(l, a) * r[l]!) / n;
    }
  return cellVariance(m, K, (a, b) => {
    const dO = (w(a, b) - O) / n;
    const dE = (byTruth[a]! + byPrediction[b]! - 2 * E) / n;
    return (O * dE - E * dO) / (E * E);
  });
}

/** Variance of macro F1 (the mean of 2 tp_k / (r_k + c_k) over the classes present). */
function macroF1Variance(m: Float64Array, K: number): number {
  const { r, c } = margins(m, K);
  const tp = Float64Array.from({ length: K }, (_, k) => m[k * K + k]!);
  const s = Float64Array.from({ length: K }, (_, k) => r[k]! + c[k]!);
  let present = 0;
  for (let k = 0; k < K; k++) if (s[k]! > 0) present++;
  if (present === 0) return Number.NaN;
  // A right row adds to tp, r and c of its class; a wrong one to r of the label's class and c of the predicted one.
  return cellVariance(m, K, (a, b) =>
    a === b
      ? (2 / s[a]! - (4 * tp[a]!) / (s[a]! * s[a]!)) / present
      : ((-2 * tp[a]!) / (s[a]! * s[a]!) - (2 * tp[b]!) / (s[b]! * s[b]!)) / present,
  );
}

/** Variance of the mean of a per-row value: each row moves it by (x_i − mean)/n. */
function meanVariance(values: ArrayLike<number>, n: number): number {
  let mean = 0;
  for (let i = 0; i < n; i++) mean += values[i]!;
  mean /= n;
  let v = 0;
  for (let i = 0; i < n; i++) v += (values[i]! - mean) * (values[i]! - mean);
  return v / (n * n);
}

/** Variance of ECE = Σ_b |hits_b − p_b| / n: a row moves it by the sign of its bin's gap times its own gap. */
function eceVariance(data: QuestionData, s: Scratch, ece: number): number {
  const n = data.ids.length;
  const sign = Float64Array.from({ length: data.bins }, (_, b) => Math.sign(s.sumHit[b]! - s.sumP[b]!));
  let mean = 0;
  for (let i = 0; i < n; i++) mean += sign[data.bin[i]!]! * (data.calHit[i]! - data.calP[i]!);
  mean /= n;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = sign[data.bin[i]!]! * (data.calHit[i]! - data.calP[i]!) - mean;
    v += d * d;
  }
  // ece/n is the same for every row, so it drops out of the centred sum.
  return ece === ece ? v / (n * n) : Number.NaN;
}

/** DeLong's variance of ROC AUC from yes and no counts per distinct P(yes), ascending. */
function aucVariance(pos: Float64Array, neg: Float64Array, auc: number): number {
  let P = 0;
  let N = 0;
  for (let c = 0; c < pos.length; c++) {
    P += pos[c]!;
    N += neg[c]!;
  }
  if (P === 0 || N === 0) return Number.NaN;
  // A yes row's placement: the share of no rows below it (ties one half); a no row's: the share of yes rows above.
  let negBelow = 0;
  let posAbove = P;
  let v = 0;
  for (let c = 0; c < pos.length; c++) {
    posAbove -= pos[c]!;
    const v10 = (negBelow + neg[c]! / 2) / N;
    const v01 = (posAbove + pos[c]! / 2) / P;
    v += (pos[c]! * (v10 - auc) * (v10 - auc)) / (P * P) + (neg[c]! * (v01 - auc) * (v01 - auc)) / (N * N);
    negBelow += neg[c]!;
  }
  return v;
}

/** Every figure of a question with its linearised standard error, from closed-form row influences. */
export function linearise(data: QuestionData): Linearisation {
  const keys = statKeys(data);
  const s = scratchFor(data);
  gather(data, null, s);
  const values = new Float64Array(keys.length);
  finish(data, null, s, values, true);
  const point = (key: string): number => {
    const at = keys.indexOf(key);
    return at === -1 ? Number.NaN : values[at]!;
  };
  const n = data.ids.length;
  const m = s.m;
  const se = new Map<string, number>();
  const put = (key: string, variance: number): void => {
    if (Number.isFinite(point(key)) && Number.isFinite(variance)) se.set(key, Math.sqrt(variance));
  };
  if (n > 0) {
    put('brier', meanVariance(data.brier, n));
    put('log_loss', meanVariance(data.logLoss, n));
    put('ece', eceVariance(data, s, point('ece')));
    if (data.type === 'choice') {
      put('kappa', kappaVariance(m, data.K, null));
      put('macro_f1', macroF1Variance(m, data.K));
    } else if (data.type === 'score') {
      put('qwk', kappaVariance(m, data.K, data.weights));
      const err = new Float64Array(n);
      for (let i = 0; i < n; i++) err[i] = Math.abs(data.expected[i]! - data.y[i]!);
      put('mae', meanVariance(err, n));
    } else put('auroc', aucVariance(s.codeCounts, s.codeNeg, point('auroc')));
  }
  const K = data.K;
  return {
    point,
    se: (key) => se.get(key) ?? Number.NaN,
    senSpecVariance: (k, a, b) => {
      // Sensitivity tp_k / r_k and specificity tn_k / (n − r_k), each moved by a row through its cell.
      const { r: rows, c: cols } = margins(m, K);
      const r = rows[k]!;
      const tp = m[k * K + k]!;
      const neg = n - r;
      if (r === 0 || neg === 0) return Number.NaN;
      const sen = tp / r;
      const spec = (neg - (cols[k]! - tp)) / neg;
      return cellVariance(m, K, (label, predicted) => {
        const isLabel = label === k ? 1 : 0;
        const isPredicted = predicted === k ? 1 : 0;
        const dSen = (isLabel * isPredicted - sen * isLabel) / r;
        const dNeg = 1 - isLabel;
        const dTn = dNeg - isPredicted + isLabel * isPredicted;
        return a * dSen + b * ((dTn - spec * dNeg) / neg);
      });
    },
  };
}

/** The range each figure lives in, so a normal interval never leaves it. */
export function rangeOf(key: string, K: number): [number, number] {
  if (key === 'kappa' || key === 'qwk' || key === 'spearman') return [-1, 1];
  if (key === 'brier') return [0, 2];
  if (key === 'log_loss') return [0, Number.POSITIVE_INFINITY];
  if (key === 'mae') return [0, Math.max(0, K - 1)];
  return [0, 1];
}

/** value ± z·se, clipped to the figure's range; nulls when the standard error is unknown. */
export function normalInterval(
  value: number,
  se: number,
  range: [number, number],
): { lo: number | null; hi: number | null } {
  if (!Number.isFinite(se)) return { lo: null, hi: null };
  return {
    lo: Math.max(range[0], value - Z95 * se),
    hi: Math.min(range[1], value + Z95 * se),
  };
}

/** Spearman's interval: Fisher's z with Bonett and Wright's (2000) standard error sqrt((1 + r²/2) / (n − 3)). */
export function spearmanInterval(r: number, n: number): { lo: number | null; hi: number | null } {
  if (n < 4) return { lo: null, hi: null };
  if (Math.abs(r) >= 1) return { lo: r, hi: r };
  const z = Math.atanh(r);
  const se = Math.sqrt((1 + (r * r) / 2) / (n - 3));
  return { lo: Math.tanh(z - Z95 * se), hi: Math.tanh(z + Z95 * se) };
}
