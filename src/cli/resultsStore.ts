// The headless run's store: the results file (one line per settled row, appended as it settles) and, beside it, a
// journal of rows about to be sent. Owns both files. A row in the journal with no later result was in flight when the
// process died: on resume it is "unknown, may have been billed", never re-sent silently. Both are read back on resume
// as streams; what is kept per row is a few numbers, and an answer is found again by its line's place in the file.
import { closeSync, existsSync, fstatSync, openSync, statSync, writeFileSync, writeSync } from 'node:fs';
import type { ReusedRow, RunStore } from '../core/rows/runTypes';
import type { RowOutcome, StoredAnswer } from '../core/rows/records';
import type { ResultsHeader, ReadRow } from '../core/rows/resultsFile';
import { ResultLineSchema, headerLine, resultLine, resumeMismatch } from '../core/rows/resultsFile';
import type { SourceRow } from '../core/rows/parse';
import { InputError } from './inputs';
import { forEachLine, readHeaderOf, readLineAt, slimLine, statusCode, statusOf } from './resultsStream';

/** The journal's path for a results file. */
export const journalPath = (out: string): string => `${out}.inflight`;

/** A 32-bit FNV-1a hash of a key, never 0 (0 marks an empty slot). */
function hash32(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0 || 1;
}

/** Offsets of lines in files under 4 GB, 4 bytes each; past that, 8 (exact up to 2^53). */
type Offsets = Uint32Array | Float64Array;

/**
 * Where each stored answer's line is in the results file, by its key: an open-addressing table of a 32-bit hash of
 * the key and the line's offset, 8 bytes a slot (12 once the file passes 4 GB), sized once for the rows of the run
 * (so memory does not grow as rows settle). Keys that share a hash are all offered; the store keeps the one whose line
 * names the key.
 */
export class AnswerIndex {
  private hashes: Uint32Array;
  private offsets: Offsets;
  private used = 0;

  constructor(expected: number) {
    const size = Math.max(1024, Math.ceil(expected / 0.7));
    this.hashes = new Uint32Array(size);
    this.offsets = new Uint32Array(size);
  }

  get size(): number {
    return this.used;
  }

  /** Offsets of the lines whose key has this key's hash, first added first. */
  candidates(key: string): number[] {
    const h = hash32(key);
    const out: number[] = [];
    const size = this.hashes.length;
    for (let at = h % size; this.hashes[at] !== 0; at = (at + 1) % size)
      if (this.hashes[at] === h) out.push(this.offsets[at]!);
    return out;
  }

  /** Empties the index to its smallest table: a run lets it go once its store is closed, before its figures. */
  clear(): void {
    this.hashes = new Uint32Array(1024);
    this.offsets = new Uint32Array(1024);
    this.used = 0;
  }

  /** Records where a key's line is (the caller adds a key once; a repeat only costs a slot). */
  add(key: string, offset: number): void {
    if ((this.used + 1) / this.hashes.length > 0.7) this.rehash();
    if (offset > 0xffffffff && this.offsets instanceof Uint32Array)
      this.offsets = Float64Array.from(this.offsets);
    const h = hash32(key);
    const size = this.hashes.length;
    let at = h % size;
    while (this.hashes[at] !== 0) at = (at + 1) % size;
    this.hashes[at] = h;
    this.offsets[at] = offset;
    this.used++;
  }

  private rehash(): void {
    const { hashes, offsets } = this;
    const size = hashes.length * 2;
    this.hashes = new Uint32Array(size);
    this.offsets = offsets instanceof Uint32Array ? new Uint32Array(size) : new Float64Array(size);
    for (let i = 0; i < hashes.length; i++) {
      const h = hashes[i]!;
      if (h === 0) continue;
      let at = h % size;
      while (this.hashes[at] !== 0) at = (at + 1) % size;
      this.hashes[at] = h;
      this.offsets[at] = offsets[i]!;
    }
  }
}

