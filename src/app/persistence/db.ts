// The workbench's IndexedDB database, through Dexie: the one module that declares its schema versions and upgrades.
// Rows are untrusted on read (another tab, an older build, a hand edit): the repo parses and migrates every one.
import Dexie from 'dexie';
import type { Table } from 'dexie';
import { migrateSession } from '../../core/sessionMigrations';
import type { Session } from '../../core/session';
import type { ReusedChunk, RowItem, RowRun, StoredAnswer } from '../../core/rows/records';
import type { OutboxRow } from './outboxRecord';

/** Name of the database in the browser profile. */
export const DB_NAME = 'evaluate-workbench';

/** A session as stored: the record plus, while it sits in the undo window, when it was deleted. */
export type SessionRow = Session & { deletedAt?: string };

/** Small named values: the open session id, the layout, whether storage persistence was asked for. */
export interface MetaRow {
  key: string;
  value: unknown;
}

/**
 * Version 1 (the first released schema): `sessions` keyed by id, holding session records of schema version 1.
 * Version 2: session records of schema version 2 (`doc`, run ids and attempts), indexes for the sidebar's order and
 * for soft-deleted rows, and the `meta` table.
 *
 * Version 3 (issue 7): runs of a file of rows in their own tables, so a large file never bloats the session record the
 * sidebar reads: `rowRuns` (one per run), `rowItems` (each row's input and outcome, keyed [runId+number]) and
 * `rowAnswers` (answers by dedup key, shared by every run). Read and parsed by rowsRepo.ts.
 *
 * Version 4 (issue 19): `rowReuses`, the outcomes of a chunk of reused rows in one record keyed [runId+chunk], read
 * over the rows' own outcomes by rowsRepo.ts. A new table: nothing to migrate.
 *
 * Version 5 (issue 12, reuse per question): `rowAnswers` indexes each answer's `questionKeys` (multiEntry), so the
 * answer of one question asked with others is found by that question's own key. An index, not a copy per question:
 * each answer stays one record. Answers stored before it have no such keys (their state and questions were not kept)
 * and are found only whole, as before: nothing to migrate.
 *
 * Version 6 (issue 40, the team workspace): `outbox`, the labels given in a workspace queue and not yet acknowledged by
 * its server, keyed by each label's client id (so a retry never doubles it), read and parsed by outbox.ts. A new
 * table: nothing to migrate; its records carry their own schema version (outboxRecord.ts).
 */
export class WorkbenchDb extends Dexie {
  sessions!: Table<SessionRow, string>;
  meta!: Table<MetaRow, string>;
  rowRuns!: Table<RowRun, string>;
  rowItems!: Table<RowItem, [string, number]>;
  rowAnswers!: Table<StoredAnswer, string>;
  rowReuses!: Table<ReusedChunk, [string, string]>;
  outbox!: Table<OutboxRow, string>;

  constructor(name: string = DB_NAME) {
    super(name);
    this.version(1).stores({ sessions: 'id' });
    this.version(2)
      .stores({ sessions: 'id, updatedAt, deletedAt', meta: 'key' })
      .upgrade((tx) =>
        tx
          .table('sessions')
          .toCollection()
          .modify((row: Record<string, unknown>, ctx: { value: unknown }) => {
            // A row that does not migrate stays as it was: never lost, and reported as unreadable by the repo,
            // which tries again on every read (a later build may know how to read it).
            try {
              const deletedAt = typeof row['deletedAt'] === 'string' ? row['deletedAt'] : undefined;
              ctx.value = { ...migrateSession(row), ...(deletedAt ? { deletedAt } : {}) };
            } catch {
              return false;
            }
          }),
      );
    this.version(3).stores({
      rowRuns: 'id, sessionId, updatedAt',
      rowItems: '[runId+number], runId',
      rowAnswers: 'key',
    });
    this.version(4).stores({ rowReuses: '[runId+chunk], runId' });
    this.version(5).stores({ rowAnswers: 'key, *questionKeys' });
    this.version(6).stores({ outbox: 'clientId, queueId, createdAt' });
  }
}

/** The one database the app uses, opened on first use. Tests make their own WorkbenchDb with a fresh name. */
let shared: WorkbenchDb | undefined;
export function appDb(): WorkbenchDb {
  shared ??= new WorkbenchDb();
  return shared;
}
