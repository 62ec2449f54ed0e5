// Runs of a file of rows in IndexedDB: the run record, every row's input and outcome as it arrives, and answers by
// dedup key. Owns those writes; every record read is parsed, and one that does not parse is reported, never dropped.
import Dexie from 'dexie';
import { z } from 'zod';
import {
  ReusedChunkSchema,
  RowItemSchema,
  RowOutcomeSchema,
  RowRunSchema,
  StoredAnswerSchema,
} from '../../core/rows/records';
import type { ReusedChunk, RowItem, RowOutcome, RowRun, StoredAnswer } from '../../core/rows/records';
import { newId } from '../../core/ids';
import { AnnotationsSchema, LabelValueSchema, applyLabelEdits } from '../../core/labels';
import type { LabelValue, RowLabels } from '../../core/labels';
import type { RunStore } from '../../core/rows/runTypes';
import type { LabelEdit } from '../../core/rows/labels';
import type { WorkbenchDb } from './db';

/** A label edit as it reaches the store: checked before anything is written. */
const LabelEditSchema = z.object({
  number: z.number().int(),
  question: z.string(),
  value: LabelValueSchema.nullable(),
  annotator: z.string().trim().min(1).optional(),
});
/** The labels a stored row carries, read before an edit is applied to them. */
const StoredLabelsSchema = z.object({
  labels: z.record(z.string(), LabelValueSchema).optional(),
  annotations: AnnotationsSchema.optional(),
});

/** Rows between two progress reports when a run is created. */
const CREATE_CHUNK = 5000;
/**
 * Rows handed to IndexedDB at a time when a run is created. Each `add` clones its row on the page's thread inside one
 * task, so 5,000 at once held the page for about 150 ms; 500 keep each task well under 50 ms. The next slice starts
 * when the last one's requests succeed, which is a new task, and the transaction stays one.
 */
const WRITE_SLICE = 500;
/** Outcomes that are final: the row was answered (billed, or reused for free) and is never written again. */
const ANSWERED: ReadonlySet<RowOutcome['status']> = new Set(['done', 'reused']);
/** Rows in a batch of outcomes from which a read of their key range beats one read per row. */
const RANGE_READ_MIN = 16;
/** Rows parsed between two pauses when a run is read back. */
const PARSE_CHUNK = 5000;

/** What loading a run's rows found: the rows that parse and the row numbers that do not. */
export interface LoadedItems {
  items: RowItem[];
  unreadable: number[];
}

const issueText = (error: z.ZodError): string => {
  const first = error.issues[0];
  return first ? `${first.path.join('.') || 'record'}: ${first.message}` : 'unreadable record';
};

/** Stored answers for the given keys that parse (missing or unreadable ones are left out). */
export async function findStoredAnswers(
  db: WorkbenchDb,
  keys: readonly string[],
): Promise<Map<string, StoredAnswer>> {
  const found = await db.rowAnswers.bulkGet([...new Set(keys)]);
  const out = new Map<string, StoredAnswer>();
  for (const raw of found) {
    const parsed = StoredAnswerSchema.safeParse(raw);
    if (raw !== undefined && parsed.success) out.set(parsed.data.key, parsed.data);
  }
  return out;
}

/**
 * Stored answers that answer these questions' keys, by question key: those asked with other questions through the
 * `questionKeys` index, and one-question answers, whose own key is the question's, by key; both reads at once.
 */
export async function findQuestionAnswers(
  db: WorkbenchDb,
  keys: readonly string[],
): Promise<Map<string, StoredAnswer>> {
  const unique = [...new Set(keys)];
  const [alone, asked] = await Promise.all([
    findStoredAnswers(db, unique),
    // One index read per key, all issued at once in one transaction (IndexedDB pipelines them); `anyOf` walks a cursor
    // key after key instead, a round trip each, which held Chromium for minutes over 100,000 rows.
    Dexie.ignoreTransaction(() =>
      db.transaction('r', db.rowAnswers, () =>
        Promise.all(unique.map((key) => db.rowAnswers.where('questionKeys').equals(key).first())),
      ),
    ),
  ]);
  const out = new Map(alone);
  asked.forEach((raw, i) => {
    const key = unique[i]!;
    const parsed = StoredAnswerSchema.safeParse(raw);
    if (raw !== undefined && parsed.success && !out.has(key) && parsed.data.questionKeys?.includes(key))
      out.set(key, parsed.data);
  });
  return out;
}

