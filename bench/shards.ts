// Bench section "shards": a million generated rows through the real command (`bin/evaluate-workbench.mjs`, each run
// its own process) against the standalone reference (another process, no rate limit): one process over the whole file,
// killed with SIGKILL at 500,000 rows and resumed, against four `--shard i/4` processes at once on this machine. Per run:
// rows per second, RSS at most before 10,000 rows (start-up and the passes over the file), early (at 10,000 rows) and at
// most after (target: under 200 MB throughout, flat after 10,000 rows); then the time to merge the
// four shard files (a million results; target under 30 s) and to read a results file back after the kill (the resume's
// read of 500,000 lines; target under 10 s). Shard 1 is stopped with SIGTERM halfway through its rows (what Kubernetes
// sends an evicted pod) and started again, as a user's matrix would retry it. The service's tally says every row was
// answered once by the shards, the merged report gates on a kappa, and its figures are compared with the single
// process's. Each process's CPU time per row sent (from /proc) compares a shard with the one process (target: within
// 10%): shard 2 runs again alone, killed halfway and resumed like the one process, since four shards at once share
// the CPUs (their figures are printed too), and the merged file's report runs again with none, one, 5% and 50% of the rows' labels left out (its peak
// followed the share: target under 200 MB at each). SHARDS_ROWS runs a smaller file (a quick look).
import { spawn } from 'node:child_process';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChildServer } from './lib/child';
import { fetchCounts, tallyRows } from './lib/countingReference';
import { cpuMs, resultLines, rssMb } from './lib/watch';
import type { SectionResult } from './lib/section';
import { printTable } from './lib/table';
import { AnswerIndex, openResults } from '../src/cli/resultsStore';
import { readHeaderOf } from '../src/cli/resultsStream';

const ROWS = Number(process.env.SHARDS_ROWS ?? 1_000_000);
const SHARDS = 4;
const KILL_AT = Math.round(ROWS / 2);
const EARLY_AT = Math.min(10_000, Math.round(ROWS / 10));
const MAX_RSS_MB = 200;
/** RSS may rise this much after the first 10,000 rows and still count as flat (the heap settling, not growth). */
const FLAT_MB = 40;
const MAX_MERGE_S = 30;
const MAX_RESUME_READ_S = 10;
/** A shard's CPU per row sent, at most this many times one process's (issue 43). */
const MAX_CPU_RATIO = 1.1;
const BIN = fileURLToPath(new URL('../bin/evaluate-workbench.mjs', import.meta.url));
const QUESTIONS = {
  department: {
    type: 'choice',
    instructions: 'Which team should handle this ticket?',
    criteria: {
      billing: 'Payments, charges and refunds',
      technical: 'Errors, outages and bugs',
      other: null,
    },
  },
};
const TEXTS = [
  ['I was charged twice for my order and need a refund today.', 'billing'],
  ['The app crashes every time I open the settings page.', 'technical'],
  ['Where can I find your holiday opening hours?', 'other'],
  ['My payouts have failed for three days, please refund the fee.', 'billing'],
] as const;

interface Watched {
  code: number | null;
  /** When the first and the last result line appeared (ms), and how many lines the file had then. */
  firstAt: number | null;
  lastAt: number | null;
  linesAtStart: number;
  lines: number;
  /** The most RSS before EARLY_AT result lines: start-up, the passes over the rows file, the first rows. */
  rssBefore: number | null;
  rssEarly: number | null;
  rssMax: number | null;
  /** CPU time (ms, user and system) at the last poll before the process exited. */
  cpuMs: number;
  stderr: string;
}

/**
 * Runs the command, polling its results file and memory; `until` lines of the file ends the watch (a SIGKILL with
 * `kill`). Its counts and RSS are the command's own, from /proc.
 */
