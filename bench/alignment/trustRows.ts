// Rows for the trust bench: one question with three annotators who each give the row's true label 90% of the time
// (and skip 10% of rows), a judge right more often the more confident it is (confidences in hundredths, as
// the service rounds them), a second cheaper judge for the cascade, and rows only the judges labelled. Seeded.
import { seededRandom } from '../../src/contract/random';
import { MISSING } from '../../src/core/trust/ratings';
import type { TrustData, TrustType } from '../../src/core/trust/ratings';
import type { CascadeJudgeInput } from '../../src/core/trust/cascade';

const CLASSES: Record<TrustType, string[]> = {
  choice: ['billing', 'technical', 'sales', 'account', 'other'],
  score: ['0', '1', '2', '3', '4'],
  noul: ['no', 'yes'],
};

/** A judge's prediction and confidence for a row whose true label is `truth`: right more often when confident. */
function answer(random: () => number, truth: number, K: number, skill: number): [number, number] {
  const confidence = Math.round((0.4 + 0.6 * Math.pow(random(), 1 - skill)) * 100) / 100;
  const correct = random() < Math.min(1, confidence + skill / 4);
  const label = correct ? truth : (truth + 1 + Math.floor(random() * (K - 1))) % K;
  return [label, confidence];
}

/** `labelled` rows rated by three annotators and `judgeOnly` rows the judges alone labelled. */
export function trustBenchData(
  type: TrustType,
  labelled: number,
  judgeOnly = 0,
  seed = 7,
): { data: TrustData; cheap: CascadeJudgeInput; strong: CascadeJudgeInput } {
  const random = seededRandom(seed);
  const classes = CLASSES[type];
  const K = classes.length;
  const n = labelled + judgeOnly;
  const A = 3;
  const ratings = new Int32Array(n * A).fill(MISSING);
  const judge = new Int32Array(n);
  const confidence = new Float64Array(n);
  const cheapJudge = new Int32Array(n);
  const cheapConfidence = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const truth = type === 'noul' ? (random() < 0.3 ? 1 : 0) : Math.floor(random() * K);
    if (i < labelled)
      for (let a = 0; a < A; a++) {
        if (random() < 0.1) continue;
        ratings[i * A + a] = random() < 0.9 ? truth : (truth + 1 + Math.floor(random() * (K - 1))) % K;
      }
    [judge[i], confidence[i]] = answer(random, truth, K, 0.5);
    [cheapJudge[i], cheapConfidence[i]] = answer(random, truth, K, 0.3);
  }
  const data: TrustData = {
    type,
    classes,
    annotators: ['ann_a', 'ann_b', 'ann_c'],
    ratings,
    judge,
    confidence,
  };
  return {
    data,
    cheap: { name: 'local', price: 0.0002, judge: cheapJudge, confidence: cheapConfidence },
    strong: { name: 'hosted', price: 0.002, judge, confidence },
  };
}
