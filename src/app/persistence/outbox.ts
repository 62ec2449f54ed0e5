// Labels waiting for the workspace's server, in IndexedDB: written before they are sent, deleted once acknowledged,
// so a label given offline, or whose answer was lost, survives a reload and is sent again with the same client id.
import type { LabelInput } from '../../contract/workspace';
import type { WorkbenchDb } from './db';
import { outboxRecord, readOutboxRecord } from './outboxRecord';
import type { OutboxRecord, OutboxRow } from './outboxRecord';

/** What the outbox holds: records to send, oldest first, and rows it could not read (kept, reported). */
export interface OutboxContents {
  records: OutboxRecord[];
  unreadable: { clientId: string; message: string }[];
}

export class OutboxRepo {
  constructor(private readonly db: WorkbenchDb) {}

  /** Keeps a label until the server acknowledges it; the same client id again replaces it (an edit before sending). */
  async keep(queueId: string, label: LabelInput, createdAt: string): Promise<OutboxRecord> {
    const record = outboxRecord(queueId, label, createdAt);
    await this.db.outbox.put(record as unknown as OutboxRow);
    return record;
  }

  /** Everything kept, oldest first. */
  async contents(): Promise<OutboxContents> {
    const rows = await this.db.outbox.orderBy('createdAt').toArray();
    const out: OutboxContents = { records: [], unreadable: [] };
    for (const row of rows) {
      const read = readOutboxRecord(row);
      if (read.ok) out.records.push(read.record);
      else out.unreadable.push({ clientId: String(row.clientId), message: read.message });
    }
    return out;
  }

  /** Forgets labels the server acknowledged. */
  async acknowledged(clientIds: readonly string[]): Promise<void> {
    await this.db.outbox.bulkDelete([...clientIds]);
  }

  /** Marks labels the server refused for good, with its sentence: kept for the person, not sent again. */
  async refused(clientIds: readonly string[], sentence: string): Promise<void> {
    await this.db.transaction('rw', this.db.outbox, async () => {
      for (const clientId of clientIds) await this.db.outbox.update(clientId, { refusal: sentence });
    });
  }

  /** Deletes a refused label the person chose to drop. */
  async discard(clientId: string): Promise<void> {
    await this.db.outbox.delete(clientId);
  }
}