/** What an existing results file says about the rows of this run, by record number. */
export interface Resumed {
  /** The status code of each row's newest line (resultsStream statusCode; 0: none). */
  status: Uint8Array;
  /** Possibly billed attempts, up to 65,535 (a row is retried a handful of times). */
  possiblyBilled: Uint16Array;
  /** Billed input tokens of the newest line (whole numbers far below 2^24, exact in 32 bits); NaN when it names none. */
  billed: Float32Array;
  /** 1 for rows that were being sent when the last process stopped, with no result since. */
  inFlight: Uint8Array;
  /** Rows with a settled line. */
  settled: number;
  unreadable: number;
}

/** The outcome of a row as its newest line left it, for the runner's accounting (undefined: no line). */
export function resumedOutcome(resumed: Resumed, n: number): RowOutcome | undefined {
  const status = statusOf(resumed.status[n] ?? 0);
  if (!status) return undefined;
  const billed = resumed.billed[n]!;
  return {
    status,
    at: 0,
    // Only what the run counts (status, billed and possibly billed tokens): the line itself stays in the file.
    attempts: 0,
    possiblyBilledAttempts: resumed.possiblyBilled[n]!,
    requeues: 0,
    ...(Number.isFinite(billed) && { inputTokens: billed }),
  };
}

/**
 * Opens (or starts) a results file for a run; refuses one made with other settings. Reads it back line by line,
 * records each stored answer's place in `answers`, and returns each row's newest status.
 */
export function openResults(
  out: string,
  header: ResultsHeader,
  records: number,
  answers: AnswerIndex,
): Resumed {
  const resumed: Resumed = {
    status: new Uint8Array(records + 1),
    possiblyBilled: new Uint16Array(records + 1),
    billed: new Float32Array(records + 1),
    inFlight: new Uint8Array(records + 1),
    settled: 0,
    unreadable: 0,
  };
  if (!existsSync(out) || statSync(out).size === 0) {
    writeFileSync(out, `${headerLine(header)}\n`);
    writeFileSync(journalPath(out), '');
    return resumed;
  }
  let saved: ResultsHeader;
  try {
    saved = readHeaderOf(out);
  } catch (error) {
    throw new InputError(`${(error as Error).message.replace(/\.$/, '')}. Choose another --out.`);
  }
  const mismatch = resumeMismatch(saved, header);
  if (mismatch) throw new InputError(`${out}: ${mismatch}`);
  const end = forEachLine(out, (text, offset, _bytes, i) => {
    if (i === 0 || text.trim() === '') return;
    const line = slimLine(text);
    if (!line) {
      resumed.unreadable++;
      return;
    }
    const n = line.row;
    // A line of another rows file's record: nothing of this run (the header matched, so this is a hand edit).
    if (n > records) return;
    if (resumed.status[n] === 0) resumed.settled++;
    resumed.status[n] = statusCode(line.status);
    resumed.possiblyBilled[n] = Math.min(0xffff, line.possibly_billed_attempts);
    const billed = line.usage?.billed_input_tokens;
    resumed.billed[n] = typeof billed === 'number' ? billed : Number.NaN;
    if (
      line.answer_key &&
      line.answers != null &&
      line.model !== null &&
      (line.status === 'done' || line.status === 'reused')
    )
      answers.add(line.answer_key, offset);
  });
  // A line cut off by a killed process: end it, so the next line starts on its own.
  if (!end.endsWithNewline) {
    const fd = openSync(out, 'a');
    try {
      writeSync(fd, '\n');
    } finally {
      closeSync(fd);
    }
  }
  if (existsSync(journalPath(out))) {
    forEachLine(journalPath(out), (text) => {
      const n = Number(text.trim());
      if (Number.isInteger(n) && n > 0 && n <= records) resumed.inFlight[n] = 1;
    });
  }
  // A row settled after its journal entry is not in flight any more (the journal only grows).
  for (let n = 1; n <= records; n++) {
    if (resumed.inFlight[n] === 0) continue;
    const status = statusOf(resumed.status[n]!);
    if (status && status !== 'unknown') resumed.inFlight[n] = 0;
  }
  return resumed;
}

