// The robustness check's answers in IndexedDB: the same answers-by-key table the file runs share, so a check run again
// (or a row answered before) costs nothing. The check keeps no per-request progress: stopped, it is simply run again,
// and every request answered so far is reused from here.
import Dexie from 'dexie';
import { StoredAnswerSchema } from '../../core/rows/records';
import type { StoredAnswer } from '../../core/rows/records';
import type { RunStore } from '../../core/rows/runner';
import type { WorkbenchDb } from './db';

/** Stored answers for the given keys that parse (missing or unreadable ones are left out). */
export async function findStoredAnswers(
  db: WorkbenchDb,
  keys: readonly string[],
): Promise<Map<string, StoredAnswer>> {
  const found = await db.rowAnswers.bulkGet([...new Set(keys)]);
  const out = new Map<string, StoredAnswer>();
  for (const raw of found) {
    const parsed = StoredAnswerSchema.safeParse(raw);
    if (raw !== undefined && parsed.success) out.set(parsed.data.key, parsed.data);
  }
  return out;
}

/**
 * The runner's store for a check. Answers are saved for reuse; a save that fails is reported through `onSaveError`
 * and the check goes on (the answer is still in the report), since nothing of a check needs resuming.
 */
export function robustnessRunStore(
  db: WorkbenchDb,
  options: { seeds?: ReadonlyMap<string, StoredAnswer>; onSaveError?: (error: unknown) => void } = {},
): RunStore {
  return {
    saveOutcome: async () => undefined,
    saveReused: async () => undefined,
    async saveAnswered(_number, _outcome, answer) {
      try {
        const parsed = StoredAnswerSchema.parse(answer);
        await Dexie.ignoreTransaction(() => db.rowAnswers.put(parsed));
      } catch (error) {
        options.onSaveError?.(error);
      }
    },
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
  };
}
