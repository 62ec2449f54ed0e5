// The robustness check's answers in IndexedDB: the same answers-by-key table the file runs share, so a check run again
// (or a row answered before) costs nothing. The check keeps no per-request progress: stopped, it is simply run again,
// and every request answered so far is reused from here.
import Dexie from 'dexie';
import { StoredAnswerSchema } from '../../core/rows/records';
import type { StoredAnswer } from '../../core/rows/records';
import type { RunStore } from '../../core/rows/runTypes';
import type { WorkbenchDb } from './db';
import { findQuestionAnswers, findStoredAnswers } from './rowsRepo';

/**
 * The runner's store for a check. Answers are saved for reuse; a save that fails is reported through `onSaveError`
 * and the check goes on (the answer is still in the report), since nothing of a check needs resuming.
 */
export function robustnessRunStore(
  db: WorkbenchDb,
  options: { seeds?: ReadonlyMap<string, StoredAnswer>; onSaveError?: (error: unknown) => void } = {},
): RunStore {
  const save = async (answer: StoredAnswer): Promise<void> => {
    try {
      const parsed = StoredAnswerSchema.parse(answer);
      await Dexie.ignoreTransaction(() => db.rowAnswers.put(parsed));
    } catch (error) {
      options.onSaveError?.(error);
    }
  };
  return {
    saveOutcome: async () => undefined,
    // Only an answer put together from per-question answers is new; the rest are stored already.
    async saveReused(rows) {
      for (const row of rows) if (row.answer) await save(row.answer);
    },
    saveAnswered: (_number, _outcome, answer) => save(answer),
    async findAnswers(keys) {
      const out = new Map<string, StoredAnswer>();
      const unseeded = keys.filter((key) => {
        const seeded = options.seeds?.get(key);
        if (seeded) out.set(key, seeded);
        return !seeded;
      });
      if (unseeded.length === 0) return out;
      try {
        for (const [key, answer] of await findStoredAnswers(db, unseeded)) out.set(key, answer);
      } catch {
        // unreadable storage means "not stored": the requests are sent
      }
      return out;
    },
    async findQuestionAnswers(keys) {
      try {
        return await findQuestionAnswers(db, keys);
      } catch {
        // unreadable storage means "not stored": the questions are sent
        return new Map<string, StoredAnswer>();
      }
    },
  };
}
