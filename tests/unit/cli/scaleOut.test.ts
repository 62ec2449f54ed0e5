// The recipes of docs/scale-out.md run on this machine: shard processes of the real command against the reference over
// loopback, started as a Kubernetes Indexed Job starts them (the shard only in JOB_COMPLETION_INDEX and SHARD_TOTAL)
// and as a CI matrix does (--shard i/n), one stopped with SIGTERM (what Kubernetes sends an evicted pod) and started
// again; then the merge and the report. The service answered every row once, and the merged figures equal one process's.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountingReference } from '../../../bench/lib/countingReference';
import { serveCountingReference, tallyRows } from '../../../bench/lib/countingReference';
import { readResults } from '../../../src/core/rows/resultsFile';
import { DEFAULT_API_KEY } from '../../../src/server/reference/options';
import { spawnCli } from '../../helpers/cliProcess';
import type { Ran } from '../../helpers/cliProcess';
import { DEPARTMENT_QUESTION } from '../../helpers/fixtures';

const ROOT = join(import.meta.dirname, '../../..');
const DOC = readFileSync(join(ROOT, 'docs/scale-out.md'), 'utf8');

const QUESTIONS = DEPARTMENT_QUESTION;
const MESSAGES = [
  ['I was charged twice this month, please refund the second charge', 'billing'],
  ['The API answers 500 errors since your deploy this morning', 'technical'],
  ['Where can I find the holiday opening hours?', 'other'],
  ['Refund my payment, my card was charged two times', 'billing'],
] as const;

let dir: string;

