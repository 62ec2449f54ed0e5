// Bench section "reuse": 100,000 rows whose answers are already stored are answered from storage, in real Chromium
// (playwright-core, /usr/bin/chromium) on the browser's own IndexedDB, through the app's rows store, RowsRepo and
// runner built by Vite. The page runs the file once to store an answer per row, then runs it again: that second run,
// from Start to finished, is what is measured. Target: under 10 s, every row reused, nothing sent.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import type { SectionResult } from './lib/section';
import { serveDirectory } from './lib/staticServer';
import { printTable } from './lib/table';
import { EXAMPLE_REQUEST } from '../src/core/example';
import { judge } from '../src/server/reference/judge';
import type { ReuseResult } from './reuse/page';
import { MODEL, TEXTS } from './reuse/fixture';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGE_DIR = join(ROOT, 'bench/reuse');
const CHROMIUM = '/usr/bin/chromium';
const ROWS = Number(process.env.BENCH_REUSE_ROWS ?? 100_000);
const TARGET_MS = 10_000;

const seconds = (ms: number): number => Number((ms / 1000).toFixed(2));

export async function run(): Promise<SectionResult> {
  if (!existsSync(CHROMIUM)) {
    console.log(`reuse: ${CHROMIUM} is missing (.ci/run installs it); section skipped.\n`);
    return { section: 'reuse', ok: false, figures: { skipped: 'no chromium' } };
  }
  const outDir = mkdtempSync(join(tmpdir(), 'reuse-bench-'));
  try {
    await build({
      root: PAGE_DIR,
      configFile: false,
      // The page pulls in the store's module graph (React Query's 'use client' notes are noise here).
      logLevel: 'error',
      worker: { format: 'es' },
      build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 8192 },
    });
    const server = await serveDirectory(outDir);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(0);
      await page.goto(server.url);
      await page.waitForFunction(() => typeof window.runReuseBench === 'function');
      // The reference judge's answers per text (the page cannot run it: it hashes with node:crypto).
      const answers = JSON.stringify(
        Object.fromEntries(
          TEXTS.map((text) => [text, judge({ ...EXAMPLE_REQUEST, state: text, model: MODEL }, MODEL)]),
        ),
      );
      const args: [number, string] = [ROWS, answers];
      // BENCH_CPU_PROF=<dir>: the page's CPU profile of both runs, written there (open it in DevTools).
      const profileDir = process.env.BENCH_CPU_PROF;
      const cdp = profileDir ? await page.context().newCDPSession(page) : null;
      await cdp?.send('Profiler.enable');
      await cdp?.send('Profiler.start');
      const r: ReuseResult = await page.evaluate(([n, json]) => window.runReuseBench(n, json), args);
      if (cdp && profileDir) {
        const { profile } = await cdp.send('Profiler.stop');
        mkdirSync(profileDir, { recursive: true });
        writeFileSync(join(profileDir, `reuse-${Date.now()}.cpuprofile`), JSON.stringify(profile));
      }
      printTable(
        `reuse: ${ROWS.toLocaleString('en-US')} rows with stored answers, in Chromium's IndexedDB (target < ${TARGET_MS / 1000} s)`,
        [
          {
            phase: 'read and plan the file, store run 1',
            s: seconds(r.prepareMs),
            rows: r.rows,
          },
          { phase: 'run 1: answer and store every row', s: seconds(r.seedMs), rows: r.rows },
          { phase: 'store run 2 (same file)', s: seconds(r.createMs), rows: r.rows },
          {
            phase: 'run 2: every answer reused (measured)',
            s: seconds(r.reuseMs),
            rows: r.reused,
          },
        ],
      );
      console.log(`reuse: progress said "${r.progressLine}"; sent in run 2: ${r.sentInReuse}.\n`);
      const ok =
        r.reuseMs < TARGET_MS && r.reused === ROWS && r.sentInReuse === 0 && r.settledStored === ROWS;
      return {
        section: 'reuse',
        ok,
        figures: {
          rows: ROWS,
          'reuse s': seconds(r.reuseMs),
          'rows/s': Math.round(ROWS / (r.reuseMs / 1000)),
          'sent again': r.sentInReuse,
        },
      };
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
