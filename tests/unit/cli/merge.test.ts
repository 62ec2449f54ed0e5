// `evaluate-workbench merge` and `report` on hand-made shard files: each row once (an answered line wins over a failed
// one, a second answer is kept beside the merge and counted), files of another run refused with a sentence naming the
// field, missing shards and rows named; the report of a merge reads its figures and says what is missing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/cli/inputs';
import { mergeCommand } from '../../../src/cli/merge';
import { reportCommand } from '../../../src/cli/report';
import type { ResultsHeader } from '../../../src/core/rows/resultsFile';
import { headerLine, readResults, resultLine } from '../../../src/core/rows/resultsFile';

const dir = mkdtempSync(join(tmpdir(), 'ew-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const header = (index: number, planned: number, extra: Partial<ResultsHeader> = {}): ResultsHeader => ({
  format: 'evaluate-workbench/results',
  version: 1,
  createdAt: '2026-11-26T00:00:00.000Z',
  rowsFile: 'tickets.csv',
  columns: ['id', 'message', 'human'],
  targetId: 'direct',
  model: 'model-1.13.0',
  questions: { urgent: { type: 'noul', instructions: 'Urgent?' } },
  mapping: { mode: 'text', column: 'message', idColumn: 'id' },
  labels: { urgent: 'human' },
  shard: { index, count: 3, records: 6, planned },
  ...extra,
});

const line = (n: number, status: 'done' | 'failed', p = 0.9): string =>
  resultLine({
    number: n,
    line: n + 1,
    id: `t-${n}`,
    data: { id: `t-${n}`, message: `m ${n}`, human: n % 2 ? 'yes' : 'no' },
    outcome: { status, at: 1, attempts: 1, possiblyBilledAttempts: 0, requeues: 0 },
    ...(status === 'done' && {
      response: {
        model: 'model-1.13.0',
        answers: { urgent: { type: 'noul', noul: n % 2 ? p : 1 - p } },
        usage: { input_tokens: 5, output_tokens: 0 },
      },
    }),
  });

const file = (name: string, h: ResultsHeader, lines: string[]): string => {
  const path = join(dir, name);
  writeFileSync(path, `${[headerLine(h), ...lines].join('\n')}\n`);
  return path;
};

