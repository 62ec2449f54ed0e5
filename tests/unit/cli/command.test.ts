// The real command (`bin/evaluate-workbench.mjs`) spawned against the reference service over loopback: a full run, a
// run stopped by SIGINT and one killed by SIGKILL, each resumed to completion with the results compared row by row
// with the input and every answer counted at the service; a 401; a 422 row; gates that pass and fail; JUnit parsed back.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountingReference } from '../../../bench/lib/countingReference';
import { serveCountingReference, tallyRows } from '../../../bench/lib/countingReference';
import { readResults } from '../../../src/core/rows/resultsFile';
import { DEFAULT_API_KEY } from '../../../src/server/reference/options';
import { spawnCli } from '../../helpers/cliProcess';
import type { Ran } from '../../helpers/cliProcess';
import { DEPARTMENT_QUESTION } from '../../helpers/fixtures';

const QUESTIONS = {
  ...DEPARTMENT_QUESTION,
  urgent: { type: 'noul', instructions: 'Does the customer say this is urgent?' },
};
const MESSAGES = [
  ['I was charged twice this month, please refund the second charge', 'billing'],
  ['The API answers 500 errors since your deploy this morning', 'technical'],
  ['Refund my payment, my card was charged two times', 'billing'],
  ['Your dashboard is down and the export button throws an error', 'technical'],
  ['Where can I find the holiday opening hours?', 'other'],
] as const;

let dir: string;
let reference: CountingReference;

