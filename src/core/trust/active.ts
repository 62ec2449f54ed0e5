// Active statistical inference for a mean (Zrnic & Candès, "Active Statistical Inference", ICML 2024): label each row
// with a probability that grows with the judge's uncertainty, mixed with a uniform floor, and estimate the mean by
// the inverse-probability-weighted (AIPW) form
//   theta = (1/N) Σ_i [ λ f_i + (Y_i − λ f_i) ξ_i / π_i ],
// unbiased whatever π is, with a normal interval from the terms' variance. λ is power-tuned as in PPI++ (λ = 1 is the
// paper's plain form), with the predictor centred at the judge's own mean f̄ (h = f̄ + λ (f − f̄), which needs no
// label): at λ = 0 the estimate is the weighted mean about f̄, so a judge that knows nothing costs little. A labelling queue needs an order, not a single draw: rows are served by the key U_i / p_i
// (sequential Poisson sampling, Ohlsson 1998), so at any stopping point the labelled rows are those whose key lies
// below the first unlabelled row's key t, each included with probability min(1, t · p_i). Labelling every row of the
// design's budget gives exactly the paper's Bernoulli draw ξ_i ~ Ber(p_i).
import { seededRandom } from '../../contract/random';
import { Z95 } from '../alignment/intervals';
import type { MeanEstimate } from './ppi';

export { ACTIVE_FLOOR } from '../../contract/activeTarget';
import { ACTIVE_FLOOR } from '../../contract/activeTarget';

/** One row per judged row: its probability at the full budget and its key in the serving order. */
export interface ActiveDesign {
  /** p_i: the row's probability of being labelled once the budget is spent, in (0, 1]. */
  probability: Float64Array;
  /** U_i / p_i: rows are labelled in increasing key. */
  key: Float64Array;
  budget: number;
  floor: number;
  seed: number;
}

/**
 * A judge's uncertainty about one answer, from its probabilities: for yes/no the standard deviation of a yes
 * (√(p(1 − p)), largest at 0.5), for a choice 1 minus the top probability, for a score the spread (standard deviation)
 * of its levels.
 */
export function answerUncertainty(
  answer:
    | { type: 'noul'; yes: number }
    | { type: 'choice'; probabilities: readonly number[] }
    | {
        type: 'score';
        probabilities: readonly number[];
      },
): number {
  if (answer.type === 'noul') return Math.sqrt(Math.max(0, answer.yes * (1 - answer.yes)));
  if (answer.type === 'choice') return 1 - Math.max(0, ...answer.probabilities);
  let mean = 0;
  answer.probabilities.forEach((p, level) => (mean += p * level));
  let variance = 0;
  answer.probabilities.forEach((p, level) => (variance += p * (level - mean) ** 2));
  return Math.sqrt(variance);
}

/**
 * Probabilities proportional to (1 − floor) · u_i / mean(u) + floor, scaled so they sum to the budget, with any row
 * above 1 capped and its excess spread over the others (repeated until none is above 1).
 */
function cappedProbabilities(uncertainty: ArrayLike<number>, budget: number, floor: number): Float64Array {
  const N = uncertainty.length;
  let mean = 0;
  for (let i = 0; i < N; i++) mean += Math.max(0, uncertainty[i]!);
  mean /= N;
  const size = new Float64Array(N);
  for (let i = 0; i < N; i++)
    size[i] = mean > 0 ? (1 - floor) * (Math.max(0, uncertainty[i]!) / mean) + floor : 1;
  const p = new Float64Array(N);
  const capped = new Uint8Array(N);
  let left = Math.min(budget, N);
  for (;;) {
    let free = 0;
    for (let i = 0; i < N; i++) if (!capped[i]) free += size[i]!;
    let changed = false;
    for (let i = 0; i < N; i++) {
      if (capped[i]) continue;
      p[i] = (left * size[i]!) / free;
      if (p[i]! >= 1) {
        p[i] = 1;
        capped[i] = 1;
        left -= 1;
        changed = true;
      }
    }
    if (!changed || left <= 0) break;
  }
  return p;
}

/** The design for N judged rows: each row's probability at `budget` labels and its key, from a seed. */
export function activeDesign(
  uncertainty: ArrayLike<number>,
  budget: number,
  options: { floor?: number; seed?: number } = {},
): ActiveDesign {
  const floor = options.floor ?? ACTIVE_FLOOR;
  const seed = options.seed ?? 0;
  if (!(floor > 0 && floor <= 1)) throw new Error(`The uniform floor must be in (0, 1], not ${floor}.`);
  if (!(budget > 0)) throw new Error(`The label budget must be positive, not ${budget}.`);
  const probability = cappedProbabilities(uncertainty, budget, floor);
  const random = seededRandom(seed);
  const key = new Float64Array(uncertainty.length);
  for (let i = 0; i < key.length; i++) key[i] = random() / probability[i]!;
  return { probability, key, budget, floor, seed };
}