describe('evaluate-workbench merge', () => {
  it('keeps each row once: an answered line wins over a failed one, a second answer is kept beside and counted', () => {
    const a = file('a.jsonl', header(1, 3), [line(1, 'done'), line(3, 'failed'), line(5, 'done')]);
    // Row 3 failed in shard 1 and was answered in shard 2; row 5 answered in both (another answer).
    const b = file('b.jsonl', header(2, 3), [
      line(2, 'done'),
      line(3, 'done'),
      line(5, 'done', 0.6),
      line(4, 'done'),
    ]);
    const c = file('c.jsonl', header(3, 1), [line(6, 'failed')]);
    const out = join(dir, 'merged.jsonl');
    const merged = mergeCommand({ inputs: [a, b, c], out });
    expect(merged.rows).toBe(6);
    expect(merged.answered).toBe(5);
    expect(merged.withoutAnswer).toEqual({ failed: 1 });
    expect(merged.conflicts).toBe(1);
    expect(merged.identical).toBe(0);
    expect(merged.missingShards).toEqual([]);
    expect(merged.lines).toContain(
      `Second answers: 1 conflicting answer (rows 5): the first file's answer is kept, the other answers are in ${out}.conflicts.jsonl.`,
    );
    const read = readResults(readFileSync(out, 'utf8'));
    if (!read.ok) throw new Error(read.message);
    expect(read.results.header.merged).toEqual({ count: 3, shards: [1, 2, 3], planned: 7 });
    expect(read.results.header.shard).toBeUndefined();
    expect(read.results.rows.map((r) => [r.number, r.outcome.status])).toEqual([
      [1, 'done'],
      [2, 'done'],
      [3, 'done'],
      [4, 'done'],
      [5, 'done'],
      [6, 'failed'],
    ]);
    // The kept answer of row 5 is the first file's; the other is in the conflicts file, not dropped.
    expect(read.results.rows[4]!.response!.answers.urgent).toEqual({ type: 'noul', noul: 0.9 });
    const other = readFileSync(merged.conflictsFile!, 'utf8').trim().split('\n');
    expect(other).toHaveLength(1);
    expect(JSON.parse(other[0]!).answers.urgent.noul).toBe(0.6);
  });

  it('lists second answers by row, then by file, however many files answer a row', () => {
    // Files are read one at a time; the conflicts still come out in the order of the rows.
    const a = file('k1.jsonl', header(1, 3), [line(3, 'done', 0.9), line(5, 'done', 0.9)]);
    const b = file('k2.jsonl', header(2, 3), [line(5, 'done', 0.8), line(1, 'failed')]);
    const c = file('k3.jsonl', header(3, 3), [line(5, 'done', 0.7), line(3, 'done', 0.6), line(1, 'done')]);
    const merged = mergeCommand({ inputs: [a, b, c], out: join(dir, 'three.jsonl') });
    expect(merged.conflicts).toBe(3);
    expect(merged.lines.join('\n')).toContain('3 conflicting answers (rows 3, 5, 5)');
    const other = readFileSync(merged.conflictsFile!, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(other.map((l) => [l.row, l.answers.urgent.noul])).toEqual([
      [3, 0.6],
      [5, 0.8],
      [5, 0.7],
    ]);
    // Row 1 failed in the second file and was answered in the third: the answer is kept.
    const read = readResults(readFileSync(join(dir, 'three.jsonl'), 'utf8'));
    if (!read.ok) throw new Error(read.message);
    expect(read.results.rows.map((r) => [r.number, r.outcome.status])).toEqual([
      [1, 'done'],
      [3, 'done'],
      [5, 'done'],
    ]);
  });

  it('counts a second answer identical to the first in its sentence, kept once and not in the conflicts file', () => {
    // Row 2 answered the same, byte for byte, in two files (the same answer and latency); row 4 answered differently.
    const a = file('i1.jsonl', header(1, 3), [line(1, 'done'), line(2, 'done'), line(4, 'done', 0.9)]);
    const b = file('i2.jsonl', header(2, 3), [line(2, 'done'), line(3, 'done'), line(4, 'done', 0.7)]);
    const out = join(dir, 'identical.jsonl');
    const merged = mergeCommand({ inputs: [a, b], out });
    expect(merged.identical).toBe(1);
    expect(merged.conflicts).toBe(1);
    expect(merged.rows).toBe(4);
    expect(merged.lines).toContain(
      `Second answers: 1 row answered twice identically (rows 2), kept once; 1 conflicting answer (rows 4): the first file's answer is kept, the other answers are in ${out}.conflicts.jsonl.`,
    );
    const other = readFileSync(merged.conflictsFile!, 'utf8').trim().split('\n');
    expect(other.map((l) => JSON.parse(l).row)).toEqual([4]);
  });

  it('counts identical repeats alone, with no conflicts file, when a shard is given twice', () => {
    const a = file('g1.jsonl', header(1, 2), [line(1, 'done'), line(3, 'done')]);
    const out = join(dir, 'twice.jsonl');
    const merged = mergeCommand({ inputs: [a, a], out });
    expect(merged.identical).toBe(2);
    expect(merged.conflicts).toBe(0);
    expect(merged.conflictsFile).toBeNull();
    expect(merged.lines).toContain(
      'Second answers: 2 rows answered twice identically (rows 1, 3), kept once.',
    );
  });

  it('names a missing shard and rows planned but never written', () => {
    const a = file('m1.jsonl', header(1, 3), [line(1, 'done'), line(3, 'done')]);
    const c = file('m3.jsonl', header(3, 1), [line(6, 'done')]);
    const merged = mergeCommand({ inputs: [a, c], out: join(dir, 'partial.jsonl') });
    expect(merged.complete).toBe(false);
    expect(merged.missingShards).toEqual([2]);
    expect(merged.missingRows).toBe(1);
    expect(merged.lines).toContain('Missing: shard 2/3 (no file given); run it and merge again.');
    expect(merged.lines).toContain(
      'Missing: 1 row planned by the given shards have no line in any file (not sent yet); resume those shards with the same command and merge again.',
    );
    const reported = reportCommand({ results: join(dir, 'partial.jsonl'), gates: [], strict: false });
    expect(reported.code).toBe(4);
    expect(reported.lines[0]).toMatch(/shard 2\/3 is missing, so the figures are of part of the rows\.$/);
  });

  it.each([
    [
      'model',
      { model: 'model-1.14.0' },
      /was made with the model model-1\.14\.0, .*a\.jsonl with model-1\.13\.0/,
    ],
    ['target', { targetId: 'kev' }, /with the target kev, .* with direct/],
    ['rows file', { rowsFile: 'other.csv' }, /with the rows file other\.csv, .* with tickets\.csv/],
    [
      'questions',
      { questions: { urgent: { type: 'noul', instructions: 'Is it urgent?' } } },
      /odd\.jsonl was made with other questions than .*a\.jsonl: merge only the shards of one run\.$/,
    ],
    [
      'mapping',
      { mapping: { mode: 'text', column: 'human', idColumn: 'id' } },
      /odd\.jsonl was made with another mapping of columns to the state than .*a\.jsonl: merge only/,
    ],
    [
      'label columns',
      { labels: { urgent: 'message' } },
      /odd\.jsonl was made with other label columns than .*a\.jsonl: merge only/,
    ],
  ] as const)(
    'refuses a shard of another run: a different %s, named once in a sentence that reads (not "other questions other questions")',
    (_, change, message) => {
      const a = join(dir, 'a.jsonl');
      const odd = file('odd.jsonl', header(2, 3, change as Partial<ResultsHeader>), [line(2, 'done')]);
      expect(() => mergeCommand({ inputs: [a, odd], out: join(dir, 'no.jsonl') })).toThrow(InputError);
      expect(() => mergeCommand({ inputs: [a, odd], out: join(dir, 'no.jsonl') })).toThrow(message);
    },
  );

  it('refuses shards of different counts and a whole run among shards', () => {
    const a = join(dir, 'a.jsonl');
    const four = file(
      'four.jsonl',
      { ...header(2, 3), shard: { index: 2, count: 4, records: 6, planned: 3 } },
      [],
    );
    expect(() => mergeCommand({ inputs: [a, four], out: join(dir, 'no.jsonl') })).toThrow(
      /four\.jsonl is one of 4 shards, .*a\.jsonl one of 3 shards: merge only the shards of one run\./,
    );
    const { shard: _shard, ...whole } = header(1, 3);
    const run = file('whole.jsonl', whole, []);
    expect(() => mergeCommand({ inputs: [a, run], out: join(dir, 'no.jsonl') })).toThrow(
      /whole\.jsonl is a whole run/,
    );
  });
});

describe('evaluate-workbench report', () => {
  it('gates a merge on its figures, writes the summary and JUnit, and gives the same figures as one file of the rows', () => {
    const merged = join(dir, 'merged.jsonl');
    const reported = reportCommand({
      results: merged,
      gates: [{ key: 'urgent.accuracy', kind: 'min', bound: 0.5 }],
      strict: false,
      report: join(dir, 'summary.md'),
      junit: join(dir, 'gates.xml'),
    });
    // Row 6 failed: the merge is not complete, whatever the gate says.
    expect(reported.code).toBe(4);
    expect(reported.gates[0]!.passed).toBe(true);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(/\| urgent\.accuracy ≥ 0\.5 \| 1 \|/);
    expect(readFileSync(join(dir, 'gates.xml'), 'utf8')).toContain('name="urgent.accuracy >= 0.5"');
    const { shard: _shard, ...whole } = header(1, 0);
    const one = file(
      'one.jsonl',
      whole,
      [6, 4, 2, 1, 3, 5].map((n) => line(n, n === 6 ? 'failed' : 'done')),
    );
    expect(reportCommand({ results: one, gates: [], strict: false }).figures).toEqual(reported.figures);
  });
});