export class RowsRepo {
  constructor(private readonly db: WorkbenchDb) {}

  /**
   * Stores a new run and its rows. The rows go first and the run record last, in one transaction: a run either exists
   * with every row or not at all, even if the page closes halfway through a 100,000-row import.
   */
  async createRun(
    run: RowRun,
    items: readonly RowItem[],
    onProgress?: (written: number) => void,
    /** Answers that come with the rows (a results file of the command line), stored in the same transaction. */
    answers: readonly StoredAnswer[] = [],
  ): Promise<void> {
    const parsedRun = RowRunSchema.parse(run);
    const parsedAnswers = answers.map((a) => StoredAnswerSchema.parse(a));
    await this.db.transaction('rw', this.db.rowRuns, this.db.rowItems, this.db.rowAnswers, async () => {
      for (let i = 0; i < parsedAnswers.length; i += WRITE_SLICE)
        await this.db.rowAnswers.bulkPut(parsedAnswers.slice(i, i + WRITE_SLICE));
      for (let i = 0; i < items.length; i += WRITE_SLICE) {
        const end = Math.min(items.length, i + WRITE_SLICE);
        await this.db.rowItems.bulkAdd(items.slice(i, end));
        if (end % CREATE_CHUNK === 0 || end === items.length) onProgress?.(end);
      }
      await this.db.rowRuns.add(parsedRun);
    });
  }

  /** Every run that parses, newest change first, and the ids of those that do not. */
  async listRuns(): Promise<{ runs: RowRun[]; unreadable: string[] }> {
    // The whole table, not the updatedAt index: a record missing that field would be left out of the index silently.
    const raw = await this.db.rowRuns.toArray();
    const runs: RowRun[] = [];
    const unreadable: string[] = [];
    for (const r of raw) {
      const parsed = RowRunSchema.safeParse(r);
      if (parsed.success) runs.push(parsed.data);
      else unreadable.push(typeof (r as { id?: unknown }).id === 'string' ? (r as { id: string }).id : '?');
    }
    runs.sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
    return { runs, unreadable };
  }

