// Bench section "cli": the real command (`bin/evaluate-workbench.mjs`, its own process) runs 10,000 rows against the
// standalone reference (another process) at a configured 6,000 per minute. Clean, the achieved rate must be at least
// 97% of the configured one and the command's memory must stay flat (RSS growth under 50 MB); with 429/529/reset faults
// and a SIGKILL halfway, the resumed run (then --retry-unknown, as a user would) must leave no row unanswered, and the
// service's tally says how many it answered twice (at most the rows left unknown, which --retry-unknown sends again).
// A run with no pacing (against a service with no limit) comes first: what this machine can do now, so a paced rate
// below its target can be told apart from a machine too busy to reach it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChildServer } from './lib/child';
import { fetchCounts, tallyRows } from './lib/countingReference';
import { resultLines, rssMb } from './lib/watch';
import type { SectionResult } from './lib/section';
import { printTable } from './lib/table';
import { EXAMPLE_REQUEST } from '../src/core/example';
import { readResults } from '../src/core/rows/resultsFile';

const ROWS = 10_000;
const RPM = 6_000;
const CONCURRENCY = 16;
const FAULTS = '429=0.05,529=0.05,reset=0.01';
const MIN_RATE_RATIO = 0.97;
const MAX_RSS_GROWTH_MB = 50;
const BIN = fileURLToPath(new URL('../bin/evaluate-workbench.mjs', import.meta.url));
const TEXTS = [
  'I was charged twice for my order and need a refund today.',
  'The app crashes every time I open the settings page.',
  'Thanks, everything is sorted now.',
  'My payouts have failed for three days, this is the third time I write.',
];

interface Watched {
  code: number | null;
  firstAt: number | null;
  lastAt: number | null;
  /** RSS once a tenth of the rows settled, and the most seen after that. */
  rssEarly: number | null;
  rssMax: number | null;
}

/** Runs the command, polling its results file and memory every 100 ms; `killAt` SIGKILLs it at that many lines. */
function runCli(
  dir: string,
  url: string,
  out: string,
  extra: string[],
  killAt?: number,
  rpm = RPM,
): Promise<Watched> {
  const args = [
    BIN,
    'run',
    '--questions',
    join(dir, 'questions.json'),
    '--model',
    'model-1.13.0',
    '--rows',
    join(dir, 'rows.csv'),
    '--out',
    out,
    '--target',
    'direct',
    '--map',
    'columns=row_id,text',
    '--rpm',
    String(rpm),
    '--concurrency',
    String(CONCURRENCY),
    '--quiet',
    ...extra,
  ];
  const child = spawn(process.execPath, args, {
    env: {
      PATH: process.env.PATH,
      WORKBENCH_ENV_FILE: '',
      EVAL_BASE_URL: url,
      EVAL_API_KEY: 'local-dev-key',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const watched: Watched = { code: null, firstAt: null, lastAt: null, rssEarly: null, rssMax: null };
  const timer = setInterval(() => {
    const lines = resultLines(out);
    const now = performance.now();
    if (lines > 0 && watched.firstAt === null) watched.firstAt = now;
    if (lines >= ROWS && watched.lastAt === null) watched.lastAt = now;
    const rss = rssMb(child.pid!);
    if (rss !== null && lines >= ROWS / 10) {
      watched.rssEarly ??= rss;
      watched.rssMax = Math.max(watched.rssMax ?? 0, rss);
    }
    if (killAt !== undefined && lines >= killAt) child.kill('SIGKILL');
  }, 100);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearInterval(timer);
      watched.code = code;
      resolve(watched);
    });
  });
}

/** Rows whose newest line says unknown (may have been billed, no answer). */
function unknownRows(out: string): number {
  const read = readResults(readFileSync(out, 'utf8'));
  return read.ok ? read.results.rows.filter((r) => r.outcome.status === 'unknown').length : NaN;
}

