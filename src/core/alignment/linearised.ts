// Linearised (delta-method) intervals for large files: the infinitesimal jackknife of every figure, which is the
// first-order variance the row bootstrap estimates (Efron 1981, "Nonparametric estimates of standard error"), at the
// cost of one pass over the rows instead of hundreds. Each figure's influence of a row (how the figure moves when
// that row weighs a little more) has a closed form from the confusion counts and bin sums; the variance is the sum of
// the squared centred influences, and a paired difference of two runs takes the difference of the two influences
// row by row. ROC AUC uses DeLong's placement values (the same thing for a Mann-Whitney statistic); Spearman's own
// interval is the Fisher z interval of Bonett and Wright (2000).
import { Z95 } from './intervals';
import { statsWithSums } from './questionData';
import type { NoulData, QuestionData, ScoreData, Scratch } from './questionData';
import { midranks } from './scoreAgreement';

/** A question's sums over every row and its figures, which every influence reads. */
export interface Sums {
  s: Scratch;
  point: (key: string) => number;
  /** Every figure by name, null where undefined (statsOf). */
  points: Record<string, number | null>;
}

/** Gathers a question's sums once, for its figures and their influences. */
export function sumsOf(data: QuestionData): Sums {
  const { s, points } = statsWithSums(data, null);
  return { s, points, point: (key) => points[key] ?? Number.NaN };
}

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

/**
 * Σ (u_i − ū)² over n rows whose influence u(i) is computed as read, in one pass: Σ u² − (Σ u)² / n, which loses
 * nothing here because influences sum to about zero (their mean is the figure's own first-order change).
 */
function centredSquaresOf(n: number, u: (i: number) => number): number {
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const v = u(i);
    sum += v;
    squares += v * v;
  }
  return n === 0 ? 0 : Math.max(0, squares - (sum * sum) / n);
}

/** Σ (u_i − ū)² over the rows: the variance the influences give. */
export const centredSquares = (u: Float64Array): number => centredSquaresOf(u.length, (i) => u[i]!);

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
 * A row's influence on kappa with disagreement weights w (0/1 for Cohen's, quadratic for QWK), by its cell: kappa =
 * 1 − O/E with O the mean weight of the rows' cells and E the one expected from the margins; a row in cell (a, b)
 * moves O by (w_ab − O)/n and E by (Σ_l w_al c_l + Σ_k w_kb r_k)/n² − 2E/n.
 */
function kappaByCell(
  m: Float64Array,
  K: number,
  weights: Float64Array | null,
): ((a: number, b: number) => number) | null {
  const w = (a: number, b: number): number => (weights ? weights[a * K + b]! : a === b ? 0 : 1);
  const { r, c, n } = margins(m, K);
  let O = 0;
  let E = 0;
  for (let a = 0; a < K; a++)
    for (let b = 0; b < K; b++) {
      O += (w(a, b) * m[a * K + b]!) / n;
      E += (w(a, b) * r[a]! * c[b]!) / (n * n);
    }
  if (n === 0 || E === 0) return null;
  const byTruth = new Float64Array(K);
  const byPrediction = new Float64Array(K);
  for (let a = 0; a < K; a++)
    for (let l = 0; l < K; l++) {
      byTruth[a]! += (w(a, l) * c[l]!) / n;
      byPrediction[a]! += (w(l, a) * r[l]!) / n;
    }
  return (a, b) => {
    const dO = (w(a, b) - O) / n;
    const dE = (byTruth[a]! + byPrediction[b]! - 2 * E) / n;
    return (O * dE - E * dO) / (E * E);
  };
}

/** A row's influence on macro F1 (the mean of 2 tp_k / (r_k + c_k) over the classes present), by its cell. */
function macroF1ByCell(m: Float64Array, K: number): ((a: number, b: number) => number) | null {
  const { r, c } = margins(m, K);
  const tp = Float64Array.from({ length: K }, (_, k) => m[k * K + k]!);
  const s = Float64Array.from({ length: K }, (_, k) => r[k]! + c[k]!);
  let present = 0;
  for (let k = 0; k < K; k++) if (s[k]! > 0) present++;
  if (present === 0) return null;
  // A right row adds to tp, r and c of its class; a wrong one to r of the label's class and c of the predicted one.
  return (a, b) =>
    a === b
      ? (2 / s[a]! - (4 * tp[a]!) / (s[a]! * s[a]!)) / present
      : ((-2 * tp[a]!) / (s[a]! * s[a]!) - (2 * tp[b]!) / (s[b]! * s[b]!)) / present;
}

/**
 * A row's influence on a figure that depends on the rows only through the confusion counts, by the row's cell (label,
 * prediction); null where the figure is undefined, undefined for a figure of another kind.
 */
function cellInfluence(
  data: QuestionData,
  key: string,
  { s, point }: Sums,
): ((a: number, b: number) => number) | null | undefined {
  const n = data.n;
  const value = point(key);
  switch (key) {
    case 'accuracy':
    case 'exact':
      return Number.isFinite(value) ? (a, b) => ((a === b ? 1 : 0) - value) / n : null;
    case 'kappa':
      return kappaByCell(s.m, data.K, null);
    case 'qwk':
      return data.type === 'score' ? kappaByCell(s.m, data.K, data.weights) : null;
    case 'macro_f1':
      return macroF1ByCell(s.m, data.K);
    default:
      return undefined;
  }
}

