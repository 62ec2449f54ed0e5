// Bench section "slider": the page's own work for one key on a yes/no question's threshold slider at 100,000 labelled
// rows (three questions), before and after issue 39. Before, every question's trust panel certified its escalation
// threshold over every row and split the file by it again on each key (its memo keyed by the whole options object);
// now the worker certifies it with the report, and a key re-reads the moved question's figures from the report's
// grid. Target: one frame (16 ms) per key, median of 20 keys after 5 warm-ups. React's render of the panels is not
// in these figures (jsdom is no measure of a browser's layout); the component test counts the passes instead.
import { computeAlignment } from '../src/core/alignment/compute';
import { escalationThreshold, splitByThreshold } from '../src/core/alignment/labellingQueue';
import { alignTableOf } from '../src/core/alignment/table';
import { thresholdView } from '../src/core/alignment/thresholdView';
import type { Question } from '../src/contract';
import type { ResultRow } from '../src/core/rows/results';
import { BENCH_QUESTIONS, benchRows } from './alignment/rows';
import type { SectionResult } from './lib/section';
import { printTable } from './lib/table';

const ROWS = 100_000;
const KEYS = 20;
const WARMUP = 5;
const FRAME_MS = 16;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function run(): Promise<SectionResult> {
  const align = benchRows(ROWS);
  // The rows as the page holds them (the rows store's results), for what the trust panel read on each key.
  const results: ResultRow[] = align.map((r, i) => ({
    number: i + 1,
    line: i + 2,
    id: r.id,
    data: {},
    labels: r.labels,
    ...(r.answers
      ? { response: { model: 'model-1.0.0', answers: r.answers, usage: { input_tokens: 1 } } }
      : {}),
  }));
  const report = computeAlignment(BENCH_QUESTIONS, alignTableOf(BENCH_QUESTIONS, align), {});
  const moved = report.questions['is_urgent']!;
  const names = Object.keys(BENCH_QUESTIONS);
  const settings = { alpha: 0.1, delta: 0.1, scorePrediction: 'mostProbable' as const };

  const before = (t: number): void => {
    thresholdView(moved, t);
    for (const name of names) {
      const q = BENCH_QUESTIONS[name] as Question;
      const at = escalationThreshold(results, name, q, 2, { ...settings, noulThreshold: t });
      splitByThreshold(results, name, q, at.threshold);
    }
  };
  const after = (t: number): void => {
    thresholdView(moved, t);
  };
  const time = (work: (t: number) => void): number => {
    const ms: number[] = [];
    for (let k = 0; k < WARMUP + KEYS; k++) {
      const t0 = performance.now();
      work(0.3 + k / 100);
      if (k >= WARMUP) ms.push(performance.now() - t0);
    }
    return median(ms);
  };
  const old = time(before);
  const now = time(after);
  const ok = now <= FRAME_MS;
  printTable(`slider: the page's work per key of a threshold slider, ${ROWS.toLocaleString('en')} rows`, [
    { when: 'before (escalation certified per question per key)', ms_per_key: old.toFixed(2) },
    { when: 'now (the moved question read from the grid)', ms_per_key: now.toFixed(3) },
    { when: 'ratio before / now', ms_per_key: (old / Math.max(now, 1e-3)).toFixed(0) },
    { when: `target <= ${FRAME_MS} ms`, ms_per_key: ok ? 'met' : 'MISSED' },
  ]);
  return {
    section: 'slider',
    ok,
    figures: { 'ms per key before': Number(old.toFixed(1)), 'ms per key now': Number(now.toFixed(3)) },
  };
}
