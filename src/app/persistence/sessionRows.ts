// A stored session row read: parsed and migrated, or reported with why it does not read; and the new records and
// copies the repo writes.
import { newId } from '../../core/ids';
import { SESSION_SCHEMA_VERSION } from '../../core/session';
import type { Session, SessionDoc } from '../../core/session';
import { migrateSession } from '../../core/sessionMigrations';

/** A stored row that could not be read as a session: kept in the database, shown to the user, exportable raw. */
export interface UnreadableRow {
  id: string;
  message: string;
}

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

/** Newest change first; by id when two changed at once. */
export const byNewest = (a: Session, b: Session): number =>
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
