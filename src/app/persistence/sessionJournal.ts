// The journal of unsaved sessions: what a closing page had not saved yet, written at once without a read (so the
// browser finishes it after the page is gone), replayed through the ordinary save at the next start.
import { z } from 'zod';
import { SessionSchema } from '../../core/session';
import type { Session } from '../../core/session';
import type { SaveBase } from '../../core/sessionMerge';
import type { WorkbenchDb } from './db';

const JOURNAL_PREFIX = 'unsaved:';
/** The meta key of a session's journal entry. */
export const journalKey = (id: string): string => `${JOURNAL_PREFIX}${id}`;

/** A session a closing page had not saved yet, with the stored record its content was made from. */
export const JournalEntrySchema = z.object({
  session: SessionSchema,
  base: z.object({ session: SessionSchema, revision: z.number().int() }).nullable(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/**
 * Writes sessions to the journal at once, for an edit just typed or a page that is going away: one put per session,
 * issued now and committed without waiting for a reply, so the browser finishes it after the page is gone (an
 * ordinary save reads before it writes, and a page closed in between loses it). The next start replays the journal
 * through save(). Best effort: it does nothing when the database is not open; the promise settles when the write
 * committed or failed, and never rejects.
 */
export function journalNow(db: WorkbenchDb, entries: readonly JournalEntry[]): Promise<void> {
  if (entries.length === 0 || !db.isOpen()) return Promise.resolve();
  try {
    const tx = db.backendDB().transaction('meta', 'readwrite');
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
export async function replayJournal(
  db: WorkbenchDb,
  save: (session: Session, base: SaveBase | null) => Promise<unknown>,
): Promise<string[]> {
  const rows = await db.meta.where('key').startsWith(JOURNAL_PREFIX).toArray();
  const saved: string[] = [];
  for (const row of rows) {
    const entry = JournalEntrySchema.safeParse(row.value);
    if (!entry.success) {
      await db.meta.delete(row.key);
      continue;
    }
    // save() deletes the journal entry in its own transaction.
    await save(entry.data.session, entry.data.base);
    saved.push(entry.data.session.id);
  }
  return saved;
}