/** A figure read from the confusion cells: its influence tabled over the K² cells first, then a lookup per row. */
function byCellInfluence(
  data: QuestionData,
  f: ((a: number, b: number) => number) | null,
): ((i: number) => number) | null {
  if (!f) return null;
  const K = data.K;
  const { y, pred } = data;
  const table = new Float64Array(K * K);
  for (let c = 0; c < K * K; c++) table[c] = f(Math.floor(c / K), c % K);
  return (i) => table[y[i]! * K + pred[i]!]!;
}

/** DeLong's placements: a yes row's share of no rows below it (ties one half), a no row's of yes rows above. */
function aurocInfluence(data: NoulData, s: Sums['s'], value: number): (i: number) => number {
  const pos = s.codeCounts;
  const neg = s.codeNeg;
  let P = 0;
  let N = 0;
  for (let c = 0; c < pos.length; c++) {
    P += pos[c]!;
    N += neg[c]!;
  }
  const v10 = new Float64Array(pos.length);
  const v01 = new Float64Array(pos.length);
  let negBelow = 0;
  let posAbove = P;
  for (let c = 0; c < pos.length; c++) {
    posAbove -= pos[c]!;
    v10[c] = (negBelow + neg[c]! / 2) / N;
    v01[c] = (posAbove + pos[c]! / 2) / P;
    negBelow += neg[c]!;
  }
  const { y } = data;
  const codes = data.pCodes.codes;
  return (i) => (y[i] === 1 ? (v10[codes[i]!]! - value) / P : (v01[codes[i]!]! - value) / N);
}

/** Spearman's correlation as Pearson's over midranks: each row's influence on standardised values. */
function spearmanInfluence(data: ScoreData, s: Sums['s'], value: number): (i: number) => number {
  const n = data.n;
  const { y } = data;
  const ra = midranks(s.codeCounts);
  const rb = midranks(margins(s.m, data.K).r);
  const centre = (n + 1) / 2;
  let saa = 0;
  let sbb = 0;
  const codes = data.expectedCodes.codes;
  for (let i = 0; i < n; i++) {
    saa += (ra[codes[i]!]! - centre) ** 2;
    sbb += (rb[y[i]!]! - centre) ** 2;
  }
  const sa = Math.sqrt(saa / n);
  const sb = Math.sqrt(sbb / n);
  // Pearson's influence on standardised values: (x y − r (x² + y²) / 2) / n.
  return (i) => {
    const x = (ra[codes[i]!]! - centre) / sa;
    const z = (rb[y[i]!]! - centre) / sb;
    return (x * z - (value * (x * x + z * z)) / 2) / n;
  };
}

/**
 * Each row's influence on one figure: how the figure moves as that row weighs a little more (the derivative in the
 * row's weight), as a function of the row's position, so a figure's variance needs no array of a million numbers. Null
 * where the figure is undefined. Spearman's holds the midranks fixed (the Pearson correlation of the ranks), which is
 * what the paired difference of two runs needs.
 */
function influenceAt(data: QuestionData, key: string, sums: Sums): ((i: number) => number) | null {
  const { s, point } = sums;
  const value = point(key);
  const n = data.n;
  if (n === 0 || !Number.isFinite(value)) return null;
  const { y } = data;
  /** A figure that is the mean of a value per row: each row's value, centred. */
  const mean =
    (x: (i: number) => number): ((i: number) => number) =>
    (i) =>
      (x(i) - value) / n;
  const cell = cellInfluence(data, key, sums);
  if (cell !== undefined) return byCellInfluence(data, cell);
  switch (key) {
    case 'brier': {
      const brier = data.brier;
      return mean((i) => brier[i]!);
    }
    case 'log_loss': {
      const logLoss = data.logLoss;
      return mean((i) => logLoss[i]!);
    }
    case 'mae': {
      if (data.type !== 'score') return null;
      const expected = data.expected;
      return mean((i) => Math.abs(expected[i]! - y[i]!));
    }
    case 'ece': {
      // ECE = Σ_b |hits_b − p_b| / n: a row moves it by the sign of its bin's gap times its own gap.
      const sign = Float64Array.from({ length: data.bins }, (_, b) => Math.sign(s.sumHit[b]! - s.sumP[b]!));
      const { bin, calHit, calP } = data;
      return mean((i) => sign[bin[i]!]! * (calHit[i]! - calP[i]!));
    }
    case 'auroc':
      return data.type === 'noul' ? aurocInfluence(data, s, value) : null;
    case 'spearman':
      return data.type === 'score' ? spearmanInfluence(data, s, value) : null;
    default:
      return null;
  }
}

/** Each row's influence on one figure (influenceAt) as an array, for the paired difference of two runs. */
export function rowInfluences(
  data: QuestionData,
  key: string,
  sums: Sums = sumsOf(data),
): Float64Array | null {
  const at = influenceAt(data, key, sums);
  if (!at) return null;
  const u = new Float64Array(data.n);
  for (let i = 0; i < u.length; i++) u[i] = at(i);
  return u;
}

/** Every figure of a question with its linearised standard error, from each row's influence. */
export function linearise(data: QuestionData, sums: Sums = sumsOf(data)): Linearisation {
  const { s, point } = sums;
  const n = data.n;
  const m = s.m;
  const K = data.K;
  return {
    point,
    se: (key) => {
      if (!Number.isFinite(point(key))) return Number.NaN;
      // Figures of the confusion counts sum over its K² cells; the rest over the rows.
      const cell = cellInfluence(data, key, sums);
      if (cell !== undefined) return cell ? Math.sqrt(cellVariance(m, K, cell)) : Number.NaN;
      const u = influenceAt(data, key, sums);
      return u ? Math.sqrt(centredSquaresOf(n, u)) : Number.NaN;
    },
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
