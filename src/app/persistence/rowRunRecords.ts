// The run records of files of rows in IndexedDB: a run is created with its rows (and any answers that come with them)
// in one transaction, listed, read, changed and deleted with its rows. Every record read is parsed, and one that does
// not parse is reported, never dropped.
import { RowRunSchema, StoredAnswerSchema } from '../../core/rows/records';
import type { RowItem, RowRun, StoredAnswer } from '../../core/rows/records';
import type { WorkbenchDb } from './db';
import { issueText } from './rowsRead';

/** Rows between two progress reports when a run is created. */
const CREATE_CHUNK = 5000;
/**
 * Rows handed to IndexedDB at a time when a run is created. Each `add` clones its row on the page's thread inside one
 * task, so 5,000 at once held the page for about 150 ms; 500 keep each task well under 50 ms. The next slice starts
 * when the last one's requests succeed, which is a new task, and the transaction stays one.
 */
const WRITE_SLICE = 500;

/** A run's own record: created with its rows in one transaction, listed, read, changed and deleted. */
export class RowRunRecords {
  constructor(protected readonly db: WorkbenchDb) {}

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
}
