// Edits journaled as typed (issue 29 item 20): each change reaches the journal without waiting for the save's debounce,
// one write in flight at a time with the latest change next, and a fresh start replays it through the ordinary save.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { EditJournal } from '../../../../src/app/persistence/editJournal';
import type { JournalEntry } from '../../../../src/app/persistence/sessionsRepo';
import { SessionsRepo } from '../../../../src/app/persistence/sessionsRepo';
import { WorkbenchDb } from '../../../../src/app/persistence/db';
import { sampleSession } from '../../../helpers/sessions';
import { freshDbName } from './dbHelpers';

const withState = (stateText: string) => {
  const session = sampleSession();
  return { ...session, doc: { ...session.doc, stateText } };
};

let db: WorkbenchDb | undefined;
afterEach(async () => {
  db?.close();
  await db?.delete();
});

describe('EditJournal', () => {
  it('writes the first edit at once and coalesces the rest behind the write in flight', async () => {
    const written: string[][] = [];
    let release: () => void = () => {};
    const journal = new EditJournal(async (entries) => {
      written.push(entries.map((e) => e.session.doc.stateText));
      await new Promise<void>((resolve) => (release = resolve));
    });
    journal.note({ session: withState('a'), base: null });
    journal.note({ session: withState('ab'), base: null });
    journal.note({ session: withState('abc'), base: null });
    expect(written).toEqual([['a']]);
    release();
    await new Promise((r) => setTimeout(r, 0));
    // Only the latest content of the session waited; the middle one was replaced, never written.
    expect(written).toEqual([['a'], ['abc']]);
    release();
  });

  it('journals into IndexedDB so that a new start replays the last edit through the save', async () => {
    db = new WorkbenchDb(freshDbName());
    await db.open();
    const repo = new SessionsRepo(db);
    const stored = await repo.put(sampleSession());
    const journal = new EditJournal((entries: readonly JournalEntry[]) => repo.journalNow(entries));
    const edited = { ...stored, doc: { ...stored.doc, stateText: 'typed, then the browser closed' } };
    journal.note({ session: edited, base: { session: stored, revision: stored.revision ?? 0 } });
    // No save ran: the page went away. A new start replays what was journaled.
    await new Promise((r) => setTimeout(r, 20));
    const again = new SessionsRepo(db);
    expect(await again.replayJournal()).toEqual([stored.id]);
    const read = await again.get(stored.id);
    expect(read?.doc.stateText).toBe('typed, then the browser closed');
  });
});
