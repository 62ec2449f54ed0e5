// `evaluate-workbench merge`: the results files of a run's shards into one. Refuses files of another run (questions,
// model, target, mapping or rows file differ: one sentence naming the field); keeps each row once by its record number
// in the rows file (an answered line wins over one without an answer); writes a second answer to the same row to a
// file beside the merge and says so, rather than drop it; and says which shards and how many rows are missing.
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { canonicalJson } from '../core/rows/dedup';
import type { ResultsHeader } from '../core/rows/resultsFile';
import { headerLine } from '../core/rows/resultsFile';
import { InputError } from './inputs';
import { collectGarbage } from './memory';
import { grow, indexRows, readAt, readHeaderOf, statusOf } from './resultsStream';

export interface MergeOptions {
  inputs: string[];
  out: string;
}

export interface MergeResult {
  /** Rows written, and of those with an answer. */
  rows: number;
  answered: number;
  /** Shards (from 1) of the run that no input holds. */
  missingShards: number[];
  /** Rows the given shards planned that have no line in any of them (never sent: resume that shard). */
  missingRows: number;
  /** Rows whose kept line has no answer (failed, unknown or refused), by status. */
  withoutAnswer: Record<string, number>;
  /** Second answers to a row that differ from the kept one: the first is kept, the others are in `conflictsFile`. */
  conflicts: number;
  /** Second answers to a row identical to the kept one, byte for byte (a file given twice, a row sent again): kept once. */
  identical: number;
  conflictsFile: string | null;
  /** Sentences for the user, in order. */
  lines: string[];
  complete: boolean;
}

