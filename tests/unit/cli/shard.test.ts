// Shards and streams of the command line, pure or on small files: `--shard` read from its forms and the environment,
// rows placed by their identity (never their line), every row in exactly one shard; the rows file read as a stream
// gives what the whole-text parsers give; a JSON array above the size is refused with a sentence.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/cli/inputs';
import { csvHeaderColumns, eachBatch, openRowsSource } from '../../../src/cli/rowsStream';
import { inShard, parseShard, shardIdentity, shardOf } from '../../../src/cli/shard';
import type { RowMapping } from '../../../src/core/rows/mapping';
import { sha256HexSync } from '../../../src/core/rows/dedup';
import { detectFormat, parseRowsText } from '../../../src/core/rows/parse';
import type { SourceRow } from '../../../src/core/rows/parse';

const dir = mkdtempSync(join(tmpdir(), 'ew-shard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--shard', () => {
  it('reads i/n counted from 1, and refuses what is not a shard with a sentence', () => {
    expect(parseShard('2/4', {})).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ', {})).toEqual({ index: 1, count: 1 });
    expect(() => parseShard('0/4', {})).toThrow('--shard 0/4: the shard must be from 1 to 4.');
    expect(() => parseShard('5/4', {})).toThrow(/from 1 to 4/);
    expect(() => parseShard('2', {})).toThrow(InputError);
    expect(() => parseShard('2', {})).toThrow(/write i\/n \(for example 2\/4, counted from 1\)/);
  });

  it('reads env from JOB_COMPLETION_INDEX (from 0) and the total from --shard-total or SHARD_TOTAL', () => {
    expect(parseShard('env', { JOB_COMPLETION_INDEX: '0', SHARD_TOTAL: '4' })).toEqual({
      index: 1,
      count: 4,
    });
    expect(parseShard('env', { JOB_COMPLETION_INDEX: '3' }, '4')).toEqual({ index: 4, count: 4 });
    expect(parseShard('env', { SHARD_INDEX: '1', SHARD_TOTAL: '2' })).toEqual({ index: 2, count: 2 });
    expect(() => parseShard('env', { SHARD_TOTAL: '4' })).toThrow(/JOB_COMPLETION_INDEX .* neither is set/);
    expect(() => parseShard('env', { JOB_COMPLETION_INDEX: '1' })).toThrow(
      /pass --shard-total <n> or set SHARD_TOTAL/,
    );
    expect(() => parseShard('env', { JOB_COMPLETION_INDEX: '4', SHARD_TOTAL: '4' })).toThrow(
      'JOB_COMPLETION_INDEX is 4, but there are 4 shards (indexes 0 to 3).',
    );
    expect(() => parseShard('env', { JOB_COMPLETION_INDEX: 'x', SHARD_TOTAL: '4' })).toThrow(
      /not a whole number/,
    );
  });
});

const withId: RowMapping = { mode: 'text', column: 'message', idColumn: 'id' };
const noId: RowMapping = { mode: 'text', column: 'message', idColumn: null };
const rowsOf = (n: number): SourceRow[] =>
  Array.from({ length: n }, (_, i) => ({
    number: i + 1,
    line: i + 2,
    data: { id: `t-${i}`, message: `message ${i}`, label: i % 2 ? 'a' : 'b' },
  }));

describe('the shard of a row', () => {
  it('puts every row in exactly one shard, spread across them', () => {
    const rows = rowsOf(4000);
    const sizes = [1, 2, 3, 4].map(
      (index) => rows.filter((r) => inShard(r, withId, { index, count: 4 })).length,
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(4000);
    for (const size of sizes) expect(size).toBeGreaterThan(850);
  });

  it('follows the id, not the line: a re-sorted or edited file keeps each row in its shard', () => {
    const rows = rowsOf(500);
    const before = new Map(
      rows.map((r) => [(r.data as { id: string }).id, shardOf(shardIdentity(r, withId), 4)]),
    );
    // Reversed, renumbered, and the message and label edited: the id decides.
    const moved = [...rows].reverse().map((r, i) => ({
      number: i + 1,
      line: i + 2,
      data: { ...(r.data as { id: string }), message: 'edited', label: 'c' },
    }));
    for (const r of moved) expect(shardOf(shardIdentity(r, withId), 4)).toBe(before.get(r.data.id));
  });

  it("places a row by the first 32 bits of the core's SHA-256 of its identity, so a shard resumed across versions keeps its rows", () => {
    // Node's hash replaced the core's JavaScript one in shardOf (every shard hashes every row): the shards must not move.
    for (const identity of ['id:t-0', 'id:ünïcødé ✓', 'state:"message 0"', `state:${'x'.repeat(300)}`])
      for (const count of [2, 3, 4, 7])
        expect(shardOf(identity, count)).toBe(
          (Number.parseInt(sha256HexSync(new TextEncoder().encode(identity)).slice(0, 8), 16) % count) + 1,
        );
  });

  it('follows the state when there is no id column: a label edit does not move a row, a state edit may', () => {
    const [row] = rowsOf(1);
    const relabelled = { ...row!, number: 9, line: 40, data: { ...(row!.data as object), label: 'z' } };
    expect(shardIdentity(relabelled, noId)).toBe(shardIdentity(row!, noId));
    expect(shardIdentity(row!, noId)).toBe('state:"message 0"');
    // A blank id falls back to the state.
    const blank = { ...row!, data: { id: '  ', message: 'message 0' } };
    expect(shardIdentity(blank, withId)).toBe('state:"message 0"');
    expect(shardIdentity(row!, withId)).toBe('id:t-0');
  });
});

describe("a CSV's columns from its header alone", () => {
  it('gives the columns a pass over the file gives: a BOM left out, names made unique, quoted line breaks', async () => {
    for (const [name, text] of [
      ['plain.csv', 'id,text,label\n1,a,b\n'],
      ['bom.csv', '\ufeffid;text;text\n1;a;b\n'],
      ['quoted.csv', '"id","a ""long""\nname",label\n1,a,b\n'],
      ['header-only.csv', 'id,text'],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const source = openRowsSource(file);
      const summary = await eachBatch(source, () => {});
      expect(csvHeaderColumns(source)).toEqual(summary.columns);
    }
  });

  it('leaves a blank first line or a header past 64 KB to a pass over the file (null)', () => {
    const blank = join(dir, 'blank-first.csv');
    writeFileSync(blank, '\nid,text\n1,a\n');
    expect(csvHeaderColumns(openRowsSource(blank))).toBeNull();
    const wide = join(dir, 'wide.csv');
    writeFileSync(wide, `${Array.from({ length: 9000 }, (_, i) => `column_number_${i}`).join(',')}\n`);
    expect(csvHeaderColumns(openRowsSource(wide))).toBeNull();
  });
});

describe('the rows file as a stream', () => {
  it('gives the rows and issues of the whole-text parsers, over many chunks, for CSV and JSON Lines', async () => {
    let csv = 'id,text\n';
    for (let i = 0; i < 20_000; i++)
      csv += `${i},"a ""quoted"" field, with a comma\nand a line break (#${i})"\n`;
    csv += '\n20000,after a blank\n20001,"a stray quote\n20002,x,y\n';
    const jsonl = `${Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: i, text: `t ${i}` })).join('\n')}\n\nnot json\n{"id":1}`;
    for (const [name, text] of [
      ['big.csv', csv],
      ['big.jsonl', jsonl],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const rows: SourceRow[] = [];
      const issues: unknown[] = [];
      let batches = 0;
      const summary = await eachBatch(openRowsSource(file), (b) => {
        batches++;
        rows.push(...b.rows);
        issues.push(...b.issues);
      });
      const whole = parseRowsText(detectFormat(file, text.slice(0, 4096)), text);
      expect(batches).toBeGreaterThan(3);
      expect(rows).toEqual(whole.rows);
      expect(issues).toEqual(whole.issues);
      expect(summary).toEqual(whole.summary);
      expect(issues.length).toBeGreaterThan(0);
    }
  });

  it('refuses a JSON array above the size with a sentence suggesting JSON Lines, and reads one below it', async () => {
    const file = join(dir, 'rows.json');
    writeFileSync(file, JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, text: `t ${i}` }))));
    expect(() => openRowsSource(file, 10_000)).toThrow(
      /rows\.json is a JSON array of [\d.]+ MB, which is read whole; above 0\.1 MB give the rows as JSON Lines, one row per line \(for example: jq -c '\.\[\]' rows\.json > rows\.jsonl\)\./,
    );
    let n = 0;
    await eachBatch(openRowsSource(file), (b) => void (n += b.rows.length));
    expect(n).toBe(2000);
  });
});
