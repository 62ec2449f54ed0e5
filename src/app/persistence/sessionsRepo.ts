// Sessions in IndexedDB: list, search, get, put, duplicate, delete with undo, import. Every row read is parsed and
// migrated; a row that does not parse is reported, never dropped or overwritten. The records are sessionRecords.ts's,
// whole-session writes sessionWrites.ts's, the journal of unsaved edits sessionJournal.ts's, the space report
// storageSpace.ts's; this class adds deletion with undo and the meta values.
import type { z } from 'zod';
import type { Session } from '../../core/session';
import type { SessionRow } from './db';
import { journalNow, replayJournal } from './sessionJournal';
import type { JournalEntry } from './sessionJournal';
import { SessionRecords } from './sessionRecords';
import { importSessions } from './sessionWrites';
import { largestRecords } from './storageSpace';
import type { SpaceUse } from './storageSpace';
import { isQuotaError } from './storageErrors';

export { JournalEntrySchema } from './sessionJournal';
export type { JournalEntry } from './sessionJournal';
export { copyName, newSession, readRow } from './sessionRows';
export type { Listing, UnreadableRow } from './sessionRows';
export type { SpaceUse } from './storageSpace';

/** Sessions stored in a WorkbenchDb. All methods reject with the storage error (quota included) when a write fails. */
export class SessionsRepo extends SessionRecords {
  /** Writes sessions to the journal at once, for a page going away; never rejects (sessionJournal.ts). */
  journalNow(entries: readonly JournalEntry[]): Promise<void> {
    return journalNow(this.db, entries);
  }

  /** Saves what the journal holds (sessions a closing page could not save) and empties it; returns the ids saved. */
  replayJournal(): Promise<string[]> {
    return replayJournal(this.db, (session, base) => this.save(session, base));
  }

  /**
   * Deletes a session, recoverably until purged: undoRemove brings it back exactly. Marking it deleted rewrites the
   * record, which a full store refuses; then it is deleted for good (a delete needs no space and frees its size) and
   * `freed` says so, so the caller keeps the copy Undo needs in memory.
   */
  async remove(id: string, now: Date = new Date()): Promise<{ freed: boolean }> {
    try {
      await this.db.sessions.update(id, { deletedAt: now.toISOString() });
      return { freed: false };
    } catch (error) {
      if (!isQuotaError(error)) throw error;
      await this.db.sessions.delete(id);
      return { freed: true };
    }
  }

  /** The largest stored sessions and runs of rows, biggest first, with their approximate size (storageSpace.ts). */
  largestRecords(limit = 3): Promise<SpaceUse[]> {
    return largestRecords(this.db, limit);
  }

  /** Brings back a session deleted with remove. */
  async undoRemove(id: string): Promise<Session | undefined> {
    await this.db.transaction('rw', this.db.sessions, async () => {
      const row = await this.db.sessions.get(id);
      if (!row || row.deletedAt === undefined) return;
      const { deletedAt: _deletedAt, ...rest } = row;
      await this.db.sessions.put(rest);
    });
    return this.get(id);
  }

  /** Removes for good the sessions deleted more than `olderThanMs` ago; returns how many. */
  async purgeDeleted(olderThanMs: number, now: Date = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - olderThanMs).toISOString();
    return this.db.sessions.where('deletedAt').below(cutoff).delete();
  }

  /** Stores imported sessions in one transaction, all or nothing; a taken id comes in as a copy (sessionWrites.ts). */
  importSessions(sessions: readonly Session[]): Promise<{ sessions: Session[]; copies: number }> {
    return importSessions(this.db, sessions);
  }

  /** A meta value, parsed; undefined when absent or not of the expected shape. */
  async getMeta<T>(key: string, schema: z.ZodType<T>): Promise<T | undefined> {
    const row = await this.db.meta.get(key);
    if (!row) return undefined;
    const parsed = schema.safeParse(row.value);
    return parsed.success ? parsed.data : undefined;
  }

  /** Stores a meta value. */
  async setMeta(key: string, value: unknown): Promise<void> {
    await this.db.meta.put({ key, value });
  }
}

export type { SessionRow };
