// Sessions in IndexedDB: list, search, get, put, duplicate, delete with undo, import. Every row read is parsed and
// migrated; a row that does not parse is reported, never dropped or overwritten.
import { z } from 'zod';
import { newId } from '../../core/ids';
import { scrubSecrets } from '../../core/scrubSecrets';
import { SESSION_SCHEMA_VERSION, SessionSchema } from '../../core/session';
import type { Session, SessionDoc } from '../../core/session';
import { matchesSession, queryTerms } from '../../core/sessionSearch';
import { migrateSession } from '../../core/sessionMigrations';
import { resolveSave } from '../../core/sessionMerge';
import type { SaveBase, SaveResolution } from '../../core/sessionMerge';
import type { SessionRow, WorkbenchDb } from './db';
import { isQuotaError } from './storageErrors';

/** A stored row that could not be read as a session: kept in the database, shown to the user, exportable raw. */
export interface UnreadableRow {
  id: string;
  message: string;
}

const JOURNAL_PREFIX = 'unsaved:';
const journalKey = (id: string): string => `${JOURNAL_PREFIX}${id}`;

/** A session a closing page had not saved yet, with the stored record its content was made from. */
export const JournalEntrySchema = z.object({
  session: SessionSchema,
  base: z.object({ session: SessionSchema, revision: z.number().int() }).nullable(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/** A stored record and about how much space deleting it frees. */
export interface SpaceUse {
  kind: 'session' | 'rows';
  id: string;
  name: string;
  bytes: number;
}

/** About the bytes a record takes: its JSON length in UTF-16 code units, as browsers roughly store strings. */
const sizeOf = (value: unknown): number => {
  try {
    return JSON.stringify(value).length * 2;
  } catch {
    return 0;
  }
};

/** Every live session, newest change first, and the rows that could not be read. */
export interface Listing {
  sessions: Session[];
  unreadable: UnreadableRow[];
}

type ReadRow =
  { ok: true; session: Session; deletedAt?: string } | { ok: false; id: string; message: string };

/** Parses and migrates one stored row. */
export function readRow(raw: unknown): ReadRow {
  const id =
    typeof raw === 'object' && raw !== null && typeof (raw as { id?: unknown }).id === 'string'
      ? (raw as { id: string }).id
      : '?';
  try {
    const deletedAt = (raw as { deletedAt?: unknown }).deletedAt;
    return {
      ok: true,
      session: migrateSession(raw),
      ...(typeof deletedAt === 'string' ? { deletedAt } : {}),
    };
  } catch (error) {
    return { ok: false, id, message: error instanceof Error ? error.message : String(error) };
  }
}

const byNewest = (a: Session, b: Session): number =>
  a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id.localeCompare(b.id);

/** The name of a copy: "Name (copy)". */
export const copyName = (name: string): string => `${name} (copy)`;

/** A new session record around editor content. */
export function newSession(doc: SessionDoc, name: string, now: Date = new Date()): Session {
  const at = now.toISOString();
  return {
    schemaVersion: SESSION_SCHEMA_VERSION,
    id: newId(),
    name,
    createdAt: at,
    updatedAt: at,
    doc,
    runs: [],
  };
}

/** Sessions stored in a WorkbenchDb. All methods reject with the storage error (quota included) when a write fails. */
export class SessionsRepo {
  constructor(readonly db: WorkbenchDb) {}

  /** Every session not deleted, newest change first, plus the unreadable rows. */
  async listAll(): Promise<Listing> {
    const rows: unknown[] = await this.db.sessions.toArray();
    const sessions: Session[] = [];
    const unreadable: UnreadableRow[] = [];
    for (const raw of rows) {
      const read = readRow(raw);
      if (!read.ok) unreadable.push({ id: read.id, message: read.message });
      else if (read.deletedAt === undefined) sessions.push(read.session);
    }
    return { sessions: sessions.sort(byNewest), unreadable };
  }

  /** Sessions whose name or content holds every word of the query, newest first. */
  async search(query: string): Promise<Session[]> {
    const terms = queryTerms(query);
    return (await this.listAll()).sessions.filter((s) => matchesSession(s, terms));
  }

  /** The session, or undefined when there is none or it was deleted. Throws a SessionRecordError for a damaged row. */
  async get(id: string): Promise<Session | undefined> {
    const raw: unknown = await this.db.sessions.get(id);
    if (raw === undefined) return undefined;
    const read = readRow(raw);
    if (!read.ok) throw new Error(read.message);
    return read.deletedAt === undefined ? read.session : undefined;
  }

  /** The stored row exactly as it is, for exporting a row that does not read. */
  async rawRow(id: string): Promise<unknown> {
    return this.db.sessions.get(id);
  }

  /**
   * Stores a session as it is (parsed, credentials in run messages masked), for records only this tab knows (a new id):
   * an edit of a stored session goes through save(). A session deleted meanwhile stays deleted.
   */
  async put(session: Session): Promise<Session> {
    const clean = scrubSecrets(SessionSchema.parse(session));
    let stored: Session = clean;
    await this.db.transaction('rw', this.db.sessions, async () => {
      const existing = await this.db.sessions.get(clean.id);
      const deletedAt = existing?.deletedAt;
      // Every write moves the revision on, so the other tabs see that something changed.
      const revised = { ...clean, revision: (existing?.revision ?? 0) + 1 };
      await this.db.sessions.put(deletedAt ? { ...revised, deletedAt } : revised);
      stored = revised;
    });
    return stored;
  }

  /**
   * Saves a session edited from `base` (the stored record it was made from). When another tab stored a newer revision
   * meanwhile, the two are merged (core/sessionMerge) and a field changed on both sides keeps the other version as a
   * copy, in the same transaction. A session deleted meanwhile stays deleted (`deleted` says so), its content saved.
   */
  async save(
    session: Session,
    base: SaveBase | null,
    makeId: () => string = newId,
  ): Promise<SaveResolution & { deleted: boolean }> {
    const clean = scrubSecrets(SessionSchema.parse(session));
    let out: SaveResolution | undefined;
    let deleted = false;
    await this.db.transaction('rw', this.db.sessions, this.db.meta, async () => {
      // This save supersedes what the page left in the journal for this session when it last closed mid-save.
      await this.db.meta.delete(journalKey(clean.id));
      const raw: unknown = await this.db.sessions.get(clean.id);
      const read = raw === undefined ? undefined : readRow(raw);
      const deletedAt = read?.ok ? read.deletedAt : undefined;
      deleted = deletedAt !== undefined;
      out = resolveSave(read?.ok ? read.session : undefined, base, clean, makeId);
      await this.db.sessions.put(deletedAt ? { ...out.record, deletedAt } : out.record);
      if (out.copy) await this.db.sessions.add(out.copy);
    });
    return { ...out!, deleted };
  }

  /**
   * Writes sessions to the journal at once, for an edit just typed or a page that is going away: one put per session,
   * issued now and committed without waiting for a reply, so the browser finishes it after the page is gone (an
   * ordinary save reads before it writes, and a page closed in between loses it). The next start replays the journal
   * through save(). Best effort: it does nothing when the database is not open; the promise settles when the write
   * committed or failed, and never rejects.
   */
  journalNow(entries: readonly JournalEntry[]): Promise<void> {
    if (entries.length === 0 || !this.db.isOpen()) return Promise.resolve();
    try {
      const tx = this.db.backendDB().transaction('meta', 'readwrite');
      const settled = new Promise<void>((resolve) => {
        tx.oncomplete = () => resolve();
        tx.onabort = () => resolve();
        tx.onerror = () => resolve();
      });
      const meta = tx.objectStore('meta');
      for (const entry of entries) meta.put({ key: journalKey(entry.session.id), value: entry });
      // Committed now, not when the page gets the reply (it may never): older engines without commit() auto-commit.
      if (typeof tx.commit === 'function') tx.commit();
      return settled;
    } catch {
      // Storage refused (or the page is going away): the ordinary save, flushed alongside, is all there is.
      return Promise.resolve();
    }
  }

  /** Saves what the journal holds (sessions a closing page could not save) and empties it; returns the ids saved. */
  async replayJournal(): Promise<string[]> {
    const rows = await this.db.meta.where('key').startsWith(JOURNAL_PREFIX).toArray();
    const saved: string[] = [];
    for (const row of rows) {
      const entry = JournalEntrySchema.safeParse(row.value);
      if (!entry.success) {
        await this.db.meta.delete(row.key);
        continue;
      }
      // save() deletes the journal entry in its own transaction.
      await this.save(entry.data.session, entry.data.base);
      saved.push(entry.data.session.id);
    }
    return saved;
  }

  /** Creates and stores a session around this content. */
  async create(doc: SessionDoc, name: string, now: Date = new Date()): Promise<Session> {
    return this.put(newSession(doc, name, now));
  }

  /** Renames a session; returns it, or undefined when it is gone. */
  async rename(id: string, name: string, now: Date = new Date()): Promise<Session | undefined> {
    const session = await this.get(id);
    if (!session) return undefined;
    const base = { session, revision: session.revision ?? 0 };
    return (await this.save({ ...session, name, updatedAt: now.toISOString() }, base)).record;
  }

  /** Stores a copy under a new id, named "… (copy)", with the same content and runs. */
  async duplicate(id: string, now: Date = new Date()): Promise<Session | undefined> {
    const session = await this.get(id);
    if (!session) return undefined;
    const at = now.toISOString();
    return this.put({ ...session, id: newId(), name: copyName(session.name), createdAt: at, updatedAt: at });
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

  /** The largest stored sessions and runs of rows, biggest first, with their approximate size: what to delete for space. */
  async largestRecords(limit = 3): Promise<SpaceUse[]> {
    const uses: SpaceUse[] = [];
    await this.db.sessions.each((raw: unknown) => {
      const read = readRow(raw);
      if (read.ok && read.deletedAt === undefined)
        uses.push({ kind: 'session', id: read.session.id, name: read.session.name, bytes: sizeOf(raw) });
    });
    const runBytes = new Map<string, number>();
    const addRunBytes = (record: { runId?: unknown }): void => {
      if (typeof record.runId === 'string')
        runBytes.set(record.runId, (runBytes.get(record.runId) ?? 0) + sizeOf(record));
    };
    await this.db.rowItems.each(addRunBytes);
    await this.db.rowReuses.each(addRunBytes);
    await this.db.rowRuns.each((run: { id?: unknown; fileName?: unknown }) => {
      if (typeof run.id !== 'string') return;
      const name = typeof run.fileName === 'string' ? run.fileName : run.id;
      uses.push({ kind: 'rows', id: run.id, name, bytes: sizeOf(run) + (runBytes.get(run.id) ?? 0) });
    });
    return uses.sort((a, b) => b.bytes - a.bytes).slice(0, limit);
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

  /**
   * Stores imported sessions in one transaction (all or nothing). A session whose id is already stored, or repeats
   * within the batch, comes in as a copy with a new id and " (copy)" in its name.
   */
  async importSessions(sessions: readonly Session[]): Promise<{ sessions: Session[]; copies: number }> {
    const stored: Session[] = [];
    let copies = 0;
    await this.db.transaction('rw', this.db.sessions, async () => {
      const taken = new Set<string>((await this.db.sessions.toCollection().primaryKeys()).map(String));
      for (const incoming of sessions) {
        let session = scrubSecrets(SessionSchema.parse(incoming));
        if (taken.has(session.id)) {
          session = { ...session, id: newId(), name: copyName(session.name) };
          copies += 1;
        }
        taken.add(session.id);
        stored.push(session);
      }
      await this.db.sessions.bulkAdd(stored);
    });
    return { sessions: stored, copies };
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