const plural = (n: number, word: string): string =>
  `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** Why two headers cannot be merged, naming the field, or null when they can. */
export function mergeMismatch(
  a: ResultsHeader,
  aFile: string,
  b: ResultsHeader,
  bFile: string,
): string | null {
  const same = (x: unknown, y: unknown): boolean => canonicalJson(x) === canonicalJson(y);
  const differ = (field: string, x: string, y: string): string =>
    `${bFile} was made with ${field} ${y}, ${aFile} with ${x}: merge only the shards of one run.`;
  // Fields with no short value to name (questions, a mapping): the sentence says they differ.
  const other = (what: string): string =>
    `${bFile} was made with ${what} than ${aFile}: merge only the shards of one run.`;
  if (a.rowsFile !== b.rowsFile) return differ('the rows file', a.rowsFile, b.rowsFile);
  if (a.model !== b.model) return differ('the model', a.model, b.model);
  if (a.targetId !== b.targetId) return differ('the target', a.targetId, b.targetId);
  if (!same(a.questions, b.questions)) return other('other questions');
  if (!same(a.mapping, b.mapping)) return other('another mapping of columns to the state');
  if (!same(a.labels, b.labels)) return other('other label columns');
  const what = (h: ResultsHeader): string => (h.shard ? `one of ${h.shard.count} shards` : 'a whole run');
  if ((a.shard?.count ?? null) !== (b.shard?.count ?? null))
    return `${bFile} is ${what(b)}, ${aFile} ${what(a)}: merge only the shards of one run.`;
  if ((a.shard?.records ?? null) !== (b.shard?.records ?? null))
    return differ(
      'the rows file',
      `${a.rowsFile} of ${a.shard?.records ?? '?'} records`,
      `${b.rowsFile} of ${b.shard?.records ?? '?'} records`,
    );
  return null;
}

/**
 * The line the merge keeps of each row, by record number: which file (from 1; 0 none) and where. Files are folded in
 * one at a time, so a merge holds one file's index beside this one, not every file's (n shards of a million rows each
 * index a million records: 22 MB a file).
 */
interface KeptLines {
  file: Uint16Array;
  offset: Float64Array;
  bytes: Uint32Array;
  status: Uint8Array;
  answered: Uint8Array;
  maxRow: number;
}

/** Second answers to a row, in the order files were folded (by file, then row); written out by row, then file. */
interface Conflicts {
  row: Uint32Array;
  file: Uint16Array;
  offset: Float64Array;
  bytes: Uint32Array;
  count: number;
  /** Second answers byte for byte the same as the kept one: counted, not written. */
  identical: number;
  /** The first few rows answered twice identically, for the sentence. */
  identicalRows: number[];
}

/** The shard files' headers, checked to be parts of one run. */
function readShardHeaders(inputs: readonly string[], out: string): ResultsHeader[] {
  if (inputs.length === 0) throw new InputError('Give the shard results files to merge.');
  if (inputs.includes(out))
    throw new InputError(`--out ${out} is one of the files to merge; choose another.`);
  const headers = inputs.map((file) => readHeaderOf(file));
  const first = headers[0]!;
  headers.forEach((h, i) => {
    const why = mergeMismatch(first, inputs[0]!, h, inputs[i]!);
    if (why) throw new InputError(why);
  });
  return headers;
}

/** The files given for each shard, with a sentence for a shard given more than once. */
function filesByShard(
  headers: readonly ResultsHeader[],
  inputs: readonly string[],
  count: number,
  lines: string[],
): Map<number, string[]> {
  const byShard = new Map<number, string[]>();
  headers.forEach((h, i) => {
    const index = h.shard?.index ?? 1;
    byShard.set(index, [...(byShard.get(index) ?? []), inputs[i]!]);
  });
  for (const [shard, files] of byShard)
    if (files.length > 1)
      lines.push(
        `Shard ${shard}/${count} is given ${files.length} times (${files.join(', ')}); each row is kept once.`,
      );
  return byShard;
}

/** The merged file's header: the first shard's, naming the shards merged and the rows they planned. */
function mergedHeader(
  headers: readonly ResultsHeader[],
  inputs: readonly string[],
  byShard: ReadonlyMap<number, string[]>,
  count: number,
): ResultsHeader & { merged: NonNullable<ResultsHeader['merged']> } {
  const planned = [...byShard.values()].reduce((sum, files) => {
    const h = headers[inputs.indexOf(files[0]!)]!;
    return sum + (h.shard?.planned ?? 0);
  }, 0);
  const header = {
    ...headers[0]!,
    createdAt: new Date().toISOString(),
    shard: undefined,
    merged: { count, shards: [...byShard.keys()].sort((a, b) => a - b), planned },
  };
  delete header.shard;
  return header;
}

/** Writes each row's kept line in row order, buffered a megabyte at a time, counting rows and answers. */
function writeKeptRows(out: number, fds: readonly number[], kept: KeptLines, result: MergeResult): void {
  let buffered: string[] = [];
  let bufferedBytes = 0;
  const flush = (): void => {
    if (buffered.length === 0) return;
    writeSync(out, buffered.join(''));
    buffered = [];
    bufferedBytes = 0;
  };
  for (let n = 1; n <= kept.maxRow; n++) {
    const f = kept.file[n]!;
    if (f === 0) continue;
    const text = readAt(fds[f - 1]!, kept.offset[n]!, kept.bytes[n]!);
    buffered.push(text, '\n');
    bufferedBytes += text.length + 1;
    if (bufferedBytes > 1 << 20) flush();
    result.rows++;
    if (kept.answered[n] === 1) result.answered++;
    else {
      const status = statusOf(kept.status[n]!) ?? 'unknown';
      result.withoutAnswer[status] = (result.withoutAnswer[status] ?? 0) + 1;
    }
  }
  flush();
}

/**
 * Two answers to one row: the first is kept, the others are written beside the merge by row, never dropped. The rows
 * shown in the sentence go to `shown`; whether the file was written.
 */
function writeConflicts(
  file: string,
  fds: readonly number[],
  conflicts: Conflicts,
  result: MergeResult,
  shown: { conflictRows: number[]; identicalRows: number[] },
): boolean {
  result.identical = conflicts.identical;
  shown.identicalRows.push(...conflicts.identicalRows);
  const order = Uint32Array.from({ length: conflicts.count }, (_, i) => i).sort(
    (a, b) => conflicts.row[a]! - conflicts.row[b]! || a - b,
  );
  if (order.length === 0) return false;
  const fd = openSync(file, 'w');
  try {
    for (const i of order) {
      writeSync(fd, `${readAt(fds[conflicts.file[i]!]!, conflicts.offset[i]!, conflicts.bytes[i]!)}\n`);
      result.conflicts++;
      if (shown.conflictRows.length < SHOWN_ROWS) shown.conflictRows.push(conflicts.row[i]!);
    }
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The sentences after the merge: what was merged first, then what is missing or without an answer. */
function mergeLines(options: MergeOptions, shards: number, count: number, result: MergeResult): void {
  const { lines, missingShards } = result;
  lines.unshift(
    `Merged ${plural(options.inputs.length, 'file')} (${plural(shards, 'shard')} of ${count}) into ${options.out}: ` +
      `${plural(result.rows, 'row')}, ${result.answered.toLocaleString('en-US')} with an answer.`,
  );
  if (missingShards.length > 0)
    lines.push(
      `Missing: shard${missingShards.length === 1 ? '' : 's'} ${missingShards.map((s) => `${s}/${count}`).join(', ')} (no file given); run ${missingShards.length === 1 ? 'it' : 'them'} and merge again.`,
    );
  if (result.missingRows > 0)
    lines.push(
      `Missing: ${plural(result.missingRows, 'row')} planned by the given shards have no line in any file (not sent yet); resume those shards with the same command and merge again.`,
    );
  const without = Object.entries(result.withoutAnswer);
  if (without.length > 0)
    lines.push(
      `Without an answer: ${without.map(([status, n]) => `${n.toLocaleString('en-US')} ${status === 'invalid' ? 'refused' : status}`).join(', ')} (the shard runs say why; --retry-unknown sends unknown and failed rows again).`,
    );
}

/** Merges shard results files into `out`. Throws an InputError (exit 2) for files that cannot be merged. */
export function mergeCommand(options: MergeOptions): MergeResult {
  const headers = readShardHeaders(options.inputs, options.out);
  const lines: string[] = [];
  const count = headers[0]!.shard?.count ?? 1;
  const byShard = filesByShard(headers, options.inputs, count, lines);
  const missingShards = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byShard.has(i));

  if (options.inputs.length > 0xffff) throw new InputError('Merge at most 65,535 files at once.');
  const fds = options.inputs.map((file) => openSync(file, 'r'));
  const header = mergedHeader(headers, options.inputs, byShard, count);
  const out = openSync(options.out, 'w');
  const conflictsFile = `${options.out}.conflicts.jsonl`;
  const result: MergeResult = {
    rows: 0,
    answered: 0,
    missingShards,
    missingRows: 0,
    withoutAnswer: {},
    conflicts: 0,
    identical: 0,
    conflictsFile: null,
    lines,
    complete: false,
  };
  const shown = { conflictRows: [] as number[], identicalRows: [] as number[] };
  let wroteConflicts: boolean;
  try {
    const kept = keptLines(options.inputs, fds, headers[0]!.shard?.records ?? 0);
    writeSync(out, `${headerLine(header)}\n`);
    writeKeptRows(out, fds, kept.lines, result);
    wroteConflicts = writeConflicts(conflictsFile, fds, kept.conflicts, result, shown);
  } finally {
    closeSync(out);
    for (const fd of fds) closeSync(fd);
  }
  // No second answers: no file of them (and none left from an earlier merge to mislead).
  if (!wroteConflicts) rmSync(conflictsFile, { force: true });
  result.conflictsFile = result.conflicts > 0 ? conflictsFile : null;
  result.missingRows = Math.max(0, header.merged.planned - result.rows);
  mergeLines(options, byShard.size, count, result);
  const secondAnswers = secondAnswersLine(result, shown.conflictRows, shown.identicalRows, conflictsFile);
  if (secondAnswers) lines.push(secondAnswers);
  result.complete = missingShards.length === 0 && result.missingRows === 0;
  return result;
}

/** Rows shown in a sentence before "…". */
const SHOWN_ROWS = 5;

const rowList = (rows: number[], total: number): string =>
  `rows ${rows.join(', ')}${total > rows.length ? ', …' : ''}`;

/**
 * The sentence on second answers, counting every one: identical repeats (kept once) and different answers (the first
 * file's kept, the others in the conflicts file); null when no row was answered twice.
 */
export function secondAnswersLine(
  counts: Pick<MergeResult, 'identical' | 'conflicts'>,
  conflictRows: number[],
  identicalRows: number[],
  conflictsFile: string,
): string | null {
  const { identical, conflicts } = counts;
  if (identical === 0 && conflicts === 0) return null;
  const parts = [
    identical > 0
      ? `${plural(identical, 'row')} answered twice identically (${rowList(identicalRows, identical)}), kept once`
      : '',
    conflicts > 0
      ? `${plural(conflicts, 'conflicting answer')} (${rowList(conflictRows, conflicts)}): the first file's answer is kept, the other answers are in ${conflictsFile}`
      : '',
  ].filter(Boolean);
  return `Second answers: ${parts.join('; ')}.`;
}

