// Bench section "alignment": every alignment figure of 100,000 labelled rows (three questions; intervals linearised
// above 20,000 rows, as the app computes them) in a worker thread, as the app does, and 1,000 bootstrap resamples of
// 10,000 rows; each side by side with the same computation on the main thread. Targets: under 200 ms and under 1 s
// in the worker (median of five measured rounds, after five warm-ups; the worker time includes copying the rows' table
// to it and the report back). The page's own share, building the table from its rows, is measured beside it. The
// trust figures of issue 32 follow (bench/alignment/trust.ts).
import { Worker } from 'node:worker_threads';
import { computeAlignment } from '../src/core/alignment/compute';
import { LINEARISED_ABOVE } from '../src/core/alignment/linearised';
import { alignTableOf, packTable } from '../src/core/alignment/table';
import type { AlignTable } from '../src/core/alignment/table';
import type { AlignmentOptions } from '../src/core/alignment/types';
import { BENCH_QUESTIONS, benchRows } from './alignment/rows';
import type { SectionResult } from './lib/section';
import { printTable } from './lib/table';
import { runTrust } from './alignment/trust';

const ROUNDS = 5;
// A recompute is what the screen does as labels arrive, in a worker that has computed before: measured once the JIT
// has settled (about five runs of 100,000 rows here); the first computation in a new worker is shown beside it.
const WARMUP = 5;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function startWorker(): Worker {
  // A worker thread does not inherit tsx's loader: the entry registers it, then imports the TypeScript worker.
  const entry = `import('tsx/esm/api').then((m) => { m.register(); return import(require('node:worker_threads').workerData); })`;
  return new Worker(entry, {
    eval: true,
    workerData: new URL('./alignment/worker.ts', import.meta.url).href,
  });
}

function inWorker(
  worker: Worker,
  table: AlignTable,
  options: Partial<AlignmentOptions>,
): Promise<{ ms: number; B: number; computeMs: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    // The error listener goes with its reply, so rounds do not pile listeners up on the worker.
    worker.once('error', reject);
    worker.once('message', (m: { report: { bootstrap: { B: number } }; computeMs: number }) => {
      worker.off('error', reject);
      resolve({ ms: performance.now() - t, B: m.report.bootstrap.B, computeMs: m.computeMs });
    });
    worker.postMessage({ questions: BENCH_QUESTIONS, table: packTable(table), options });
  });
}

function onMain(table: AlignTable, options: Partial<AlignmentOptions>): { ms: number; B: number } {
  const t = performance.now();
  const report = computeAlignment(BENCH_QUESTIONS, table, options);
  return { ms: performance.now() - t, B: report.bootstrap.B };
}

export async function run(): Promise<SectionResult> {
  const cases = [
    { name: 'all figures, 100,000 rows', rows: benchRows(100_000), options: {}, target: 200 },
    {
      name: '1,000 resamples, 10,000 rows',
      rows: benchRows(10_000),
      options: { bootstrap: { B: 1000, seed: 1 } },
      target: 1000,
    },
  ].map((c) => ({ ...c, table: alignTableOf(BENCH_QUESTIONS, c.rows) }));
  const table: Record<string, string | number>[] = [];
  const figures: Record<string, number | string> = {};
  let ok = true;
  for (const c of cases) {
    // A fresh worker per case: its first computation is the screen's first, before the JIT has seen the code.
    const worker = startWorker();
    try {
      const first = await inWorker(worker, c.table, c.options);
      for (let i = 0; i < WARMUP; i++) {
        await inWorker(worker, c.table, c.options);
        onMain(c.table, c.options);
      }
      const w: number[] = [];
      const m: number[] = [];
      const page: number[] = [];
      const inside: number[] = [];
      let B = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const a = await inWorker(worker, c.table, c.options);
        w.push(a.ms);
        inside.push(a.computeMs);
        B = a.B;
        m.push(onMain(c.table, c.options).ms);
        const t = performance.now();
        alignTableOf(BENCH_QUESTIONS, c.rows);
        page.push(performance.now() - t);
      }
      const wm = median(w);
      const mm = median(m);
      ok &&= wm < c.target;
      table.push({
        case: c.name,
        intervals:
          c.rows.length > LINEARISED_ABOVE && c.options.bootstrap === undefined
            ? 'linearised'
            : `bootstrap B=${B}`,
        worker_ms: Math.round(wm),
        of_which_computing: Math.round(median(inside)),
        first_in_a_new_worker_incl_loading_ms: Math.round(first.ms),
        main_thread_ms: Math.round(mm),
        page_table_ms: Math.round(median(page)),
        ratio: wm / mm,
        target_ms: c.target,
        met: wm < c.target ? 'yes' : 'NO',
      });
      figures[`${c.name} (worker ms)`] = Math.round(wm);
    } finally {
      await worker.terminate();
    }
  }
  printTable('alignment: figures off the main thread against on it', table);
  const trust = await runTrust();
  printTable('alignment: can the judge replace a person? (trust figures, issue 32)', trust.rows);
  return { section: 'alignment', ok: ok && trust.ok, figures: { ...figures, ...trust.figures } };
}
