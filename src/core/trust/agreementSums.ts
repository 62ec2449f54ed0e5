// Every agreement figure of the ceiling as a function of sums that add up over rows: confusion matrices (each pair of
// annotators, the judge against the majority and against each annotator), the coincidence matrix of alpha and the
// sums of Fleiss' kappa. Each row pattern adds a short sparse vector to them, so the estimate, a bootstrap resample
// (patterns counted by their draws) and a row's influence (the gradient of a figure in the sums, dotted with the
// row's vector) all read one definition: `evaluate`.
import { kappaOf, quadraticWeights } from '../alignment/kappa';
import { fleissFromSums, fleissUnits } from './fleiss';
import { alphaOf, unitCoincidences } from './krippendorff';
import type { AlphaMetric } from './krippendorff';
import { annotatorColumn, cellsOf } from './pairwise';
import type { Patterns } from './patterns';
import { majorityOf } from './ratings';
import type { TrustData } from './ratings';

type Block = { start: number; length: number };

export interface AgreementSums {
  K: number;
  A: number;
  /** Figure names in the order `evaluate` writes them. */
  keys: string[];
  metrics: AlphaMetric[];
  pairs: { a: number; b: number }[];
  size: number;
  /** Each pattern's sparse vector: entries start[p]..start[p+1) of (index, value). */
  start: Uint32Array;
  index: Uint32Array;
  value: Float64Array;
  /** Confusion blocks in key order: the pairs, the judge against the majority, against each annotator. */
  confusions: Block[];
  coincidence: Block;
  /** N, the sum of P_i, then the K category counts. */
  fleiss: Block;
  kappaWeights: Float64Array | undefined;
  /** The majority label of each pattern. */
  majority: Int32Array;
}

export function agreementSums(data: TrustData, patterns: Patterns, metrics: AlphaMetric[]): AgreementSums {
  const { A, K } = patterns;
  const P = patterns.count.length;
  const view: TrustData = {
    ...data,
    ratings: patterns.ratings,
    judge: patterns.judge,
    confidence: new Float64Array(P),
  };
  const majority = majorityOf(view);
  const columns = Array.from({ length: A }, (_, a) => annotatorColumn(patterns, a));
  const pairs: { a: number; b: number }[] = [];
  for (let a = 0; a < A; a++) for (let b = a + 1; b < A; b++) pairs.push({ a, b });
  const cells = [
    ...pairs.map(({ a, b }) => cellsOf(columns[a]!, columns[b]!, K)),
    cellsOf(majority, patterns.judge, K),
    ...columns.map((column) => cellsOf(column, patterns.judge, K)),
  ];
  const confusions = cells.map((_, c) => ({ start: c * K * K, length: K * K }));
  const coincidence = { start: cells.length * K * K, length: K * K };
  const fleiss = { start: coincidence.start + K * K, length: K + 2 };
  const units = unitCoincidences(patterns.ratings, A, K);
  const fu = fleissUnits(patterns.ratings, A, K);
  const start = new Uint32Array(P + 1);
  const index: number[] = [];
  const value: number[] = [];
  for (let p = 0; p < P; p++) {
    start[p] = index.length;
    cells.forEach((c, k) => {
      if (c[p]! < 0) return;
      index.push(confusions[k]!.start + c[p]!);
      value.push(1);
    });
    for (let e = units.start[p]!; e < units.start[p + 1]!; e++) {
      index.push(coincidence.start + units.cell[e]!);
      value.push(units.value[e]!);
    }
    if (fu.complete[p] === 1) {
      index.push(fleiss.start, fleiss.start + 1);
      value.push(1, fu.agreement[p]!);
      for (let e = fu.start[p]!; e < fu.start[p + 1]!; e++) {
        index.push(fleiss.start + 2 + fu.category[e]!);
        value.push(fu.count[e]!);
      }
    }
  }
  start[P] = index.length;
  const keys = [
    ...metrics.map((m) => `alpha.${m}`),
    'fleiss',
    'pairwise',
    ...pairs.map(({ a, b }) => `pair.${a}.${b}`),
    'judge.majority',
    ...columns.map((_, a) => `judge.${a}`),
  ];
  return {
    K,
    A,
    keys,
    metrics,
    pairs,
    size: fleiss.start + fleiss.length,
    start,
    index: Uint32Array.from(index),
    value: Float64Array.from(value),
    confusions,
    coincidence,
    fleiss,
    kappaWeights: data.type === 'score' && K > 1 ? quadraticWeights(K) : undefined,
    majority,
  };
}