/**
 * Folds each file's newest line of each row into the lines the merge keeps, in the order the files were given: the
 * first file with a line keeps it, a later answered line replaces one without an answer, and a later answer that
 * differs from a kept answer is a conflict; the same line twice (a file given twice) is one answer, counted.
 */
function keptLines(
  inputs: readonly string[],
  fds: readonly number[],
  records: number,
): { lines: KeptLines; conflicts: Conflicts } {
  const lines: KeptLines = {
    file: new Uint16Array(records + 1),
    offset: new Float64Array(records + 1),
    bytes: new Uint32Array(records + 1),
    status: new Uint8Array(records + 1),
    answered: new Uint8Array(records + 1),
    maxRow: 0,
  };
  const conflicts: Conflicts = {
    row: new Uint32Array(0),
    file: new Uint16Array(0),
    offset: new Float64Array(0),
    bytes: new Uint32Array(0),
    count: 0,
    identical: 0,
    identicalRows: [],
  };
  inputs.forEach((input, f) => {
    const x = indexRows(input);
    if (x.maxRow >= lines.file.length) {
      lines.file = grow(lines.file, x.maxRow);
      lines.offset = grow(lines.offset, x.maxRow);
      lines.bytes = grow(lines.bytes, x.maxRow);
      lines.status = grow(lines.status, x.maxRow);
      lines.answered = grow(lines.answered, x.maxRow);
    }
    lines.maxRow = Math.max(lines.maxRow, x.maxRow);
    for (let n = 1; n <= x.maxRow; n++) {
      if (x.bytes[n] === 0) continue;
      const mine = lines.file[n]! - 1;
      if (mine >= 0 && x.answered[n] === 1 && lines.answered[n] === 1) {
        if (
          readAt(fds[f]!, x.offset[n]!, x.bytes[n]!) === readAt(fds[mine]!, lines.offset[n]!, lines.bytes[n]!)
        ) {
          conflicts.identical++;
          if (conflicts.identicalRows.length < SHOWN_ROWS) conflicts.identicalRows.push(n);
          continue;
        }
        const at = conflicts.count++;
        conflicts.row = grow(conflicts.row, at);
        conflicts.file = grow(conflicts.file, at);
        conflicts.offset = grow(conflicts.offset, at);
        conflicts.bytes = grow(conflicts.bytes, at);
        conflicts.row[at] = n;
        conflicts.file[at] = f;
        conflicts.offset[at] = x.offset[n]!;
        conflicts.bytes[at] = x.bytes[n]!;
      } else if (mine === -1 || x.answered[n] === 1) {
        lines.file[n] = f + 1;
        lines.offset[n] = x.offset[n]!;
        lines.bytes[n] = x.bytes[n]!;
        lines.status[n] = x.status[n]!;
        lines.answered[n] = x.answered[n]!;
      }
    }
    // This file's index (22 bytes a record of the rows file) is let go before the next one is read.
    collectGarbage();
  });
  return { lines, conflicts };
}