/** A CSV of n tickets; one label in seven disagrees with the message, so kappa is below 1. */
function rowsCsv(n: number, prefix: string): string {
  const lines = ['ticket,message,human_department'];
  for (let i = 0; i < n; i++) {
    const [message, label] = MESSAGES[i % MESSAGES.length]!;
    lines.push(`${prefix}-${i},"${message} (order ${i})",${i % 7 === 0 ? 'other' : label}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The command as a job runs it: its own environment (the key, and for an Indexed Job the shard). */
function job(
  args: string[],
  env: Record<string, string>,
  stopAfter?: { lines: number; out: string },
): Promise<Ran> {
  return spawnCli(args, dir, env, stopAfter && { ...stopAfter, signal: 'SIGTERM' });
}

const runArgs = (rows: string, out: string, shard: string[]): string[] => [
  'run',
  '--questions',
  'questions.json',
  '--model',
  'model-1.13.0',
  '--rows',
  rows,
  // The ticket stays in the state (the service counts answers by it), so rows are placed by their content.
  '--map',
  'columns=ticket,message',
  '--map',
  'label.department=human_department',
  '--rpm',
  '6000',
  '--concurrency',
  '4',
  ...shard,
  '--out',
  out,
];

const figuresOf = (stderr: string): string[] => stderr.split('\n').filter((l) => /^(pass|FAIL): /.test(l));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ew-scale-'));
  writeFileSync(join(dir, 'questions.json'), JSON.stringify(QUESTIONS));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the scale-out recipes', { timeout: 180_000 }, () => {
  let shards: CountingReference;
  let single: CountingReference;
  beforeAll(async () => {
    shards = await serveCountingReference({ idField: 'ticket', port: 0 });
    single = await serveCountingReference({ idField: 'ticket', port: 0 });
  });
  afterAll(async () => {
    await shards.close();
    await single.close();
  });

  it('Kubernetes: three pods with the shard only in the environment, one evicted and started again, then the merge Job', async () => {
    // The documented commands, so the recipe and this test cannot drift apart.
    expect(DOC).toContain('--shard env --out /work/results-$JOB_COMPLETION_INDEX.jsonl');
    expect(DOC).toContain('npx evaluate-workbench merge /work/results-*.jsonl --out /work/results.jsonl');
    const n = 180;
    const total = 3;
    writeFileSync(join(dir, 'tickets.csv'), rowsCsv(n, 'k8s'));
    const key = { EVAL_BASE_URL: shards.url, EVAL_API_KEY: DEFAULT_API_KEY };
    const pod = (index: number, stopAfter?: number): Promise<Ran> =>
      job(
        runArgs('tickets.csv', `results-${index}.jsonl`, ['--shard', 'env']),
        { ...key, JOB_COMPLETION_INDEX: String(index), SHARD_TOTAL: String(total) },
        stopAfter === undefined ? undefined : { lines: stopAfter, out: join(dir, `results-${index}.jsonl`) },
      );
    const [first, second, third] = await Promise.all([pod(0, 15), pod(1), pod(2)]);
    // SIGTERM stops the run cleanly: rows in flight finish and are recorded, exit 130.
    expect(first.code).toBe(130);
    expect(second.code).toBe(0);
    expect(third.code).toBe(0);
    expect(second.stderr).toMatch(/rows of tickets\.csv \(shard 2\/3\) go to/);
    const again = await pod(0);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/resuming .*results-0\.jsonl, where \d+ are already settled/);

    // Every row in exactly one shard file, each file's header naming its shard.
    const perShard = [0, 1, 2].map((i) => {
      const read = readResults(readFileSync(join(dir, `results-${i}.jsonl`), 'utf8'));
      if (!read.ok) throw new Error(read.message);
      expect(read.results.header.shard).toMatchObject({ index: i + 1, count: 3, records: n });
      return read.results.rows.map((r) => (r.data as { ticket: string }).ticket);
    });
    expect(perShard.flat().sort()).toEqual(Array.from({ length: n }, (_, i) => `k8s-${i}`).sort());
    for (const rows of perShard) expect(rows.length).toBeGreaterThan(n / 3 / 2);

    // The merge Job, as the recipe runs it (the shell expands the glob).
    const files = readdirSync(dir).filter((f) => /^results-\d+\.jsonl$/.test(f));
    const merged = await job(['merge', ...files, '--out', 'results.jsonl'], {});
    expect(merged.code).toBe(0);
    expect(merged.stderr).toContain(
      `Merged 3 files (3 shards of 3) into results.jsonl: ${n} rows, ${n} with an answer.`,
    );
    const reported = await job(
      [
        'report',
        'results.jsonl',
        '--min',
        'department.kappa=0.5',
        '--report',
        'summary.md',
        '--junit',
        'results.xml',
      ],
      {},
    );
    expect(reported.code).toBe(0);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(/\| department\.kappa ≥ 0\.5 \| [\d.]+ \|/);
    expect(readFileSync(join(dir, 'results.xml'), 'utf8')).toContain('failures="0"');

    // Counted at the service: every row answered exactly once across the shards and the restart.
    const ids = Array.from({ length: n }, (_, i) => `k8s-${i}`);
    expect(tallyRows(shards.counts(), ids)).toEqual({ once: n, twice: 0, missing: [] });

    // One process over the same rows, gated the same way: the same figures, to the last digit.
    const one = await job([...runArgs('tickets.csv', 'one.jsonl', []), '--min', 'department.kappa=0.5'], {
      EVAL_BASE_URL: single.url,
      EVAL_API_KEY: DEFAULT_API_KEY,
    });
    expect(one.code).toBe(0);
    expect(figuresOf(reported.stderr)).toHaveLength(1);
    expect(figuresOf(reported.stderr)).toEqual(figuresOf(one.stderr));
    const fromOne = await job(
      ['report', 'one.jsonl', '--min', 'department.kappa=0.5', '--report', 'one.md'],
      {},
    );
    const table = (file: string): string =>
      readFileSync(join(dir, file), 'utf8').slice(readFileSync(join(dir, file), 'utf8').indexOf('## Gates'));
    expect(table('one.md')).toBe(table('summary.md'));
    expect(fromOne.code).toBe(0);
  });

  it('GitHub Actions: a matrix of --shard i/n jobs, then merge and report; a missing shard is named and fails the merge', async () => {
    expect(DOC).toContain(
      '--shard ${{ matrix.shard }}/${{ strategy.job-total }} --out results-${{ matrix.shard }}.jsonl',
    );
    const n = 60;
    writeFileSync(join(dir, 'matrix.csv'), rowsCsv(n, 'gha'));
    const key = { EVAL_BASE_URL: shards.url, EVAL_API_KEY: DEFAULT_API_KEY };
    const matrix = [1, 2];
    const ran = await Promise.all(
      matrix.map((i) =>
        job(runArgs('matrix.csv', `gha-${i}.jsonl`, ['--shard', `${i}/${matrix.length}`]), key),
      ),
    );
    expect(ran.map((r) => r.code)).toEqual([0, 0]);
    const partial = await job(['merge', 'gha-1.jsonl', '--out', 'gha.jsonl'], {});
    expect(partial.code).toBe(4);
    expect(partial.stderr).toContain('Missing: shard 2/2 (no file given); run it and merge again.');
    const merged = await job(['merge', 'gha-1.jsonl', 'gha-2.jsonl', '--out', 'gha.jsonl'], {});
    expect(merged.code).toBe(0);
    const gate = await job(['report', 'gha.jsonl', '--min', 'department.kappa=0.99'], {});
    expect(gate.code).toBe(1);
    expect(gate.stderr).toMatch(/FAIL: department\.kappa is [\d.]+ .*fails ≥ 0\.99\./);
    const ids = Array.from({ length: n }, (_, i) => `gha-${i}`);
    expect(tallyRows(shards.counts(), ids)).toEqual({ once: n, twice: 0, missing: [] });
  });
});