  /** One run, or undefined when it does not exist; throws with the reason when it exists but cannot be read. */
  async getRun(id: string): Promise<RowRun | undefined> {
    const raw = await this.db.rowRuns.get(id);
    if (raw === undefined) return undefined;
    const parsed = RowRunSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`The stored run ${id} cannot be read (${issueText(parsed.error)}).`);
    return parsed.data;
  }

  /** Changes a run's settings or status; `updatedAt` moves with every change. */
  async updateRun(
    id: string,
    patch: Partial<Omit<RowRun, 'id' | 'schemaVersion'>>,
    now = Date.now(),
  ): Promise<void> {
    const changed = await this.db.rowRuns.update(id, { ...patch, updatedAt: now });
    if (changed === 0) throw new Error(`The run ${id} is no longer stored.`);
  }

  /**
   * A run's rows in file order, each parsed, with the outcomes of its reused chunks read over the rows' own (an
   * answered outcome is final: the row's own wins if it is answered too). The parse pauses every few thousand rows so
   * the page stays responsive. A chunk record that does not parse is reported as row -1; its rows read as they were
   * before it (not answered), so they are looked up and reused again, never billed.
   */
  async loadItems(runId: string): Promise<LoadedItems> {
    const [raw, chunks] = await Promise.all([
      this.db.rowItems.where('runId').equals(runId).toArray(),
      this.reusedOutcomes(runId),
    ]);
    const items: RowItem[] = [];
    const unreadable: number[] = [...chunks.unreadable];
    for (let i = 0; i < raw.length; i++) {
      if (i > 0 && i % PARSE_CHUNK === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      const r = raw[i];
      const parsed = RowItemSchema.safeParse(r);
      if (parsed.success) {
        const reused = chunks.outcomes.get(parsed.data.number);
        const own = parsed.data.outcome?.status;
        items.push(reused && !(own && ANSWERED.has(own)) ? { ...parsed.data, outcome: reused } : parsed.data);
      } else {
        const n = (r as { number?: unknown } | undefined)?.number;
        unreadable.push(typeof n === 'number' ? n : -1);
      }
    }
    items.sort((a, b) => a.number - b.number);
    return { items, unreadable };
  }

  /** The outcomes in a run's reused-chunk records, by row number; -1 for each record that does not parse. */
  private async reusedOutcomes(
    runId: string,
  ): Promise<{ outcomes: Map<number, RowOutcome>; unreadable: number[] }> {
    const outcomes = new Map<number, RowOutcome>();
    const unreadable: number[] = [];
    for (const raw of await this.db.rowReuses.where('runId').equals(runId).toArray()) {
      const parsed = ReusedChunkSchema.safeParse(raw);
      if (!parsed.success) unreadable.push(-1);
      else for (const row of parsed.data.rows) outcomes.set(row.number, row.outcome);
    }
    return { outcomes, unreadable };
  }

  /** Stored answers for the given keys (missing or unreadable ones are left out). */
  answers(keys: readonly string[]): Promise<Map<string, StoredAnswer>> {
    return findStoredAnswers(this.db, keys);
  }

  /**
   * Sets one row's human label for a question (null clears it), a labeller's own when `annotator` is given, and
   * returns the row's labels after the change. One read-modify-write transaction, so a label given while the run
   * writes outcomes loses neither.
   */
  async setLabel(
    runId: string,
    number: number,
    question: string,
    value: LabelValue | null,
    annotator?: string,
  ): Promise<RowLabels | undefined> {
    return (
      await this.setLabels(runId, [
        { number, question, value, ...(annotator !== undefined ? { annotator } : {}) },
      ])
    ).get(number);
  }

  /**
   * Sets many rows' labels (null clears one) in one read-modify-write transaction, and returns each changed row's
   * labels and annotations after it: labels taken from a session at once are stored, or none are. An edit with an
   * annotator keeps that labeller's label apart, the row's label becomes the majority (applyLabelEdits), and a plain
   * label already there is kept as the annotator `plainAnnotator` names for its question (its label column).
   */
  async setLabels(
    runId: string,
    changes: readonly LabelEdit[],
    plainAnnotator: Readonly<Record<string, string>> = {},
  ): Promise<Map<number, RowLabels>> {
    const byRow = new Map<number, LabelEdit[]>();
    for (const change of changes) {
      const edit = LabelEditSchema.parse(change);
      const edits = byRow.get(edit.number);
      if (edits) edits.push(edit);
      else byRow.set(edit.number, [edit]);
    }
    const numbers = [...byRow.keys()];
    return this.db.transaction('rw', this.db.rowItems, async () => {
      const raws = await this.db.rowItems.bulkGet(numbers.map((n) => [runId, n] as [string, number]));
      const after = new Map<number, RowLabels>();
      numbers.forEach((n, i) => {
        const raw = raws[i];
        if (raw === undefined) throw new Error(`Row ${n} of run ${runId} is no longer stored.`);
        const stored = StoredLabelsSchema.safeParse(raw);
        if (!stored.success)
          throw new Error(
            `The labels of row ${n} of run ${runId} cannot be read (${issueText(stored.error)}).`,
          );
        after.set(n, applyLabelEdits(stored.data, byRow.get(n)!, plainAnnotator));
      });
      // Absent fields are written as undefined, which removes them from the stored row.
      await this.db.rowItems.bulkUpdate(
        [...after].map(([n, { labels, annotations }]) => ({
          key: [runId, n] as [string, number],
          changes: { labels, annotations },
        })),
      );
      return after;
    });
  }

  /**
   * How many of a run's rows are settled (no longer waiting to be sent), counted without parsing every row: those
   * with an outcome of their own past pending, and those in a reused chunk.
   */
  async countSettled(runId: string): Promise<number> {
    const reused = new Set<number>();
    await this.db.rowReuses
      .where('runId')
      .equals(runId)
      .each((chunk: { rows?: unknown }) => {
        if (!Array.isArray(chunk.rows)) return;
        for (const row of chunk.rows as Array<{ number?: unknown }>)
          if (typeof row.number === 'number') reused.add(row.number);
      });
    let settled = 0;
    await this.db.rowItems
      .where('runId')
      .equals(runId)
      .each((item: { number?: unknown; outcome?: { status?: unknown } }) => {
        const status = item.outcome?.status;
        if ((typeof status === 'string' && status !== 'pending') || reused.has(item.number as number))
          settled += 1;
      });
    return settled;
  }

  /** Deletes a run and its rows. Answers stay: they are the dedup store every run shares. */
  async deleteRun(id: string): Promise<void> {
    await this.db.transaction('rw', this.db.rowRuns, this.db.rowItems, this.db.rowReuses, async () => {
      await this.db.rowItems.where('runId').equals(id).delete();
      await this.db.rowReuses.where('runId').equals(id).delete();
      await this.db.rowRuns.delete(id);
    });
  }

  /** Forgets every stored answer, so nothing is reused any more; returns how many there were. */
  async clearAnswers(): Promise<number> {
    const n = await this.db.rowAnswers.count();
    await this.db.rowAnswers.clear();
    return n;
  }

  /**
   * The runner's store for one run. Writes are coalesced: while one transaction commits, the writes that arrive wait
   * and then go together in the next one. IndexedDB runs one read-write transaction on a store at a time, so one
   * transaction per write would cap a run at what the disk commits per second; a batch costs about the same as one.
   * Each write's promise still resolves only once its own transaction has committed, so `sending` is on disk before
   * the request leaves.
   */
  runStore(runId: string): RunStore {
    const db = this.db;
    type Write = {
      number: number;
      outcome: RowOutcome;
      answer?: StoredAnswer;
      resolve: () => void;
      reject: (error: unknown) => void;
    };
    let queue: Write[] = [];
    let committing = false;

    /**
     * The stored rows of these numbers, in their order. Rows close together (a chunk of reused rows) are read as one
     * key range, a single IndexedDB request; scattered ones (rows answered one by one) by key.
     */
    const readItems = async (numbers: readonly number[]): Promise<(RowItem | undefined)[]> => {
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
    };

    // NOTE: a batch may be started from code that runs inside another Dexie transaction's zone (a lookup that just
    // finished); ignoreTransaction keeps it a transaction of its own instead of a nested one.
    const commit = (batch: Write[]): Promise<void> => {
      const answers = batch.flatMap((w) => (w.answer ? [w.answer] : []));
      // Answers' table only when there are answers: a batch of outcomes alone (rows going out) then never holds up a
      // lookup of stored answers (a read of that table waits for any read-write transaction over it).
      const tables = answers.length > 0 ? [db.rowItems, db.rowAnswers] : [db.rowItems];
      return Dexie.ignoreTransaction(() =>
        db.transaction('rw', tables, async () => {
          if (answers.length > 0) await db.rowAnswers.bulkPut(answers);
          // The last write of a row in the batch is the one that counts.
          const latest = new Map<number, RowOutcome>();
          for (const w of batch) latest.set(w.number, w.outcome);
          const stored = await readItems([...latest.keys()]);
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
    };

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

    const enqueue = (number: number, outcome: RowOutcome, answer?: StoredAnswer): Promise<void> =>
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

    return {
      saveOutcome: (number, outcome) => enqueue(number, outcome),
      saveAnswered: (number, outcome, answer) => enqueue(number, outcome, answer),
      // One bulkGet per look-ahead chunk; an answer that no longer parses is not reused (the row is sent again).
      findAnswers: (keys) => this.answers(keys),
      findQuestionAnswers: (keys) => findQuestionAnswers(db, keys),
      // One record per chunk, over its own table: nothing else writes it, so no batch and no read first.
      saveReused: async (rows) => {
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
      },
    };
  }
}