/** Runs the section and returns its headline figures. */
export async function run(): Promise<SectionResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ew-bench-cli-'));
  const ids = Array.from({ length: ROWS }, (_, i) => `cli-${i + 1}`);
  writeFileSync(join(dir, 'questions.json'), JSON.stringify(EXAMPLE_REQUEST.questions));
  writeFileSync(
    join(dir, 'rows.csv'),
    `row_id,text\n${ids.map((id, i) => `${id},"${TEXTS[i % TEXTS.length]} (#${i + 1})"`).join('\n')}\n`,
  );
  console.log(
    `cli: ${ROWS} rows, configured ${RPM}/min, concurrency ${CONCURRENCY}, the command in its own process`,
  );
  const server = (faults: string, rpm = RPM * 2) =>
    startChildServer(fileURLToPath(new URL('./servers/rowsReference.ts', import.meta.url)), {
      ROWS_RPM: String(rpm),
      ROWS_FAULTS: faults,
      ROWS_SEED: '11',
    });
  try {
    // The most the pacer allows (PacingSchema) against a service that never limits: the machine's capacity now.
    const open = await server('', 1e9);
    const openRun = await runCli(dir, open.url, join(dir, 'unpaced.jsonl'), [], undefined, 1_000_000);
    await open.stop();
    const capacity = ((ROWS - 1) * 60_000) / ((openRun.lastAt ?? NaN) - (openRun.firstAt ?? NaN));

    const clean = await server('');
    const cleanRun = await runCli(dir, clean.url, join(dir, 'clean.jsonl'), []);
    const cleanTally = tallyRows(await fetchCounts(clean.url), ids);
    await clean.stop();
    const span = (cleanRun.lastAt ?? NaN) - (cleanRun.firstAt ?? NaN);
    const achieved = ((ROWS - 1) * 60_000) / span;
    const growth = (cleanRun.rssMax ?? NaN) - (cleanRun.rssEarly ?? NaN);

    const faulty = await server(FAULTS);
    const killed = await runCli(dir, faulty.url, join(dir, 'faults.jsonl'), [], ROWS / 2);
    const resumed = await runCli(dir, faulty.url, join(dir, 'faults.jsonl'), []);
    const unknownBeforeRetry = unknownRows(join(dir, 'faults.jsonl'));
    // As a user would: the rows that may have been billed are sent again on request.
    const retried = await runCli(dir, faulty.url, join(dir, 'faults.jsonl'), ['--retry-unknown']);
    const faultCounts = await fetchCounts(faulty.url);
    const faultTally = tallyRows(faultCounts, ids);
    await faulty.stop();

    printTable(
      `cli: ${ROWS.toLocaleString('en-US')} rows through the command against the standalone reference`,
      [
        {
          run: 'no pacing (capacity now)',
          'configured/min': '-',
          'achieved/min': Math.round(capacity),
          ratio: '-',
          'RSS at 10% MB': Math.round(openRun.rssEarly ?? NaN),
          'RSS max MB': Math.round(openRun.rssMax ?? NaN),
          answered: '-',
          lost: '-',
          twice: '-',
          exit: String(openRun.code),
        },
        {
          run: 'clean',
          'configured/min': RPM,
          'achieved/min': Math.round(achieved),
          ratio: Number((achieved / RPM).toFixed(3)),
          'RSS at 10% MB': Math.round(cleanRun.rssEarly ?? NaN),
          'RSS max MB': Math.round(cleanRun.rssMax ?? NaN),
          answered: cleanTally.once,
          lost: cleanTally.missing.length,
          twice: cleanTally.twice,
          exit: String(cleanRun.code),
        },
        {
          run: `${FAULTS}, SIGKILL at ${ROWS / 2}, resumed`,
          'configured/min': RPM,
          'achieved/min': '-',
          ratio: '-',
          'RSS at 10% MB': Math.round(resumed.rssEarly ?? NaN),
          'RSS max MB': Math.round(resumed.rssMax ?? NaN),
          answered: faultTally.once,
          lost: faultTally.missing.length,
          twice: faultTally.twice,
          exit: `${killed.code ?? 'killed'}, ${resumed.code}, ${retried.code}`,
        },
      ],
    );
    console.log(
      `cli: after the resume ${unknownBeforeRetry} rows were unknown (in flight at the kill, or cut by a reset) and were ` +
        `sent again with --retry-unknown; a row answered twice is one of those, answered by the service but never ` +
        `received. Under faults the service answered ${faultCounts.statuses['429'] ?? 0} 429s and ` +
        `${faultCounts.statuses['529'] ?? 0} 529s.\n`,
    );
    const ok =
      achieved / RPM >= MIN_RATE_RATIO &&
      growth < MAX_RSS_GROWTH_MB &&
      cleanTally.missing.length === 0 &&
      cleanTally.twice === 0 &&
      faultTally.missing.length === 0 &&
      faultTally.twice <= unknownBeforeRetry &&
      retried.code === 0;
    return {
      section: 'cli',
      ok,
      figures: {
        'rate ratio': Number((achieved / RPM).toFixed(3)),
        'capacity/min': Math.round(capacity),
        'RSS growth MB': Math.round(growth),
        'lost (faults+kill)': faultTally.missing.length,
        'answered twice (faults+kill)': faultTally.twice,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