/** Row positions in the order a queue serves them (increasing key). */
export function activeOrder(design: Pick<ActiveDesign, 'key'>): Uint32Array {
  const order = Uint32Array.from(design.key, (_, i) => i);
  return order.sort((a, b) => design.key[a]! - design.key[b]! || a - b);
}

/** What the active estimate says, and what random order would have needed for the same width. */
export interface ActiveMean {
  /** Rows the judge answered, and labels the estimate used. */
  N: number;
  n: number;
  /** Labels left out because an earlier row in the order is still unlabelled (skipped or reserved). */
  beyondFrontier: number;
  /** The frontier t: a row whose key is below it was labelled, with probability min(1, t · p_i). */
  frontier: number;
  lambda: number;
  active: MeanEstimate;
  /**
   * Labels random order would need for the same standard error (PPI++ with the judge, and the classical mean), and
   * the standard errors random order would give with the same n labels.
   */
  randomEquivalent: {
    ppi: number | null;
    classical: number | null;
    seAtN: { ppi: number; classical: number };
  };
}

/** Weighted mean and variance (divided by the weights' sum) of v over the labelled rows, each weighing 1/π. */
function hajek(values: ArrayLike<number>, weights: ArrayLike<number>): { mean: number; variance: number } {
  let w = 0;
  let s = 0;
  for (let i = 0; i < values.length; i++) {
    w += weights[i]!;
    s += weights[i]! * values[i]!;
  }
  const mean = s / w;
  let v = 0;
  for (let i = 0; i < values.length; i++) v += weights[i]! * (values[i]! - mean) ** 2;
  return { mean, variance: v / w };
}

/**
 * The active estimate of a mean from every row's prediction f (the judge's probability or expected level), the design,
 * and the labels so far (row position → human value). Null with fewer than two labels inside the frontier.
 */
export function activeMean(
  f: ArrayLike<number>,
  design: Pick<ActiveDesign, 'probability' | 'key'>,
  labels: ReadonlyMap<number, number>,
  options: ActiveMeanOptions = {},
): ActiveMean | null {
  let frontier = Number.POSITIVE_INFINITY;
  for (let i = 0; i < f.length; i++)
    if (!labels.has(i) && design.key[i]! < frontier) frontier = design.key[i]!;
  const included = new Map<number, Included>();
  let beyondFrontier = 0;
  for (const [i, y] of labels) {
    if (design.key[i]! < frontier) included.set(i, { y, pi: Math.min(1, frontier * design.probability[i]!) });
    else beyondFrontier++;
  }
  const estimate = weightedActiveMean(f, included, options);
  return estimate && { ...estimate, beyondFrontier, frontier };
}

export interface ActiveMeanOptions {
  lambda?: number | null;
  z?: number;
  range?: readonly [number, number];
}

/** A label the estimate uses: the person's value and the row's probability π of having been labelled. */
export interface Included {
  y: number;
  pi: number;
}

/**
 * The active estimate from the labels used and their probabilities π (by row position), as an export carries them:
 * what activeMean computes once it has found the frontier. Null with fewer than two labels.
 */
export function weightedActiveMean(
  f: ArrayLike<number>,
  included: ReadonlyMap<number, Included>,
  options: ActiveMeanOptions = {},
): Omit<ActiveMean, 'beyondFrontier' | 'frontier'> | null {
  const N = f.length;
  const z = options.z ?? Z95;
  const range = options.range ?? [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
  if (included.size < 2) return null;
  let fBar = 0;
  for (let i = 0; i < N; i++) fBar += f[i]!;
  fBar /= N;
  // Per row: a = (f − f̄)(1 − ξ/π), b = f̄ (1 − ξ/π) + Y ξ/π; the term h + (Y − h) ξ/π is λ a + b.
  const a = new Float64Array(N);
  const b = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const label = included.get(i);
    const xiOverPi = label ? 1 / label.pi : 0;
    a[i] = (f[i]! - fBar) * (1 - xiOverPi);
    b[i] = fBar * (1 - xiOverPi) + (label ? label.y * xiOverPi : 0);
  }
  const lambda = options.lambda ?? tunedLambda(a, b);
  let sum = 0;
  for (let i = 0; i < N; i++) sum += lambda * a[i]! + b[i]!;
  const value = sum / N;
  let squares = 0;
  for (let i = 0; i < N; i++) squares += (lambda * a[i]! + b[i]! - value) ** 2;
  const se = Math.sqrt(squares / N / N);
  const active: MeanEstimate = {
    value,
    lo: Math.max(range[0], value - z * se),
    hi: Math.min(range[1], value + z * se),
    se,
  };
  return {
    N,
    n: included.size,
    lambda,
    active,
    randomEquivalent: randomEquivalent(f, included, lambda, se),
  };
}

