// Prevalence (a choice's every label, a noul's yes) and a score's mean level by prediction-powered inference, with the
// judge's probabilities as the predictor where the answers carry them (each label's probability for its share, the
// expected level for a score's mean, P(yes) for a noul) or its hard labels. A calibrated probability tracks the
// human label more closely than a 0/1 guess, so the interval narrows under the same guarantee (docs/trust.md).
import { Z95 } from '../alignment/intervals';
import { PpiSums, ppiOf } from './ppi';
import type { PpiMean } from './ppi';
import { MISSING } from './ratings';
import type { TrustData } from './ratings';

/** What stands for the judge in PPI: its probabilities, or its predicted (hard) labels. */
export type PpiPredictor = 'probability' | 'label';

export const PPI_PREDICTORS: readonly PpiPredictor[] = ['probability', 'label'];

/** A prevalence (choice: each label; noul: yes) or a score question's mean level. */
export interface TrustEstimate {
  what: string;
  /** A share of rows (prevalence) or a mean level (score). */
  kind: 'share' | 'mean';
  ppi: PpiMean | null;
  /** The predictor PPI used: the probabilities where asked for and the answers carry them, else the labels. */
  predictor: PpiPredictor;
}

/** The predictor the figures can use: the probabilities only where the data carries them. */
export const predictorOf = (data: TrustData, asked: PpiPredictor): PpiPredictor =>
  asked === 'probability' && data.probabilities ? 'probability' : 'label';

/**
 * PPI for each prevalence (choice: every label; noul: yes) or the mean level (score): Y the majority label on the
 * rows a person labelled and the judge answered, f the judge's prediction there and on the rows only it labelled.
 */
export function estimatesOf(
  data: TrustData,
  majority: Int32Array,
  perRow: Uint16Array,
  lambda: number | null,
  asked: PpiPredictor = 'probability',
): TrustEstimate[] {
  const predictor = predictorOf(data, asked);
  const K = data.classes.length;
  // Score: one mean over the levels; noul: the share of yes; choice: the share of every label.
  const targets = data.type === 'score' ? [-1] : data.type === 'noul' ? [1] : data.classes.map((_, k) => k);
  const sums =
    predictor === 'probability'
      ? probabilitySums(data, majority, perRow, targets)
      : labelSums(data, majority, perRow, targets);
  return targets.map((k, j) =>
    k === -1
      ? {
          what: 'Mean level',
          kind: 'mean',
          predictor,
          ppi: ppiOf(sums[j]!, lambda, Z95, [0, K - 1]),
        }
      : {
          what: `Share of ${data.classes[k]}`,
          kind: 'share',
          predictor,
          ppi: ppiOf(sums[j]!, lambda, Z95, [0, 1]),
        },
  );
}

/** A class's indicator, or (target -1) the level itself. */
const valueOf = (label: number, target: number): number => (target === -1 ? label : label === target ? 1 : 0);

/**
 * The hard labels: labels and predictions are class indices, so the rows come down to counts of each (label,
 * prediction) pair on the rows a person labelled and the judge answered, and of each prediction on the rows only the
 * judge labelled, handed to the sums as weights.
 */
function labelSums(
  data: TrustData,
  majority: Int32Array,
  perRow: Uint16Array,
  targets: readonly number[],
): PpiSums[] {
  const K = data.classes.length;
  const pairs = new Float64Array(K * K);
  const alone = new Float64Array(K);
  for (let i = 0; i < majority.length; i++) {
    if (data.judge[i] === MISSING) continue;
    if (majority[i] !== MISSING) pairs[majority[i]! * K + data.judge[i]!]! += 1;
    else if (perRow[i] === 0) alone[data.judge[i]!]! += 1;
  }
  return targets.map((t) => {
    const s = new PpiSums();
    for (let c = 0; c < K * K; c++) s.labelled(valueOf(Math.floor(c / K), t), valueOf(c % K, t), pairs[c]!);
    for (let k = 0; k < K; k++) s.unlabelled(valueOf(k, t), alone[k]!);
    return s;
  });
}

/**
 * The probabilities: one pass over the rows into each target's sums, reading the answer table's array in place (a
 * million rows of probabilities take many distinct values, so they are summed as they are read, never gathered).
 */
function probabilitySums(
  data: TrustData,
  majority: Int32Array,
  perRow: Uint16Array,
  targets: readonly number[],
): PpiSums[] {
  const { p, width } = data.probabilities!;
  const sums = targets.map(() => new PpiSums());
  const score = data.type === 'score';
  for (let i = 0; i < majority.length; i++) {
    if (data.judge[i] === MISSING) continue;
    const labelled = majority[i] !== MISSING;
    if (!labelled && perRow[i] !== 0) continue;
    const at = i * width;
    for (let j = 0; j < targets.length; j++) {
      const t = targets[j]!;
      let f: number;
      if (score) {
        // The expected level: each level weighted by its probability.
        f = 0;
        for (let k = 0; k < width; k++) f += k * p[at + k]!;
      } else f = p[at + (width === 1 ? 0 : t)]!;
      if (labelled) sums[j]!.labelled(valueOf(majority[i]!, t), f);
      else sums[j]!.unlabelled(f);
    }
  }
  return sums;
}
