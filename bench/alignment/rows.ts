// Labelled rows for the alignment bench: a choice, a score and a noul question, answers rounded to hundredths as the
// service rounds them, and a judge that agrees with the labels most of the time. Seeded, so every run is the same.
import type { Answer, Questions } from '../../src/contract';
import { seededRandom } from '../../src/core/alignment/rng';
import type { AlignRow } from '../../src/core/alignment/types';

export const BENCH_QUESTIONS: Questions = {
  department: {
    type: 'choice',
    criteria: { billing: null, technical: null, sales: null, account: null, other: null },
  },
  frustration: { type: 'score', criteria: ['Calm', 'Mildly annoyed', 'Annoyed', 'Angry', 'Furious'] },
  is_urgent: { type: 'noul' },
};
const LABELS = Object.keys((BENCH_QUESTIONS['department'] as { criteria: object }).criteria);
const r2 = (x: number): number => Math.round(x * 100) / 100;

function distribution(random: () => number, k: number, K: number, right: boolean): number[] {
  const top = right ? k : (k + 1 + Math.floor(random() * (K - 1))) % K;
  const raw = Array.from({ length: K }, (_, i) => (i === top ? 1 + random() * 3 : random()));
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((x) => r2(x / sum));
}

/** n labelled rows (every row labelled on every question). */
export function benchRows(n: number, seed = 42): AlignRow[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const d = Math.floor(random() * LABELS.length);
    const f = Math.floor(random() * 5);
    const urgent = random() < 0.3;
    const pd = distribution(random, d, LABELS.length, random() < 0.8);
    const pf = distribution(random, f, 5, random() < 0.6);
    const answers: Record<string, Answer> = {
      department: {
        type: 'choice',
        choice: LABELS[pd.indexOf(Math.max(...pd))]!,
        confidence: 0.5,
        probabilities: Object.fromEntries(LABELS.map((l, k) => [l, pd[k]!])),
      },
      frustration: {
        type: 'score',
        score: r2(pf.reduce((s, p, k) => s + k * p, 0)),
        confidence: 0.5,
        legend: {},
        probabilities: Object.fromEntries(pf.map((p, k) => [String(k), p])),
      },
      is_urgent: { type: 'noul', noul: r2(urgent ? 0.35 + random() * 0.65 : random() * 0.65) },
    };
    return {
      id: String(i + 1),
      answers,
      labels: { department: LABELS[d]!, frustration: f, is_urgent: urgent },
    };
  });
}