/** λ minimising the variance of λ a + b, clipped to [0, 1] as PPI++ clips it; 0 when a never varies. */
function tunedLambda(a: Float64Array, b: Float64Array): number {
  const N = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < N; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= N;
  mb /= N;
  let cov = 0;
  let va = 0;
  for (let i = 0; i < N; i++) {
    cov += (a[i]! - ma) * (b[i]! - mb);
    va += (a[i]! - ma) ** 2;
  }
  if (!(va > 0)) return 0;
  return Math.min(1, Math.max(0, -cov / va));
}

/**
 * Labels a uniformly random order would need for standard error `se`: classical n = Var(Y) / se², and PPI++ with the
 * same λ, n = Var(Y − λ f) / (se² − λ² Var(f) / N). Both variances are estimated from the labelled rows weighted by
 * 1/π (Hájek), so they describe every row, not the uncertain ones the order favoured. Null where no n reaches se.
 */
function randomEquivalent(
  f: ArrayLike<number>,
  included: ReadonlyMap<number, Included>,
  lambda: number,
  se: number,
): ActiveMean['randomEquivalent'] {
  const N = f.length;
  const used = [...included.keys()];
  const w = used.map((i) => 1 / included.get(i)!.pi);
  const y = used.map((i) => included.get(i)!.y);
  let mf = 0;
  for (let i = 0; i < N; i++) mf += f[i]!;
  mf /= N;
  const residual = used.map((i, j) => y[j]! - lambda * (f[i]! - mf));
  let vf = 0;
  for (let i = 0; i < N; i++) vf += (f[i]! - mf) ** 2;
  vf /= N;
  const se2 = se * se;
  const classical = hajek(y, w).variance / se2;
  const room = se2 - (lambda * lambda * vf) / N;
  const ppi = room > 0 ? hajek(residual, w).variance / room : null;
  const rounded = (x: number | null): number | null =>
    x === null || !Number.isFinite(x) ? null : Math.min(N, Math.ceil(x));
  const n = used.length;
  const seAtN = {
    ppi: Math.sqrt(hajek(residual, w).variance / n + (lambda * lambda * vf) / N),
    classical: Math.sqrt(hajek(y, w).variance / n),
  };
  return { ppi: rounded(ppi), classical: rounded(classical), seAtN };
}

/** "Active order: ±0.031 with 150 labels; random order needs about 290 (PPI++) or 610 (classical) for that width." */
export function activeSavingSentence(
  estimate: Pick<ActiveMean, 'active' | 'n' | 'randomEquivalent'>,
): string {
  const half = (estimate.active.se * Z95).toFixed(3);
  const { ppi, classical } = estimate.randomEquivalent;
  const parts: string[] = [];
  if (ppi !== null) parts.push(`${ppi} with the judge (PPI++)`);
  if (classical !== null) parts.push(`${classical} without it (classical)`);
  const random = parts.length > 0 ? `random order needs about ${parts.join(' or ')} for that width` : '';
  const saved = ppi !== null ? ppi - estimate.n : null;
  const verdict =
    saved === null
      ? ''
      : saved > 0
        ? `: the order saved about ${saved} labels.`
        : ': the order saved nothing here (the judge’s uncertainty does not track its errors).';
  return `Active order: ±${half} with ${estimate.n} labels${random ? `; ${random}` : ''}${verdict || '.'}`;
}

/**
 * The next row to hand out in active order: the first at or after `cursor` that is not taken (labelled, skipped or
 * reserved). Returns the row and where it stands in the order; a caller whose taken rows are done for good (never
 * released) starts the next search there, so a queue walks its order once overall.
 */
export function nextActiveRow(
  order: Uint32Array,
  taken: (row: number) => boolean,
  cursor: number,
): { row: number | null; cursor: number } {
  let at = cursor;
  while (at < order.length && taken(order[at]!)) at++;
  return { row: at < order.length ? order[at]! : null, cursor: at };
}