/** A CSV of n tickets (`ticket` stays in the state so the service can count answers per row). */
function rowsCsv(n: number, prefix: string): string {
  const lines = ['ticket,message,human_department'];
  for (let i = 0; i < n; i++) {
    const [message, label] = MESSAGES[i % MESSAGES.length]!;
    lines.push(`${prefix}-${i},"${message} (order ${i})",${label}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Spawns the command; `stopAfter` sends a signal once that many result lines are in the results file. */
function runCli(
  args: string[],
  {
    key = DEFAULT_API_KEY,
    stopAfter,
    url,
  }: {
    key?: string;
    stopAfter?: { lines: number; signal: NodeJS.Signals; out: string };
    /** The service's address; default the shared counting reference. */
    url?: string;
  } = {},
): Promise<Ran> {
  return spawnCli(args, dir, { EVAL_BASE_URL: url ?? reference.url, EVAL_API_KEY: key }, stopAfter);
}

const common = (rows: string, out: string, extra: string[] = []): string[] => [
  'run',
  '--questions',
  join(dir, 'questions.json'),
  '--model',
  'model-1.13.0',
  '--rows',
  join(dir, rows),
  '--out',
  join(dir, out),
  '--target',
  'direct',
  '--map',
  'columns=ticket,message',
  '--map',
  'label.department=human_department',
  ...extra,
];

/** The settled rows of a results file, by ticket, checked against the input: every row once, answered. */
function expectComplete(out: string, prefix: string, n: number): void {
  const read = readResults(readFileSync(join(dir, out), 'utf8'));
  if (!read.ok) throw new Error(read.message);
  const rows = read.results.rows;
  expect(rows.map((r) => (r.data as { ticket: string }).ticket)).toEqual(
    Array.from({ length: n }, (_, i) => `${prefix}-${i}`),
  );
  for (const row of rows) {
    expect(row.outcome.status).toBe('done');
    expect(Object.keys(row.response!.answers).sort()).toEqual(['department', 'urgent']);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ew-cli-'));
  writeFileSync(join(dir, 'questions.json'), JSON.stringify(QUESTIONS));
  reference = await serveCountingReference({ idField: 'ticket', port: 0 });
});
afterAll(async () => {
  await reference.close();
  rmSync(dir, { recursive: true, force: true });
});

// Each test spawns Node with tsx (a second or more on a busy machine): a ceiling, not an expectation.
describe('evaluate-workbench run', { timeout: 90_000 }, () => {
  it('runs a file to the end, keeps labels out of the state, and passes a kappa gate with a summary and JUnit', async () => {
    writeFileSync(join(dir, 'full.csv'), rowsCsv(25, 'full'));
    const ran = await runCli(
      common('full.csv', 'full.jsonl', [
        '--min',
        'department.accuracy=0.5',
        '--report',
        join(dir, 'full.md'),
        '--junit',
        join(dir, 'full.xml'),
      ]),
    );
    expect(ran.stderr).toContain('Finished: every row settled (25 answered');
    expect(ran.code).toBe(0);
    expectComplete('full.jsonl', 'full', 25);
    expect(
      tallyRows(
        reference.counts(),
        Array.from({ length: 25 }, (_, i) => `full-${i}`),
      ),
    ).toEqual({
      once: 25,
      twice: 0,
      missing: [],
    });
    // The label column never reached the service: the state holds the two mapped columns only.
    const read = readResults(readFileSync(join(dir, 'full.jsonl'), 'utf8'));
    if (!read.ok) throw new Error(read.message);
    expect(read.results.header.mapping).toEqual({
      mode: 'columns',
      columns: ['ticket', 'message'],
      idColumn: null,
    });
    expect(readFileSync(join(dir, 'full.md'), 'utf8')).toMatch(
      /\| department\.accuracy ≥ 0\.5 \| [\d.]+ \| .* \| 25 \| pass \|/,
    );
    const junit = new XMLParser({ ignoreAttributes: false }).parse(
      readFileSync(join(dir, 'full.xml'), 'utf8'),
    );
    expect(junit.testsuites['@_tests']).toBe('1');
    expect(junit.testsuites['@_failures']).toBe('0');
    expect(junit.testsuites.testsuite.testcase['@_name']).toBe('department.accuracy >= 0.5');
  });

  it('ends its progress with every row settled and none left (the last line said "1 left")', async () => {
    writeFileSync(join(dir, 'left.csv'), rowsCsv(12, 'left'));
    const ran = await runCli(common('left.csv', 'left.jsonl'));
    expect(ran.code).toBe(0);
    const progress = ran.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('progress: '))
      .at(-1)!;
    expect(progress).toMatch(/^progress: 12\/12 rows · 12 answered · 0 left · /);
    expect(progress).toContain('time left -');
  });

  it('reads columns named like the questions as their labels by default, says so, and never sends them', async () => {
    const lines = ['ticket,message,department,urgent'];
    for (let i = 0; i < 6; i++) {
      const [message, label] = MESSAGES[i % MESSAGES.length]!;
      lines.push(`named-${i},"${message} (order ${i})",${label},${i % 2 ? 'yes' : 'no'}`);
    }
    writeFileSync(join(dir, 'named.csv'), `${lines.join('\n')}\n`);
    const ran = await runCli([
      'run',
      '--questions',
      join(dir, 'questions.json'),
      '--model',
      'model-1.13.0',
      '--rows',
      join(dir, 'named.csv'),
      '--out',
      join(dir, 'named.jsonl'),
      '--target',
      'direct',
    ]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain(
      '"department", "urgent" are named like questions, so read as their human labels and never sent',
    );
    const read = readResults(readFileSync(join(dir, 'named.jsonl'), 'utf8'));
    if (!read.ok) throw new Error(read.message);
    expect(read.results.header.mapping).toEqual({
      mode: 'columns',
      columns: ['ticket', 'message'],
      idColumn: null,
    });
    expect(read.results.header.labels).toEqual({ department: 'department', urgent: 'urgent' });
  });

  it('fails a gate with exit code 1, a readable summary and a JUnit failure, without sending the rows again', async () => {
    const before = reference.counts().requests;
    const ran = await runCli(
      common('full.csv', 'full.jsonl', ['--min', 'department.kappa=1.5', '--junit', join(dir, 'fail.xml')]),
    );
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/FAIL: department\.kappa is [\d.]+ \(95% CI .*\): fails ≥ 1\.5\./);
    expect(reference.counts().requests).toBe(before);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(
      readFileSync(join(dir, 'fail.xml'), 'utf8'),
    );
    expect(junit.testsuites['@_failures']).toBe('1');
    expect(junit.testsuites.testsuite.testcase.failure['@_message']).toMatch(/fails ≥ 1\.5/);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGKILL', null],
  ] as const)(
    'resumes a run stopped with %s to completion, nothing lost or answered twice',
    async (signal, code) => {
      const prefix = signal.toLowerCase();
      const n = 120;
      writeFileSync(join(dir, `${prefix}.csv`), rowsCsv(n, prefix));
      const out = join(dir, `${prefix}.jsonl`);
      const args = common(`${prefix}.csv`, `${prefix}.jsonl`, ['--rpm', '1800', '--concurrency', '4']);
      const first = await runCli(args, { stopAfter: { lines: 30, signal, out } });
      expect(first.code).toBe(code);
      const partial = readResults(readFileSync(out, 'utf8'));
      if (!partial.ok) throw new Error(partial.message);
      expect(partial.results.rows.length).toBeGreaterThanOrEqual(30);
      expect(partial.results.rows.length).toBeLessThan(n);

      const second = await runCli([...args, '--retry-unknown']);
      expect(second.code).toBe(0);
      expectComplete(`${prefix}.jsonl`, prefix, n);
      const ids = Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
      const tally = tallyRows(reference.counts(), ids);
      expect(tally.missing).toEqual([]);
      // A SIGINT lets rows in flight finish; a SIGKILL may cut at most the rows in flight (4), which were re-sent
      // on request (--retry-unknown): those are the only ones the service may have answered twice.
      expect(tally.twice).toBeLessThanOrEqual(signal === 'SIGINT' ? 0 : 4);
    },
  );

  it('ends a resumed run with rows cut off in flight as unknown: exit 4, the count, --retry-unknown named, one word per state', async () => {
    // A slow service keeps 4 rows in flight, so a SIGKILL always cuts some off after they were sent.
    const slow = await serveCountingReference({
      idField: 'ticket',
      port: 0,
      faults: { p429: 0, p529: 0, timeout: 0, reset: 0, latency: [250, 300] },
    });
    try {
      const n = 40;
      writeFileSync(join(dir, 'cut.csv'), rowsCsv(n, 'cut'));
      const out = join(dir, 'cut.jsonl');
      const args = common('cut.csv', 'cut.jsonl', ['--rpm', '6000', '--concurrency', '4']);
      const env = { url: slow.url };
      const first = await runCli(args, { stopAfter: { lines: 8, signal: 'SIGKILL', out }, ...env });
      expect(first.signal).toBe('SIGKILL');

      const resumed = await runCli(args, env);
      const read = readResults(readFileSync(out, 'utf8'));
      if (!read.ok) throw new Error(read.message);
      const unknown = read.results.rows.filter((r) => r.outcome.status === 'unknown').length;
      expect(unknown).toBeGreaterThan(0);
      expect(resumed.code).toBe(4);
      const lines = resumed.stderr.trim().split('\n');
      expect(lines.at(-1)).toBe(
        `Not finished: ${unknown} row${unknown === 1 ? '' : 's'} of ${n} have no answer, ${unknown} unknown (sent, no answer came, may have been billed) (${n - unknown} answered, 0 reused, 0 refused). Run the same command with --retry-unknown to send them again.`,
      );
      // The progress line names the same rows with the same word, and no "failed" that the last line does not say.
      const progress = lines.filter((l) => l.startsWith('progress: ')).at(-1)!;
      expect(progress).toContain(`· ${unknown} unknown ·`);
      expect(progress).not.toMatch(/failed/);

      const retried = await runCli([...args, '--retry-unknown'], env);
      expect(retried.code).toBe(0);
      expect(retried.stderr).toContain(`Finished: every row settled (${n} answered`);
      expectComplete('cut.jsonl', 'cut', n);
    } finally {
      await slow.close();
    }
  });

  it("runs a file longer than its window of rows and reuses a repeated row's answer across windows: each state sent once", async () => {
    // 6,000 rows, each message twice: the second half's rows (the last ones in a window of their own) find their
    // answers through the results file's index, not in memory.
    const n = 6000;
    const lines = ['ticket,message'];
    for (let i = 0; i < n; i++) lines.push(`w-${i},Ticket about order ${i % (n / 2)}`);
    writeFileSync(join(dir, 'windows.csv'), `${lines.join('\n')}\n`);
    // A service without the published rate limit, so 3,000 sends take seconds.
    const open = await serveCountingReference({ port: 0, rpm: 1e9, tps: 1e9 });
    const ran = await runCli(
      [
        'run',
        '--questions',
        join(dir, 'questions.json'),
        '--model',
        'model-1.13.0',
        '--rows',
        join(dir, 'windows.csv'),
        '--out',
        join(dir, 'windows.jsonl'),
        '--target',
        'direct',
        '--map',
        'text=message',
        '--map',
        'id=ticket',
        '--rpm',
        '1000000',
        '--concurrency',
        '16',
      ],
      { url: open.url },
    );
    const posts = open.counts().posts;
    await open.close();
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain(
      `Finished: every row settled (${n / 2} answered, ${n / 2} reused, 0 refused).`,
    );
    expect(posts).toBe(n / 2);
    const read = readResults(readFileSync(join(dir, 'windows.jsonl'), 'utf8'));
    if (!read.ok) throw new Error(read.message);
    expect(read.results.rows).toHaveLength(n);
    const last = read.results.rows.at(-1)!;
    expect(last.id).toBe(`w-${n - 1}`);
    expect(last.outcome.status).toBe('reused');
    expect(last.response!.answers).toEqual(read.results.rows[n / 2 - 1]!.response!.answers);
  });

  it('stops at a refused key with exit code 3 and one sentence', async () => {
    writeFileSync(join(dir, 'auth.csv'), rowsCsv(3, 'auth'));
    const ran = await runCli(common('auth.csv', 'auth.jsonl'), { key: 'not-the-key' });
    expect(ran.code).toBe(3);
    expect(ran.stderr).toMatch(/Stopped: .*(key|401)/i);
    expect(ran.stderr).not.toContain('not-the-key');
  });

  it('records a refused row (422) with the service sentence and goes on', async () => {
    const lines = [
      'ticket,message,human_department',
      'ok-1,Charged twice please refund,billing',
      `big-1,"${'word '.repeat(40_000)}",billing`,
      'ok-2,The app crashes,technical',
    ];
    writeFileSync(join(dir, 'mixed.csv'), `${lines.join('\n')}\n`);
    const ran = await runCli(common('mixed.csv', 'mixed.jsonl', ['--model', 'model-1.13']));
    // The product-line id is refused by the service for every row: each row is recorded as refused, the run ends.
    expect(ran.code).toBe(0);
    const read = readResults(readFileSync(join(dir, 'mixed.jsonl'), 'utf8'));
    if (!read.ok) throw new Error(read.message);
    const invalid = read.results.rows.filter((r) => r.outcome.status === 'invalid');
    expect(invalid.length).toBeGreaterThan(0);
    expect(invalid[0]!.outcome.error!.status).toBe(422);
    expect(invalid[0]!.outcome.error!.fieldErrors.map((f) => f.loc.join('.'))).toContain('model');
  });
});
