// Runs of a file of rows in IndexedDB: the run records (create, list, read, change, delete), and, through the modules
// that own them, the rows read back (rowsRead.ts), label writes (rowLabelsWrite.ts), the runner's store of outcomes
// (rowRunStore.ts) and answers by dedup key (storedAnswers.ts). Every record read is parsed, and one that does not
// parse is reported, never dropped.
import type { LabelValue, RowLabels } from '../../core/labels';
import type { RunStore } from '../../core/rows/runTypes';
import type { LabelEdit } from '../../core/rows/labels';
import { setLabels } from './rowLabelsWrite';
import { runStore } from './rowRunStore';
import { RowRunRecords } from './rowRunRecords';
import { countSettled, loadItems } from './rowsRead';
import type { LoadedItems } from './rowsRead';
import { findStoredAnswers } from './storedAnswers';

export type { LoadedItems } from './rowsRead';
export { findQuestionAnswers, findStoredAnswers } from './storedAnswers';

/** Runs of rows: their records (RowRunRecords), their rows read back, their labels, and the runner's store. */
export class RowsRepo extends RowRunRecords {
  /** A run's rows in file order, each parsed, reused chunks read over them (rowsRead.ts). */
  readonly loadItems = (runId: string): Promise<LoadedItems> => loadItems(this.db, runId);
  /** How many of a run's rows are settled, counted without parsing every row (rowsRead.ts). */
  readonly countSettled = (runId: string): Promise<number> => countSettled(this.db, runId);
  /** Stored answers for the given keys (missing or unreadable ones are left out). */
  readonly answers = (keys: readonly string[]) => findStoredAnswers(this.db, keys);
  /** The runner's store for one run, its writes coalesced into batches (rowRunStore.ts). */
  readonly runStore = (runId: string): RunStore => runStore(this.db, runId);
  /** Sets many rows' labels (null clears one) in one transaction, all or none; each row's labels after (rowLabelsWrite.ts). */
  readonly setLabels = (
    runId: string,
    changes: readonly LabelEdit[],
    plainAnnotator: Readonly<Record<string, string>> = {},
  ): Promise<Map<number, RowLabels>> => setLabels(this.db, runId, changes, plainAnnotator);

  /** Sets one row's label for a question (null clears it), a labeller's own with `annotator`; the row's labels after. */
  async setLabel(
    runId: string,
    number: number,
    question: string,
    value: LabelValue | null,
    annotator?: string,
  ): Promise<RowLabels | undefined> {
    const edit = { number, question, value, ...(annotator !== undefined ? { annotator } : {}) };
    return (await setLabels(this.db, runId, [edit])).get(number);
  }
}