/** The answer stored under `key` in the results file, read at the offsets its hash indexes; undefined if none. */
function storedAnswerAt(
  fd: number,
  answers: AnswerIndex,
  targetId: string,
  key: string | undefined,
): StoredAnswer | undefined {
  if (key === undefined) return undefined;
  for (const offset of answers.candidates(key)) {
    const line = ResultLineSchema.parse(JSON.parse(readLineAt(fd, offset)));
    // Another key with the same hash: not this answer.
    if (line.answer_key !== key || !line.answers || line.model === null) continue;
    const { billed_input_tokens: _billed, ...usage } = line.usage ?? { input_tokens: 0 };
    return {
      key,
      targetId,
      model: line.model,
      response: { model: line.model, answers: line.answers, usage },
      at: 0,
    };
  }
  return undefined;
}

/** A row's result as the file holds it: its source, its outcome and, when answered or reused, the answer. */
function resultRowOf(
  number: number,
  source: SourceRow & { id: string },
  outcome: RowOutcome,
  answer: StoredAnswer | undefined,
): ReadRow {
  return {
    number,
    line: source.line,
    id: source.id,
    data: source.data,
    outcome,
    ...(answer &&
      (outcome.status === 'done' || outcome.status === 'reused') && { response: answer.response }),
  };
}

/**
 * The RunStore of a headless run: appends to the results file and the journal, synchronously, line by line. Answers
 * (this run's and earlier ones') are found again by their line's place in the file, not kept in memory, so a long run
 * stays flat. The source rows are those of the window being run (setSources).
 */
export class ResultsStore implements RunStore {
  private size: number;
  private readonly fd: number;
  private readonly journal: number;
  private sources: ReadonlyMap<number, SourceRow & { id: string }> = new Map();

  constructor(
    private readonly out: string,
    private readonly answers: AnswerIndex,
    private readonly targetId: string,
  ) {
    this.fd = openSync(out, 'a+');
    this.journal = openSync(journalPath(out), 'a');
    this.size = fstatSync(this.fd).size;
  }

  /** The rows the next lines are written for (a window of the file). */
  setSources(sources: ReadonlyMap<number, SourceRow & { id: string }>): void {
    this.sources = sources;
  }

  close(): void {
    closeSync(this.fd);
    closeSync(this.journal);
  }

  saveOutcome(number: number, outcome: RowOutcome): Promise<void> {
    if (outcome.status === 'sending') writeSync(this.journal, `${number}\n`);
    else if (outcome.status !== 'pending') this.append(number, outcome, this.answerSync(outcome.answerKey));
    return Promise.resolve();
  }

  saveReused(rows: readonly ReusedRow[]): Promise<void> {
    for (const { number, outcome, answer } of rows)
      this.append(number, outcome, answer ?? this.answerSync(outcome.answerKey));
    return Promise.resolve();
  }

  saveAnswered(number: number, outcome: RowOutcome, answer: StoredAnswer): Promise<void> {
    this.append(number, outcome, answer);
    return Promise.resolve();
  }

  findAnswers(keys: readonly string[]): Promise<Map<string, StoredAnswer>> {
    const out = new Map<string, StoredAnswer>();
    for (const key of keys) {
      const answer = this.answerSync(key);
      if (answer) out.set(key, answer);
    }
    return Promise.resolve(out);
  }

  private answerSync(key: string | undefined): StoredAnswer | undefined {
    return storedAnswerAt(this.fd, this.answers, this.targetId, key);
  }

  private append(number: number, outcome: RowOutcome, answer: StoredAnswer | undefined): void {
    const source = this.sources.get(number);
    if (!source) return;
    const row = resultRowOf(number, source, outcome, answer);
    const text = resultLine(row);
    // The first line of an answer is where it is found again (a reused row's line repeats it).
    const known = row.response && outcome.answerKey ? this.answerSync(outcome.answerKey) : undefined;
    writeSync(this.fd, `${text}\n`);
    if (row.response && outcome.answerKey && !known) this.answers.add(outcome.answerKey, this.size);
    this.size += Buffer.byteLength(text) + 1;
  }
}
