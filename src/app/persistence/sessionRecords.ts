// Session records: read (parsed and migrated; a row that does not parse is reported, never dropped or overwritten),
// listed, searched, created, renamed, duplicated, and saved through sessionWrites.ts.
import { newId } from '../../core/ids';
import type { Session, SessionDoc } from '../../core/session';
import { matchesSession, queryTerms } from '../../core/sessionSearch';
import type { SaveBase, SaveResolution } from '../../core/sessionMerge';
import type { WorkbenchDb } from './db';
import { byNewest, copyName, newSession, readRow } from './sessionRows';
import type { Listing, UnreadableRow } from './sessionRows';
import { putSession, saveMerged } from './sessionWrites';

/** Session records in a WorkbenchDb: read, list, search, and the writes of one session. */
export class SessionRecords {
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

  /** Stores a session as it is, for records only this tab knows (a new id); an edit goes through save(). */
  put(session: Session): Promise<Session> {
    return putSession(this.db, session);
  }

  /** Saves a session edited from `base`, merged with what another tab stored meanwhile (sessionWrites.ts). */
  save(
    session: Session,
    base: SaveBase | null,
    makeId: () => string = newId,
  ): Promise<SaveResolution & { deleted: boolean }> {
    return saveMerged(this.db, session, base, makeId);
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
}
