// The headless run's store: the results file (one line per settled row, appended as it settles) and, beside it, a
// journal of rows about to be sent. Owns both files. A row in the journal with no later result was in flight when the
// process died: on resume it is "unknown, may have been billed", never re-sent silently.
import {
  appendFileSync,
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import type { ReusedRow, RunStore } from '../core/rows/runner';
import type { RowOutcome, StoredAnswer } from '../core/rows/records';
import type { ResultsHeader, ReadRow } from '../core/rows/resultsFile';
import {
  ResultLineSchema,
  headerLine,
  readResults,
  resultLine,
  resumeMismatch,
} from '../core/rows/resultsFile';
import type { SourceRow } from '../core/rows/parse';
import { InputError } from './inputs';

/** The journal's path for a results file. */
export const journalPath = (out: string): string => `${out}.inflight`;

/** What an existing results file says about the rows of this run. */
export interface Resumed {
  /** The newest settled line of each row, by record number. */
  settled: Map<number, ReadRow>;
  /** Rows that were being sent when the last process stopped, with no result since. */
  inFlight: Set<number>;
  unreadable: number;
}

/** Opens (or starts) a results file for a run; refuses one made with other settings. */
export function openResults(out: string, header: ResultsHeader): Resumed {
  const resumed: Resumed = { settled: new Map(), inFlight: new Set(), unreadable: 0 };
  if (!existsSync(out) || readFileSync(out, 'utf8').trim() === '') {
    writeFileSync(out, `${headerLine(header)}\n`);
    writeFileSync(journalPath(out), '');
    return resumed;
  }
  const read = readResults(readFileSync(out, 'utf8'));
  if (!read.ok) throw new InputError(`${out}: ${read.message} Choose another --out.`);
  const mismatch = resumeMismatch(read.results.header, header);
  if (mismatch) throw new InputError(`${out}: ${mismatch}`);
  for (const row of read.results.rows) resumed.settled.set(row.number, row);
  resumed.unreadable = read.results.unreadable.length;
  if (existsSync(journalPath(out))) {
    for (const line of readFileSync(journalPath(out), 'utf8').split('\n')) {
      const n = Number(line.trim());
      if (Number.isInteger(n) && n > 0) resumed.inFlight.add(n);
    }
  }
  // A row settled after its journal entry is not in flight any more (the journal only grows).
  for (const n of [...resumed.inFlight]) {
    const row = resumed.settled.get(n);
    if (row && row.outcome.status !== 'unknown') resumed.inFlight.delete(n);
  }
  return resumed;
}

/** Stored answers by key, for reuse (dedup) within and across runs of the same results file. */
export function answersOf(settled: Iterable<ReadRow>, targetId: string): Map<string, StoredAnswer> {
  const answers = new Map<string, StoredAnswer>();
  for (const row of settled) {
    const key = row.outcome.answerKey;
    if (key && row.response && (row.outcome.status === 'done' || row.outcome.status === 'reused'))
      answers.set(key, {
        key,
        targetId,
        model: row.response.model,
        response: row.response,
        at: row.outcome.at,
      });
  }
  return answers;
}

/**
 * The RunStore of a headless run: appends to the results file and the journal, synchronously, line by line. Answers
 * written in this run are found again by their line's place in the file, not kept in memory, so a long run stays flat.
 */
export class ResultsStore implements RunStore {
  /** Where this run wrote each answer's line: byte offset and length in the results file. */
  private readonly written = new Map<string, { offset: number; length: number }>();
  private size: number;

  constructor(
    private readonly out: string,
    private readonly sources: ReadonlyMap<number, SourceRow & { id: string }>,
    /** Answers of rows settled before this run (a resume), by key. */
    private readonly earlier: ReadonlyMap<string, StoredAnswer>,
    private readonly targetId: string,
  ) {
    this.size = statSync(out).size;
  }

  saveOutcome(number: number, outcome: RowOutcome): Promise<void> {
    if (outcome.status === 'sending') appendFileSync(journalPath(this.out), `${number}\n`);
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
    if (key === undefined) return undefined;
    const at = this.written.get(key);
    if (!at) return this.earlier.get(key);
    const buffer = Buffer.alloc(at.length);
    const fd = openSync(this.out, 'r');
    try {
      readSync(fd, buffer, 0, at.length, at.offset);
    } finally {
      closeSync(fd);
    }
    const line = ResultLineSchema.parse(JSON.parse(buffer.toString('utf8')));
    if (!line.answers || line.model === null) return undefined;
    const { billed_input_tokens: _billed, ...usage } = line.usage ?? { input_tokens: 0 };
    return {
      key,
      targetId: this.targetId,
      model: line.model,
      response: { model: line.model, answers: line.answers, usage },
      at: 0,
    };
  }

  private append(number: number, outcome: RowOutcome, answer: StoredAnswer | undefined): void {
    const source = this.sources.get(number);
    if (!source) return;
    const row: ReadRow = {
      number,
      line: source.line,
      id: source.id,
      data: source.data,
      outcome,
      ...(answer &&
        (outcome.status === 'done' || outcome.status === 'reused') && { response: answer.response }),
    };
    const text = resultLine(row);
    const bytes = Buffer.byteLength(text);
    appendFileSync(this.out, `${text}\n`);
    if (row.response && outcome.answerKey && !this.written.has(outcome.answerKey))
      this.written.set(outcome.answerKey, { offset: this.size, length: bytes });
    this.size += bytes + 1;
  }
}