/** The sums of the patterns, each counted weights[p] times. */
export function sumsOf(
  s: AgreementSums,
  weights: ArrayLike<number>,
  into = new Float64Array(s.size),
): Float64Array {
  into.fill(0);
  for (let p = 0; p + 1 < s.start.length; p++) {
    const w = weights[p]!;
    if (w === 0) continue;
    for (let e = s.start[p]!; e < s.start[p + 1]!; e++) into[s.index[e]!]! += w * s.value[e]!;
  }
  return into;
}

const view = (S: Float64Array, b: Block): Float64Array => S.subarray(b.start, b.start + b.length);

const kappaAt = (s: AgreementSums, S: Float64Array, c: number): number | null =>
  kappaOf(view(S, s.confusions[c]!), s.K, s.kappaWeights);

const alphaAt = (s: AgreementSums, S: Float64Array, metric: AlphaMetric): number | null =>
  alphaOf(view(S, s.coincidence), s.K, metric);

const fleissAt = (s: AgreementSums, S: Float64Array): number | null => {
  const f = view(S, s.fleiss);
  return fleissFromSums(f[0]!, f[1]!, f.subarray(2), s.A);
};

/** Every figure from the sums, in key order (NaN where undefined). */
export function evaluate(s: AgreementSums, S: Float64Array, out: Float64Array): void {
  let at = 0;
  const put = (v: number | null): void => void (out[at++] = v === null ? Number.NaN : v);
  for (const metric of s.metrics) put(alphaAt(s, S, metric));
  put(fleissAt(s, S));
  const pairKappas = s.pairs.map((_, c) => kappaAt(s, S, c));
  const defined = pairKappas.filter((k): k is number => k !== null);
  put(defined.length === 0 ? null : defined.reduce((x, y) => x + y, 0) / defined.length);
  for (const k of pairKappas) put(k);
  for (let c = s.pairs.length; c < s.confusions.length; c++) put(kappaAt(s, S, c));
}

/** d f / d S over one block by central differences (one row each way: the figures are smooth in counts that large). */
function blockGradient(S: Float64Array, b: Block, f: () => number | null, into: Float64Array): void {
  for (let j = b.start; j < b.start + b.length; j++) {
    const keep = S[j]!;
    S[j] = keep + 0.5;
    const up = f();
    S[j] = keep - 0.5;
    const down = f();
    S[j] = keep;
    into[j] = up === null || down === null ? Number.NaN : up - down;
  }
}

/**
 * Each pattern's influence on every figure (the figure's gradient in the sums, dotted with the pattern's vector), as
 * keys.length rows of P values; NaN where the figure is undefined.
 */
export function influences(s: AgreementSums, S: Float64Array): Float64Array[] {
  const gradients = s.keys.map(() => new Float64Array(s.size));
  const at = (key: string): Float64Array => gradients[s.keys.indexOf(key)]!;
  s.metrics.forEach((metric) =>
    blockGradient(S, s.coincidence, () => alphaAt(s, S, metric), at(`alpha.${metric}`)),
  );
  blockGradient(S, s.fleiss, () => fleissAt(s, S), at('fleiss'));
  s.confusions.forEach((b, c) => {
    const key =
      c < s.pairs.length
        ? `pair.${s.pairs[c]!.a}.${s.pairs[c]!.b}`
        : s.keys[s.keys.length - s.confusions.length + c]!;
    blockGradient(S, b, () => kappaAt(s, S, c), at(key));
  });
  // The mean pairwise kappa moves by the mean of the defined pairs' moves.
  const defined = s.pairs.map((_, c) => c).filter((c) => kappaAt(s, S, c) !== null);
  const mean = at('pairwise');
  if (defined.length === 0) mean.fill(Number.NaN);
  for (const c of defined) {
    const g = at(`pair.${s.pairs[c]!.a}.${s.pairs[c]!.b}`);
    const b = s.confusions[c]!;
    for (let j = b.start; j < b.start + b.length; j++) mean[j] = g[j]! / defined.length;
  }
  const P = s.start.length - 1;
  return gradients.map((g) => {
    const d = new Float64Array(P);
    for (let p = 0; p < P; p++)
      for (let e = s.start[p]!; e < s.start[p + 1]!; e++) d[p]! += g[s.index[e]!]! * s.value[e]!;
    return d;
  });
}

/** The linearised standard error: sqrt of the sum over rows of the squared centred influences. */
export function influenceSe(d: Float64Array, count: Float64Array): number {
  let n = 0;
  let sum = 0;
  for (let p = 0; p < d.length; p++) {
    if (count[p] === 0) continue;
    n += count[p]!;
    sum += count[p]! * d[p]!;
  }
  if (n === 0) return Number.NaN;
  const mean = sum / n;
  let v = 0;
  for (let p = 0; p < d.length; p++) if (count[p]! > 0) v += count[p]! * (d[p]! - mean) ** 2;
  return Math.sqrt(v);
}