function runCli(
  args: string[],
  env: Record<string, string>,
  out: string,
  until: number,
  kill: NodeJS.Signals | null = null,
): Promise<Watched> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, WORKBENCH_ENV_FILE: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const start = resultLines(out);
  const watched: Watched = {
    code: null,
    firstAt: null,
    lastAt: null,
    linesAtStart: start,
    lines: start,
    rssBefore: null,
    rssEarly: null,
    rssMax: null,
    cpuMs: 0,
    stderr: '',
  };
  child.stderr.on('data', (c: Buffer) => (watched.stderr += c.toString('utf8')));
  const timer = setInterval(() => {
    const lines = resultLines(out);
    const now = performance.now();
    if (lines > watched.lines && watched.firstAt === null) watched.firstAt = now;
    if (lines > watched.lines) watched.lastAt = now;
    watched.lines = lines;
    const rss = rssMb(child.pid!);
    watched.cpuMs = cpuMs(child.pid!) ?? watched.cpuMs;
    if (rss !== null && lines - start < EARLY_AT) watched.rssBefore = Math.max(watched.rssBefore ?? 0, rss);
    if (rss !== null && lines - start >= EARLY_AT) {
      watched.rssEarly ??= rss;
      watched.rssMax = Math.max(watched.rssMax ?? 0, rss);
    }
    if (kill && lines >= until && !child.killed) child.kill(kill);
  }, 250);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearInterval(timer);
      watched.code = code;
      watched.lines = resultLines(out);
      resolve(watched);
    });
  });
}

const rate = (w: Watched): number =>
  ((w.lines - w.linesAtStart) * 1000) / Math.max(1, (w.lastAt ?? NaN) - (w.firstAt ?? NaN));

/** Runs a short command (merge, report) and times it. */
function timed(
  args: string[],
): Promise<{ code: number | null; seconds: number; stderr: string; rssMax: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, WORKBENCH_ENV_FILE: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let rssMax = 0;
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const timer = setInterval(() => (rssMax = Math.max(rssMax, rssMb(child.pid!) ?? 0)), 100);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ code, seconds: (performance.now() - started) / 1000, stderr, rssMax });
    });
  });
}

/** The shares of rows without a label the report is measured at (issue 43: the peak followed them). */
const LABEL_SHARES: { name: string; unlabelled: (row: number) => boolean }[] = [
  { name: 'none', unlabelled: () => false },
  { name: 'one row', unlabelled: (row) => row === KILL_AT },
  { name: '5%', unlabelled: (row) => row % 20 === 0 },
  { name: '50%', unlabelled: (row) => row % 2 === 0 },
];

