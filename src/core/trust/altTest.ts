// The alternative annotator test (Calderon, Reichart & Dror 2025, arXiv 2501.10970): leave one annotator out at a
// time and ask who represents the others better, the judge or that annotator. Per row, each side's alignment with
// the others (accuracy, or negative RMSE for scores) gives the indicators W_f = [S_f >= S_h] and W_h = [S_h >= S_f];
// a one-sided paired t-test of H0: rho_f <= rho_h - epsilon on d = W_h - W_f (as the paper, and the authors' code),
// Benjamini-Yekutieli over annotators, the winning rate omega and the average advantage probability rho.
import { benjaminiYekutieli } from './multipleTesting';
import { studentTCdf } from './distributions';
import { MISSING, rowCount } from './ratings';
import type { TrustData } from './ratings';

export interface AltTestOptions {
  /** The cost-benefit margin: the judge may align up to epsilon worse and still win (0.2 by default). */
  epsilon: number;
  /** The false discovery rate of Benjamini-Yekutieli over the annotators. */
  q: number;
  minAnnotators: number;
  /** Rows an annotator must share with another annotator (and the judge) to be tested. */
  minRows: number;
  /** Ratings a row needs to take part. */
  minPerRow: number;
}

export const ALT_TEST_DEFAULTS: AltTestOptions = {
  epsilon: 0.2,
  q: 0.05,
  minAnnotators: 3,
  minRows: 30,
  minPerRow: 2,
};

export interface AltTestAnnotator {
  name: string;
  /** Rows the annotator rated with at least one other annotator, that the judge answered. */
  n: number;
  /** rho_f: the share of those rows where the judge aligns with the others at least as well as the annotator. */
  judgeAdvantage: number | null;
  /** rho_h: the share where the annotator aligns at least as well as the judge. */
  annotatorAdvantage: number | null;
  /** Mean alignment with the others: accuracy, or negative RMSE for scores. */
  judgeAlignment: number | null;
  annotatorAlignment: number | null;
  /** (mean d - epsilon) / (s / sqrt(n)); null when every d is the same (no spread: p is then 0 or 1). */
  t: number | null;
  p: number | null;
  /** H0 rejected by Benjamini-Yekutieli: the judge won against this annotator. */
  won: boolean;
  /** Why the annotator was not tested (too few rows), or null. */
  leftOut: string | null;
}

export interface AltTest {
  metric: 'accuracy' | 'neg_rmse';
  epsilon: number;
  q: number;
  /** Rows with enough ratings and an answer of the judge. */
  rows: number;
  annotators: AltTestAnnotator[];
  tested: number;
  wins: number;
  omega: number | null;
  rho: number | null;
  verdict: 'can replace' | 'cannot replace' | null;
  /** Why the verdict is what it is, or why there is none. */
  reason: string;
}

/** One-sided p-value of H0: mean d >= epsilon against mean d < epsilon, from the sums of d and d^2 over n rows. */
export function pairedTTest(
  sum: number,
  squares: number,
  n: number,
  epsilon: number,
): { t: number | null; p: number | null } {
  if (n < 2) return { t: null, p: null };
  const mean = sum / n;
  // n * sum(d^2) - sum(d)^2 is exact for integer d, so a constant d reads as no spread, not as rounding noise.
  const spread = (n * squares - sum * sum) / n / (n - 1);
  if (spread <= 0) return { t: null, p: mean < epsilon ? 0 : 1 };
  const t = (mean - epsilon) / Math.sqrt(spread / n);
  return { t, p: studentTCdf(t, n - 1) };
}

/** Per annotator, over the rows rated by enough annotators: each side against the others, leaving the annotator out. */
interface Tallies {
  rows: number;
  count: Float64Array;
  /** Judge wins, annotator wins, their difference's sum and sum of squares, and each side's alignment sums. */
  wf: Float64Array;
  wh: Float64Array;
  dSum: Float64Array;
  dSquares: Float64Array;
  sf: Float64Array;
  sh: Float64Array;
}

