// The trust figures' part of `npm run bench alignment` (issue 32): every figure of "Can the judge replace a person?"
// for one question of 100,000 rows by 3 annotators (ceiling with intervals, judge beside it, alt-test, certified
// threshold, a two-judge cascade, PPI) in a worker thread, target under 500 ms per question type; a file of 600
// labelled and 1,000,000 judge-only rows through the same function, and PPI alone over 1,000,000 unlabelled rows,
// target under 1 s each. Median of five rounds after three warm-ups; the worker time includes copying the rows'
// typed arrays to it and the figures back.
import { Worker } from 'node:worker_threads';
import { seededRandom } from '../../src/contract/random';
import { ppiMean } from '../../src/core/trust/ppi';
import type { TrustOptions } from '../../src/core/trust/figures';
import type { TrustData, TrustType } from '../../src/core/trust/ratings';
import { trustBenchData } from './trustRows';
import type { Cell } from '../lib/table';

const ROUNDS = 5;
const WARMUP = 3;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function startWorker(): Worker {
  // A worker thread does not inherit tsx's loader: the entry registers it, then imports the TypeScript worker.
  const entry = `import('tsx/esm/api').then((m) => { m.register(); return import(require('node:worker_threads').workerData); })`;
  return new Worker(entry, { eval: true, workerData: new URL('./trustWorker.ts', import.meta.url).href });
}

function inWorker(
  worker: Worker,
  data: TrustData,
  options: Partial<TrustOptions>,
): Promise<{ ms: number; computeMs: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    worker.once('error', reject);
    worker.once('message', (m: { computeMs: number }) => {
      worker.off('error', reject);
      resolve({ ms: performance.now() - t, computeMs: m.computeMs });
    });
    worker.postMessage({ data, options });
  });
}

/** Times the trust figures; returns the table rows, the headline figures and whether every target was met. */
export async function runTrust(): Promise<{
  rows: Record<string, Cell>[];
  figures: Record<string, number>;
  ok: boolean;
}> {
  const rows: Record<string, Cell>[] = [];
  const figures: Record<string, number> = {};
  let ok = true;
  const cases: { name: string; type: TrustType; labelled: number; judgeOnly: number; target: number }[] = [
    {
      name: 'choice, 100,000 rows x 3 annotators',
      type: 'choice',
      labelled: 100_000,
      judgeOnly: 0,
      target: 500,
    },
    {
      name: 'score, 100,000 rows x 3 annotators',
      type: 'score',
      labelled: 100_000,
      judgeOnly: 0,
      target: 500,
    },
    { name: 'noul, 100,000 rows x 3 annotators', type: 'noul', labelled: 100_000, judgeOnly: 0, target: 500 },
    {
      name: 'noul, 600 labelled + 1,000,000 judge-only',
      type: 'noul',
      labelled: 600,
      judgeOnly: 1_000_000,
      target: 1000,
    },
  ];
  const worker = startWorker();
  try {
    for (const c of cases) {
      const { data, cheap, strong } = trustBenchData(c.type, c.labelled, c.judgeOnly);
      const options: Partial<TrustOptions> = { cascade: { judges: [cheap, strong], lastAnswersAll: false } };
      for (let i = 0; i < WARMUP; i++) await inWorker(worker, data, options);
      const w: number[] = [];
      const inside: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const r = await inWorker(worker, data, options);
        w.push(r.ms);
        inside.push(r.computeMs);
      }
      const wm = median(w);
      ok &&= wm < c.target;
      rows.push({
        case: c.name,
        worker_ms: Math.round(wm),
        of_which_computing: Math.round(median(inside)),
        target_ms: c.target,
        met: wm < c.target ? 'yes' : 'NO',
      });
      figures[`trust ${c.name} (worker ms)`] = Math.round(wm);
    }
  } finally {
    await worker.terminate();
  }
  // PPI alone: a prevalence from 600 labelled rows and 1,000,000 predictions, on the main thread.
  const random = seededRandom(3);
  const y = Float64Array.from({ length: 600 }, () => (random() < 0.3 ? 1 : 0));
  const f = y.map((v) => (random() < 0.85 ? v : 1 - v));
  const fu = Float64Array.from({ length: 1_000_000 }, () => (random() < 0.32 ? 1 : 0));
  const times: number[] = [];
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const t = performance.now();
    ppiMean(y, f, fu);
    if (i >= WARMUP) times.push(performance.now() - t);
  }
  const ppi = median(times);
  ok &&= ppi < 1000;
  rows.push({
    case: 'PPI++ mean, 600 labelled + 1,000,000 unlabelled',
    worker_ms: '(main thread)',
    of_which_computing: Math.round(ppi * 10) / 10,
    target_ms: 1000,
    met: ppi < 1000 ? 'yes' : 'NO',
  });
  figures['PPI over 1,000,000 rows (ms)'] = Math.round(ppi * 10) / 10;
  return { rows, figures, ok };
}