/** A copy of a results file with the label of the chosen rows left empty (the rows file's `human` column). */
async function withoutLabels(from: string, to: string, unlabelled: (row: number) => boolean): Promise<void> {
  const out = createWriteStream(to);
  let first = true;
  for await (const line of createInterface({ input: createReadStream(from), crlfDelay: Infinity })) {
    const row = first ? 0 : Number(/^\{"row":(\d+)/.exec(line)?.[1] ?? 0);
    first = false;
    const text = row > 0 && unlabelled(row) ? line.replace(/"human":"[^"]*"/, '"human":""') : line;
    if (!out.write(`${text}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Runs the section and returns its headline figures. */
export async function run(): Promise<SectionResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ew-bench-shards-'));
  const ids = Array.from({ length: ROWS }, (_, i) => `s-${i + 1}`);
  writeFileSync(join(dir, 'questions.json'), JSON.stringify(QUESTIONS));
  const rowsFile = join(dir, 'rows.csv');
  const fd = openSync(rowsFile, 'w');
  writeSync(fd, 'row_id,text,human\n');
  for (let at = 0; at < ROWS; at += 10_000) {
    const part: string[] = [];
    for (let i = at; i < Math.min(ROWS, at + 10_000); i++) {
      const [text, label] = TEXTS[i % TEXTS.length]!;
      // One label in nine disagrees, so the kappa is a figure and not 1.
      part.push(`${ids[i]},"${text} (#${i + 1})",${i % 9 === 0 ? 'other' : label}`);
    }
    writeSync(fd, `${part.join('\n')}\n`);
  }
  closeSync(fd);
  const loadBefore = loadavg()[0]!;
  console.log(
    `shards: ${ROWS.toLocaleString('en-US')} rows (${(statSync(rowsFile).size / 1e6).toFixed(0)} MB of CSV), 1 process ` +
      `against ${SHARDS} shard processes, no rate limit, concurrency 16; machine load average ${loadBefore.toFixed(2)}, ${cpus().length} CPUs`,
  );
  const args = (out: string, extra: string[] = []): string[] => [
    'run',
    '--questions',
    join(dir, 'questions.json'),
    '--model',
    'model-1.13.0',
    '--rows',
    rowsFile,
    '--out',
    out,
    '--target',
    'direct',
    '--map',
    'columns=row_id,text',
    '--map',
    'label.department=human',
    '--rpm',
    '1000000',
    '--concurrency',
    '16',
    '--quiet',
    ...extra,
  ];
  const server = () =>
    startChildServer(fileURLToPath(new URL('./servers/rowsReference.ts', import.meta.url)), {
      ROWS_RPM: String(1e9),
      ROWS_FAULTS: '',
      ROWS_SEED: '5',
    });
  try {
    // One process, SIGKILLed halfway and resumed.
    const one = await server();
    const env = (url: string): Record<string, string> => ({
      EVAL_BASE_URL: url,
      EVAL_API_KEY: 'local-dev-key',
    });
    const oneOut = join(dir, 'one.jsonl');
    const killed = await runCli(args(oneOut), env(one.url), oneOut, KILL_AT, 'SIGKILL');
    // The resume's read of the results file, alone: what a restarted process spends before it sends again.
    const header = readHeaderOf(oneOut);
    const readStart = performance.now();
    const resumed = openResults(oneOut, header, ROWS, new AnswerIndex(ROWS));
    const resumeRead = (performance.now() - readStart) / 1000;
    const finished = await runCli(args(oneOut, ['--retry-unknown']), env(one.url), oneOut, ROWS);
    await one.stop();
    const oneSeconds =
      ((killed.lastAt ?? NaN) -
        (killed.firstAt ?? NaN) +
        (finished.lastAt ?? NaN) -
        (finished.firstAt ?? NaN)) /
      1000;
    const oneRate = (finished.lines - finished.linesAtStart + killed.lines) / oneSeconds;
    // Said as soon as it is known: a million rows take a while on a busy machine.
    console.log(
      `shards: 1 process: ${Math.round(oneRate)} rows/s; RSS ${Math.round(killed.rssEarly ?? NaN)} -> ${Math.round(killed.rssMax ?? NaN)} MB (killed at ${killed.lines}), ` +
        `${Math.round(finished.rssEarly ?? NaN)} -> ${Math.round(finished.rssMax ?? NaN)} MB (resumed, exit ${finished.code}); ` +
        `resume read ${resumeRead.toFixed(2)} s for ${resumed.settled} results; load ${loadavg()[0]!.toFixed(2)}`,
    );

    // Four shards at once, each its own process and results file.
    const many = await server();
    const shardOuts = Array.from({ length: SHARDS }, (_, i) => join(dir, `shard-${i + 1}.jsonl`));
    const started = performance.now();
    const shardArgs = (out: string, i: number): string[] => args(out, ['--shard', `${i + 1}/${SHARDS}`]);
    // Shard 1 stopped halfway with SIGTERM (rows in flight finish and are written, exit 130), then started again.
    const stopAt = Math.round(ROWS / SHARDS / 2);
    /** Shard 1: stopped, then resumed to the end; its figures are both runs' together. */
    const stopAndResume = async (out: string): Promise<{ stopped: Watched; whole: Watched }> => {
      const stopped = await runCli(shardArgs(out, 0), env(many.url), out, stopAt, 'SIGTERM');
      const resumedShard = await runCli(shardArgs(out, 0), env(many.url), out, ROWS);
      const whole = {
        ...resumedShard,
        firstAt: stopped.firstAt,
        linesAtStart: 0,
        rssBefore: Math.max(stopped.rssBefore ?? 0, resumedShard.rssBefore ?? 0),
        rssEarly: stopped.rssEarly,
        rssMax: Math.max(stopped.rssMax ?? 0, resumedShard.rssMax ?? 0),
        cpuMs: stopped.cpuMs + resumedShard.cpuMs,
      };
      return { stopped, whole };
    };
    const [first, ...others] = await Promise.all([
      stopAndResume(shardOuts[0]!),
      ...shardOuts.slice(1).map((out, i) => runCli(shardArgs(out, i + 1), env(many.url), out, ROWS)),
    ]);
    const stoppedShard = first.stopped;
    const shardRuns = [first.whole, ...others];
    const lastAt = Math.max(...shardRuns.map((w) => w.lastAt ?? NaN));
    const firstAt = Math.min(...shardRuns.map((w) => w.firstAt ?? NaN));
    const shardRows = shardRuns.reduce((sum, w) => sum + w.lines, 0);
    const shardsRate = (shardRows * 1000) / (lastAt - firstAt);
    const shardsWall = (performance.now() - started) / 1000;
    const tally = tallyRows(await fetchCounts(many.url), ids);
    await many.stop();

    // CPU per row like for like: shard 2 again, alone beside the service as the one process ran, and like it killed
    // halfway and resumed. Four shards and the service at once on this machine's CPUs pay for each other's switches
    // and caches, which is the machine's cost, not the shard's.
    const alone = await server();
    const aloneOut = join(dir, 'shard-2-alone.jsonl');
    const aloneKilled = await runCli(shardArgs(aloneOut, 1), env(alone.url), aloneOut, stopAt, 'SIGKILL');
    const aloneFinished = await runCli(
      [...shardArgs(aloneOut, 1), '--retry-unknown'],
      env(alone.url),
      aloneOut,
      ROWS,
    );
    await alone.stop();

    const merged = await timed(['merge', ...shardOuts, '--out', join(dir, 'merged.jsonl')]);
    const mergedReport = await timed(['report', join(dir, 'merged.jsonl'), '--min', 'department.kappa=0.5']);
    const oneReport = await timed(['report', oneOut, '--min', 'department.kappa=0.5']);
    // The merged file's report again with some rows' labels left out: its peak at each share.
    const labelReports: { share: string; rssMax: number; seconds: number; code: number | null }[] = [];
    for (const { name, unlabelled } of LABEL_SHARES) {
      const variant = join(dir, 'labels.jsonl');
      await withoutLabels(join(dir, 'merged.jsonl'), variant, unlabelled);
      const r = await timed(['report', variant, '--min', 'department.kappa=0.5']);
      labelReports.push({ share: name, rssMax: r.rssMax, seconds: r.seconds, code: r.code });
      rmSync(variant, { force: true });
    }
    const gateLine = (stderr: string): string =>
      stderr.split('\n').find((l) => /^(pass|FAIL)/.test(l)) ?? '(none)';
    const sameFigures = gateLine(mergedReport.stderr) === gateLine(oneReport.stderr);
    const loadAfter = loadavg()[0]!;

    const mb = (x: number | null): number => Math.round(x ?? NaN);
    // CPU per row sent: the one process's two parts together, each shard's own (shard 1's two runs together).
    const oneCpuPerRow =
      (killed.cpuMs + finished.cpuMs) / (killed.lines + finished.lines - finished.linesAtStart);
    const shardCpuPerRow = shardRuns.map((w) => w.cpuMs / Math.max(1, w.lines));
    const aloneCpuPerRow =
      (aloneKilled.cpuMs + aloneFinished.cpuMs) /
      Math.max(1, aloneKilled.lines + aloneFinished.lines - aloneFinished.linesAtStart);
    const cpuRatio = aloneCpuPerRow / oneCpuPerRow;
    const contendedRatio = Math.max(...shardCpuPerRow) / oneCpuPerRow;
    printTable(
      `shards: ${ROWS.toLocaleString('en-US')} rows through the command against the standalone reference`,
      [
        {
          run: `1 process, SIGKILL at ${KILL_AT.toLocaleString('en-US')}`,
          rows: killed.lines,
          'rows/s': Math.round(rate(killed)),
          'RSS before 10k MB': mb(killed.rssBefore),
          'RSS at 10k MB': mb(killed.rssEarly),
          'RSS max MB': mb(killed.rssMax),
          'CPU ms/row': Number((killed.cpuMs / Math.max(1, killed.lines)).toFixed(3)),
          exit: String(killed.code ?? 'killed'),
        },
        {
          run: '1 process, resumed to the end',
          rows: finished.lines - finished.linesAtStart,
          'rows/s': Math.round(rate(finished)),
          'RSS before 10k MB': mb(finished.rssBefore),
          'RSS at 10k MB': mb(finished.rssEarly),
          'RSS max MB': mb(finished.rssMax),
          'CPU ms/row': Number(
            (finished.cpuMs / Math.max(1, finished.lines - finished.linesAtStart)).toFixed(3),
          ),
          exit: String(finished.code),
        },
        ...shardRuns.map((w, i) => ({
          run:
            i === 0
              ? `shard 1/${SHARDS}, SIGTERM at ${stoppedShard.lines.toLocaleString('en-US')} (exit ${stoppedShard.code}), resumed`
              : `shard ${i + 1}/${SHARDS}`,
          rows: w.lines,
          'rows/s': Math.round(rate(w)),
          'RSS before 10k MB': mb(w.rssBefore),
          'RSS at 10k MB': mb(w.rssEarly),
          'RSS max MB': mb(w.rssMax),
          'CPU ms/row': Number(shardCpuPerRow[i]!.toFixed(3)),
          exit: String(w.code),
        })),
      ],
    );
    printTable('shards: one process against four, merge and resume', [
      { measure: 'rows/s, 1 process (both parts)', value: Math.round(oneRate) },
      { measure: `rows/s, ${SHARDS} shards together (first to last line)`, value: Math.round(shardsRate) },
      { measure: `${SHARDS} shards, wall time with start-up (s)`, value: Number(shardsWall.toFixed(1)) },
      {
        measure: 'rows answered once / twice / missing (shards, at the service)',
        value: `${tally.once} / ${tally.twice} / ${tally.missing.length}`,
      },
      {
        measure: `merge of ${SHARDS} files, ${ROWS.toLocaleString('en-US')} results (s)`,
        value: Number(merged.seconds.toFixed(1)),
      },
      { measure: 'merge RSS max (MB)', value: mb(merged.rssMax) },
      {
        measure: `resume: read back ${resumed.settled.toLocaleString('en-US')} results after the kill (s)`,
        value: Number(resumeRead.toFixed(2)),
      },
      {
        measure: 'report of the merge (s), RSS max (MB)',
        value: `${mergedReport.seconds.toFixed(1)}, ${mb(mergedReport.rssMax)}`,
      },
      { measure: "merged figures equal to one process's", value: sameFigures ? 'yes' : 'NO' },
      {
        measure: 'CPU per row (ms): 1 process (both parts) / shard 2 alone (both parts) / ratio',
        value: `${oneCpuPerRow.toFixed(3)} / ${aloneCpuPerRow.toFixed(3)} / ${cpuRatio.toFixed(2)}`,
      },
      {
        measure: `CPU per row (ms), ${SHARDS} shards at once on ${cpus().length} CPUs / ratio of the most to 1 process`,
        value: `${shardCpuPerRow.map((c) => c.toFixed(3)).join(', ')} / ${contendedRatio.toFixed(2)}`,
      },
      ...labelReports.map((r) => ({
        measure: `report of the merge, ${r.share} of the rows unlabelled: RSS max (MB), time (s)`,
        value: `${mb(r.rssMax)}, ${r.seconds.toFixed(1)}`,
      })),
      {
        measure: `machine load average, ${cpus().length} CPUs (before -> after)`,
        value: `${loadBefore.toFixed(2)} -> ${loadAfter.toFixed(2)}`,
      },
    ]);
    console.log(
      `shards: merged ${gateLine(mergedReport.stderr)}\nshards: one process ${gateLine(oneReport.stderr)}\n`,
    );
    const rssAll = [killed, finished, ...shardRuns];
    const ok =
      rssAll.every(
        (w) =>
          (w.rssMax ?? Infinity) < MAX_RSS_MB &&
          (w.rssBefore ?? 0) < MAX_RSS_MB &&
          (w.rssMax ?? 0) - (w.rssEarly ?? 0) < FLAT_MB,
      ) &&
      merged.seconds < MAX_MERGE_S &&
      merged.code === 0 &&
      resumeRead < MAX_RESUME_READ_S &&
      tally.missing.length === 0 &&
      tally.twice === 0 &&
      sameFigures &&
      finished.code === 0 &&
      stoppedShard.code === 130 &&
      mergedReport.code === 0 &&
      mergedReport.rssMax < MAX_RSS_MB &&
      labelReports.every((r) => r.rssMax < MAX_RSS_MB && r.code !== null && r.code <= 1) &&
      cpuRatio <= MAX_CPU_RATIO &&
      aloneFinished.code === 0 &&
      shardRuns.every((w) => w.code === 0);
    return {
      section: 'shards',
      ok,
      figures: {
        'rows/s 1 process': Math.round(oneRate),
        [`rows/s ${SHARDS} shards`]: Math.round(shardsRate),
        'RSS max MB': mb(Math.max(...rssAll.map((w) => Math.max(w.rssMax ?? 0, w.rssBefore ?? 0)))),
        'merge s': Number(merged.seconds.toFixed(1)),
        'report RSS max MB by unlabelled share': labelReports
          .map((r) => `${r.share} ${mb(r.rssMax)}`)
          .join('/'),
        'CPU/row shard alone:1 process': Number(cpuRatio.toFixed(2)),
        [`CPU/row ${SHARDS} shards at once:1 process`]: Number(contendedRatio.toFixed(2)),
        'resume read s': Number(resumeRead.toFixed(2)),
        load: `${loadBefore.toFixed(2)}->${loadAfter.toFixed(2)}`,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
