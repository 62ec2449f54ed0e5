// Every edit journaled as it is typed: a browser closed whole (not a tab) gives the page no pagehide and kills a
// debounced save before it starts, so each change is put into the journal at once, one write in flight at a time and
// the latest change written next. The next start replays the journal (SessionsRepo.replayJournal), merged like a save.
import type { JournalEntry } from './sessionsRepo';

/** Writes journal entries now; resolves when the write committed or failed (nothing is thrown). */
export type JournalWrite = (entries: readonly JournalEntry[]) => Promise<void>;

/** Coalesces edits into journal writes: the first edit goes at once, later ones wait only for the write in flight. */
export class EditJournal {
  private inFlight = false;
  private readonly waiting = new Map<string, JournalEntry>();
  private disposed = false;

  constructor(private readonly write: JournalWrite) {}

  /** Journals this content of a session; a newer edit of the same session replaces one not written yet. */
  note(entry: JournalEntry): void {
    if (this.disposed) return;
    this.waiting.set(entry.session.id, entry);
    if (!this.inFlight) void this.drain();
  }

  /** Stops writing; edits not journaled yet stay with the ordinary save. */
  dispose(): void {
    this.disposed = true;
    this.waiting.clear();
  }

  private async drain(): Promise<void> {
    this.inFlight = true;
    while (this.waiting.size > 0 && !this.disposed) {
      const entries = [...this.waiting.values()];
      this.waiting.clear();
      await this.write(entries);
    }
    this.inFlight = false;
  }
}
