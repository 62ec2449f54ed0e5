// Arranging storage for persistence tests: fresh databases and a simulated full disk.
import type { DBCore, DBCoreMutateRequest } from 'dexie';
import { WorkbenchDb } from '../../../../src/app/persistence/db';

let counter = 0;
/** A new, empty database with a name no other test uses. */
export function freshDbName(): string {
  counter += 1;
  return `test-workbench-${process.pid}-${counter}-${Math.random().toString(36).slice(2)}`;
}

/** A WorkbenchDb whose writes can be made to fail as a full disk does (QuotaExceededError from IndexedDB); deletes pass. */
export function dbWithQuota(name = freshDbName()): { db: WorkbenchDb; setFull: (full: boolean) => void } {
  let full = false;
  const db = new WorkbenchDb(name);
  db.use({
    stack: 'dbcore',
    name: 'simulated-quota',
    create: (down: DBCore): DBCore => ({
      ...down,
      table: (tableName) => {
        const table = down.table(tableName);
        return {
          ...table,
          // A full store still deletes (browsers let a delete through: it frees space, it needs none).
          mutate: (req: DBCoreMutateRequest) =>
            full && req.type !== 'delete' && req.type !== 'deleteRange'
              ? Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'))
              : table.mutate(req),
        };
      },
    }),
  });
  return { db, setFull: (value) => (full = value) };
}
