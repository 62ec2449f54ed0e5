// Writes of whole sessions: a put for a record only this tab knows, a save merged with what another tab stored
// meanwhile (core/sessionMerge), and an import of many at once. Credentials in run messages are masked before any.
import { newId } from '../../core/ids';
import { scrubSecrets } from '../../core/scrubSecrets';
import { SessionSchema } from '../../core/session';
import type { Session } from '../../core/session';
import { resolveSave } from '../../core/sessionMerge';
import type { SaveBase, SaveResolution } from '../../core/sessionMerge';
import type { WorkbenchDb } from './db';
import { journalKey } from './sessionJournal';
import { copyName, readRow } from './sessionRows';

/**
 * Stores a session as it is (parsed, credentials in run messages masked), for records only this tab knows (a new id):
 * an edit of a stored session goes through save(). A session deleted meanwhile stays deleted.
 */
export async function putSession(db: WorkbenchDb, session: Session): Promise<Session> {
  const clean = scrubSecrets(SessionSchema.parse(session));
  let stored: Session = clean;
  await db.transaction('rw', db.sessions, async () => {
    const existing = await db.sessions.get(clean.id);
    const deletedAt = existing?.deletedAt;
    // Every write moves the revision on, so the other tabs see that something changed.
    const revised = { ...clean, revision: (existing?.revision ?? 0) + 1 };
    await db.sessions.put(deletedAt ? { ...revised, deletedAt } : revised);
    stored = revised;
  });
  return stored;
}

/**
 * Saves a session edited from `base` (the stored record it was made from). When another tab stored a newer revision
 * meanwhile, the two are merged (core/sessionMerge) and a field changed on both sides keeps the other version as a
 * copy, in the same transaction. A session deleted meanwhile stays deleted (`deleted` says so), its content saved.
 */
export async function saveMerged(
  db: WorkbenchDb,
  session: Session,
  base: SaveBase | null,
  makeId: () => string = newId,
): Promise<SaveResolution & { deleted: boolean }> {
  const clean = scrubSecrets(SessionSchema.parse(session));
  let out: SaveResolution | undefined;
  let deleted = false;
  await db.transaction('rw', db.sessions, db.meta, async () => {
    // This save supersedes what the page left in the journal for this session when it last closed mid-save.
    await db.meta.delete(journalKey(clean.id));
    const raw: unknown = await db.sessions.get(clean.id);
    const read = raw === undefined ? undefined : readRow(raw);
    const deletedAt = read?.ok ? read.deletedAt : undefined;
    deleted = deletedAt !== undefined;
    out = resolveSave(read?.ok ? read.session : undefined, base, clean, makeId);
    await db.sessions.put(deletedAt ? { ...out.record, deletedAt } : out.record);
    if (out.copy) await db.sessions.add(out.copy);
  });
  return { ...out!, deleted };
}

/**
 * Stores imported sessions in one transaction (all or nothing). A session whose id is already stored, or repeats
 * within the batch, comes in as a copy with a new id and " (copy)" in its name.
 */
export async function importSessions(
  db: WorkbenchDb,
  sessions: readonly Session[],
): Promise<{ sessions: Session[]; copies: number }> {
  const stored: Session[] = [];
  let copies = 0;
  await db.transaction('rw', db.sessions, async () => {
    const taken = new Set<string>((await db.sessions.toCollection().primaryKeys()).map(String));
    for (const incoming of sessions) {
      let session = scrubSecrets(SessionSchema.parse(incoming));
      if (taken.has(session.id)) {
        session = { ...session, id: newId(), name: copyName(session.name) };
        copies += 1;
      }
      taken.add(session.id);
      stored.push(session);
    }
    await db.sessions.bulkAdd(stored);
  });
  return { sessions: stored, copies };
}
