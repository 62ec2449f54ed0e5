// The runner's store for one run of rows in IndexedDB: outcomes and answers written as the run goes, coalesced into
// batches (writeQueue), each batch one transaction that never rewrites an answered row (commitOutcomes), and the
// chunks of reused rows written as records of their own (saveReusedChunk).
import Dexie from 'dexie';
import { ReusedChunkSchema, RowOutcomeSchema, StoredAnswerSchema } from '../../core/rows/records';
import type { ReusedChunk, RowItem, RowOutcome, StoredAnswer } from '../../core/rows/records';
import { newId } from '../../core/ids';
import type { ReusedRow, RunStore } from '../../core/rows/runTypes';
import type { WorkbenchDb } from './db';
import { ANSWERED } from './rowsRead';
import { findQuestionAnswers, findStoredAnswers } from './storedAnswers';

/** Rows in a batch of outcomes from which a read of their key range beats one read per row. */
const RANGE_READ_MIN = 16;

/** One outcome (and its answer) waiting to be written, with the promise its writer awaits. */
interface Write {
  number: number;
  outcome: RowOutcome;
  answer?: StoredAnswer;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The runner's store for one run. Writes are coalesced: while one transaction commits, the writes that arrive wait
 * and then go together in the next one. IndexedDB runs one read-write transaction on a store at a time, so one
 * transaction per write would cap a run at what the disk commits per second; a batch costs about the same as one.
 * Each write's promise still resolves only once its own transaction has committed, so `sending` is on disk before
 * the request leaves.
 */
export function runStore(db: WorkbenchDb, runId: string): RunStore {
  const enqueue = writeQueue((batch) => commitOutcomes(db, runId, batch));
  return {
    saveOutcome: (number, outcome) => enqueue(number, outcome),
    saveAnswered: (number, outcome, answer) => enqueue(number, outcome, answer),
    // One bulkGet per look-ahead chunk; an answer that no longer parses is not reused (the row is sent again).
    findAnswers: (keys) => findStoredAnswers(db, keys),
    findQuestionAnswers: (keys) => findQuestionAnswers(db, keys),
    saveReused: (rows) => saveReusedChunk(db, runId, rows),
  };
}

/** Parses each write as it arrives and hands the waiting ones to `commit` together, one batch at a time. */
function writeQueue(commit: (batch: Write[]) => Promise<void>) {
  let queue: Write[] = [];
  let committing = false;
  const drain = async (): Promise<void> => {
    if (committing) return;
    committing = true;
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await commit(batch);
        for (const w of batch) w.resolve();
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    committing = false;
  };
  return (number: number, outcome: RowOutcome, answer?: StoredAnswer): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      try {
        queue.push({
          number,
          outcome: RowOutcomeSchema.parse(outcome),
          ...(answer ? { answer: StoredAnswerSchema.parse(answer) } : {}),
          resolve,
          reject,
        });
      } catch (error) {
        reject(error);
        return;
      }
      // After the current task's other writes: outcomes enqueued together (rows sent at once) commit as one batch.
      queueMicrotask(() => void drain());
    });
}

/**
 * The stored rows of these numbers, in their order. Rows close together (a chunk of reused rows) are read as one
 * key range, a single IndexedDB request; scattered ones (rows answered one by one) by key.
 */
async function readItems(
  db: WorkbenchDb,
  runId: string,
  numbers: readonly number[],
): Promise<(RowItem | undefined)[]> {
  let low = Infinity;
  let high = -Infinity;
  for (const n of numbers) {
    low = Math.min(low, n);
    high = Math.max(high, n);
  }
  if (numbers.length < RANGE_READ_MIN || high - low + 1 > 2 * numbers.length)
    return db.rowItems.bulkGet(numbers.map((n) => [runId, n] as [string, number]));
  const range = await db.rowItems
    .where('[runId+number]')
    .between([runId, low], [runId, high], true, true)
    .toArray();
  const byNumber = new Map(range.map((item) => [item.number, item]));
  return numbers.map((n) => byNumber.get(n));
}

/** Writes a batch of outcomes (and the answers among them) in one transaction; an answered row is never rewritten. */
function commitOutcomes(db: WorkbenchDb, runId: string, batch: Write[]): Promise<void> {
  const answers = batch.flatMap((w) => (w.answer ? [w.answer] : []));
  // Answers' table only when there are answers: a batch of outcomes alone (rows going out) then never holds up a
  // lookup of stored answers (a read of that table waits for any read-write transaction over it).
  const tables = answers.length > 0 ? [db.rowItems, db.rowAnswers] : [db.rowItems];
  // NOTE: a batch may be started from code that runs inside another Dexie transaction's zone (a lookup that just
  // finished); ignoreTransaction keeps it a transaction of its own instead of a nested one.
  return Dexie.ignoreTransaction(() =>
    db.transaction('rw', tables, async () => {
      if (answers.length > 0) await db.rowAnswers.bulkPut(answers);
      // The last write of a row in the batch is the one that counts.
      const latest = new Map<number, RowOutcome>();
      for (const w of batch) latest.set(w.number, w.outcome);
      const stored = await readItems(db, runId, [...latest.keys()]);
      if (stored.some((item) => item === undefined))
        throw new Error(`Some rows of run ${runId} are no longer stored.`);
      // An answered row is final: a writer that read it before it was answered (another tab) never rewrites it.
      // The rows just read are written back whole with their new outcome (a put, not an update that reads again).
      const next = [...latest].flatMap(([number, outcome], i) => {
        // Only the stored status matters here (as in countSettled); the whole record is parsed when read back.
        const status: unknown = stored[i]?.outcome?.status;
        if (typeof status === 'string' && ANSWERED.has(status as RowOutcome['status'])) return [];
        return [{ ...stored[i]!, runId, number, outcome }];
      });
      if (next.length > 0) await db.rowItems.bulkPut(next);
    }),
  );
}

/** One record per chunk of reused rows, over its own table: nothing else writes it, so no batch and no read first. */
async function saveReusedChunk(db: WorkbenchDb, runId: string, rows: readonly ReusedRow[]): Promise<void> {
  const chunk: ReusedChunk = ReusedChunkSchema.parse({
    runId,
    chunk: newId(),
    rows: rows.map(({ number, outcome }) => ({ number, outcome })),
  });
  // Rows put together from per-question answers bring a new answer each: stored with the chunk, in one go.
  const answers = rows.flatMap((r) => (r.answer ? [StoredAnswerSchema.parse(r.answer)] : []));
  if (answers.length === 0) await Dexie.ignoreTransaction(() => db.rowReuses.add(chunk));
  else
    await Dexie.ignoreTransaction(() =>
      db.transaction('rw', db.rowReuses, db.rowAnswers, async () => {
        await db.rowAnswers.bulkPut(answers);
        await db.rowReuses.add(chunk);
      }),
    );
}
