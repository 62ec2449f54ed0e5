// Turns the judge's logits into the contract's answers: softmax, rounding to hundredths, confidence, score, legend.
import type { ChoiceAnswer, NoulAnswer, ScoreAnswer } from '../../../contract';
import { choiceConfidence, expectedScore, round2, scoreConfidence } from '../../../contract';

/** Softmax of logits at a temperature (numerically stable; a non-finite logit counts as 0). */
export function softmax(logits: ArrayLike<number>, temperature: number): number[] {
  const xs = Array.from(logits, (x) => (Number.isFinite(x) ? x / temperature : 0));
  const max = Math.max(...xs);
  const exps = xs.map((x) => Math.exp(x - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/**
 * Rounds a distribution to hundredths that sum to exactly 1 (largest remainder): each entry moves by less than 0.01,
 * so rounding drift never lands on one entry and a flat distribution over many labels stays flat.
 */
export function toHundredths(probabilities: readonly number[]): number[] {
  const scaled = probabilities.map((p) => Math.max(0, p) * 100);
  const cents = scaled.map((x) => Math.floor(x + 1e-9));
  let missing = 100 - cents.reduce((a, b) => a + b, 0);
  const order = scaled.map((x, i) => [x - cents[i]!, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; missing > 0 && k < order.length; k++, missing--) cents[order[k]![1]]! += 1;
  return cents.map((c) => c / 100);
}

/** Index of the largest value; ties go to the first. */
export function argmax(values: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

/** A choice answer: the most probable label (ties: first in criteria order), confidence and probabilities. */
export function choiceAnswer(labels: readonly string[], probabilities: readonly number[]): ChoiceAnswer {
  // Choice and confidence are read off the rounded numbers, so they agree with what the caller sees.
  const p = toHundredths(probabilities);
  return {
    type: 'choice',
    choice: labels[argmax(p)]!,
    confidence: round2(choiceConfidence(p)),
    probabilities: Object.fromEntries(labels.map((label, i) => [label, p[i]!])),
  };
}

/** A score answer: expected level, confidence, legend of the levels sent, probabilities by level index. */
export function scoreAnswer(levels: readonly string[], probabilities: readonly number[]): ScoreAnswer {
  const p = toHundredths(probabilities);
  return {
    type: 'score',
    score: round2(expectedScore(p)),
    confidence: round2(scoreConfidence(p)),
    legend: Object.fromEntries(levels.map((level, i) => [String(i), level])),
    probabilities: Object.fromEntries(p.map((x, i) => [String(i), x])),
  };
}

/** A noul answer: the probability of yes, rounded; it has no confidence. */
export function noulAnswer(probabilityYes: number): NoulAnswer {
  return { type: 'noul', noul: Math.min(1, Math.max(0, round2(probabilityYes))) };
}