/** The leave-one-out tallies of every annotator against the judge, row by row. */
function tallies(data: TrustData, minPerRow: number, metric: 'accuracy' | 'neg_rmse'): Tallies {
  const A = data.annotators.length;
  const n = rowCount(data);
  const count = new Float64Array(A);
  const wf = new Float64Array(A);
  const wh = new Float64Array(A);
  const dSum = new Float64Array(A);
  const dSquares = new Float64Array(A);
  const sf = new Float64Array(A);
  const sh = new Float64Array(A);
  const classCounts = new Int32Array(data.classes.length);
  let rows = 0;
  for (let i = 0; i < n; i++) {
    const f = data.judge[i]!;
    if (f === MISSING) continue;
    let m = 0;
    let sum = 0;
    let squares = 0;
    for (let a = 0; a < A; a++) {
      const r = data.ratings[i * A + a]!;
      if (r === MISSING) continue;
      m++;
      classCounts[r]!++;
      sum += r;
      squares += r * r;
    }
    if (m >= minPerRow && m >= 2) {
      rows++;
      for (let j = 0; j < A; j++) {
        const h = data.ratings[i * A + j]!;
        if (h === MISSING) continue;
        // Each side against the others, leaving j out: counts of matches, or sums of squared differences.
        let judgeScore: number;
        let annotatorScore: number;
        if (metric === 'accuracy') {
          judgeScore = (classCounts[f]! - (f === h ? 1 : 0)) / (m - 1);
          annotatorScore = (classCounts[h]! - 1) / (m - 1);
        } else {
          const judgeSquares = m * f * f - 2 * f * sum + squares - (f - h) * (f - h);
          const annotatorSquares = m * h * h - 2 * h * sum + squares;
          judgeScore = -Math.sqrt(judgeSquares / (m - 1));
          annotatorScore = -Math.sqrt(annotatorSquares / (m - 1));
        }
        const judgeWins = judgeScore >= annotatorScore ? 1 : 0;
        const annotatorWins = annotatorScore >= judgeScore ? 1 : 0;
        const d = annotatorWins - judgeWins;
        count[j]!++;
        wf[j]! += judgeWins;
        wh[j]! += annotatorWins;
        dSum[j]! += d;
        dSquares[j]! += d * d;
        sf[j]! += judgeScore;
        sh[j]! += annotatorScore;
      }
    }
    for (let a = 0; a < A; a++) {
      const r = data.ratings[i * A + a]!;
      if (r !== MISSING) classCounts[r] = 0;
    }
  }
  return { rows, count, wf, wh, dSum, dSquares, sf, sh };
}

/** Each annotator's figures and paired t-test; one with too few rows is left out, with the reason. */
function annotatorResults(data: TrustData, t: Tallies, o: AltTestOptions): AltTestAnnotator[] {
  const { count, wf, wh, dSum, dSquares, sf, sh } = t;
  return data.annotators.map((name, j) => {
    const nj = count[j]!;
    const test = pairedTTest(dSum[j]!, dSquares[j]!, nj, o.epsilon);
    const share = (x: number): number | null => (nj === 0 ? null : x / nj);
    return {
      name,
      n: nj,
      judgeAdvantage: share(wf[j]!),
      annotatorAdvantage: share(wh[j]!),
      judgeAlignment: share(sf[j]!),
      annotatorAlignment: share(sh[j]!),
      t: test.t,
      p: test.p,
      won: false,
      leftOut:
        nj < o.minRows
          ? `${name} rated ${nj} row${nj === 1 ? '' : 's'} with another annotator; the test needs ${o.minRows}`
          : null,
    };
  });
}

/** The alt-test of the judge against the data's annotators. */
export function altTest(data: TrustData, options: Partial<AltTestOptions> = {}): AltTest {
  const o = { ...ALT_TEST_DEFAULTS, ...options };
  const A = data.annotators.length;
  const metric = data.type === 'score' ? 'neg_rmse' : 'accuracy';
  const t = tallies(data, o.minPerRow, metric);
  const rows = t.rows;
  const annotators = annotatorResults(data, t, o);
  const tested = annotators.filter((a) => a.leftOut === null && a.p !== null);
  const base = { metric, epsilon: o.epsilon, q: o.q, rows, annotators } as const;
  if (tested.length < o.minAnnotators) {
    const reason =
      A < o.minAnnotators
        ? `No verdict: ${A} annotator${A === 1 ? '' : 's'}; the alt-test needs at least ${o.minAnnotators}.`
        : `No verdict: ${tested.length} of ${A} annotators rated at least ${o.minRows} rows alongside another annotator; the alt-test needs ${o.minAnnotators}.`;
    return { ...base, tested: tested.length, wins: 0, omega: null, rho: null, verdict: null, reason };
  }
  const rejected = benjaminiYekutieli(
    tested.map((a) => a.p!),
    o.q,
  );
  tested.forEach((a, k) => (a.won = rejected[k]!));
  const wins = rejected.filter(Boolean).length;
  const omega = wins / tested.length;
  const rho = tested.reduce((s, a) => s + a.judgeAdvantage!, 0) / tested.length;
  const canReplace = omega >= 0.5;
  const reason = `The judge won against ${wins} of ${tested.length} annotators (omega ${omega.toFixed(2)} ${
    canReplace ? '>=' : '<'
  } 0.5, epsilon ${o.epsilon}, Benjamini-Yekutieli at q = ${o.q}).`;
  return {
    ...base,
    tested: tested.length,
    wins,
    omega,
    rho,
    verdict: canReplace ? 'can replace' : 'cannot replace',
    reason,
  };
}
