// Stored answers by dedup key, the store every run shares: read whole by key, or by the questions they answer.
import Dexie from 'dexie';
import { StoredAnswerSchema } from '../../core/rows/records';
import type { StoredAnswer } from '../../core/rows/records';
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
 * Stored answers that answer these questions' keys, by question key: those asked with other questions through the
 * `questionKeys` index, and one-question answers, whose own key is the question's, by key; both reads at once.
 */
export async function findQuestionAnswers(
  db: WorkbenchDb,
  keys: readonly string[],
): Promise<Map<string, StoredAnswer>> {
  const unique = [...new Set(keys)];
  const [alone, asked] = await Promise.all([
    findStoredAnswers(db, unique),
    // One index read per key, all issued at once in one transaction (IndexedDB pipelines them); `anyOf` walks a cursor
    // key after key instead, a round trip each, which held Chromium for minutes over 100,000 rows.
    Dexie.ignoreTransaction(() =>
      db.transaction('r', db.rowAnswers, () =>
        Promise.all(unique.map((key) => db.rowAnswers.where('questionKeys').equals(key).first())),
      ),
    ),
  ]);
  const out = new Map(alone);
  asked.forEach((raw, i) => {
    const key = unique[i]!;
    const parsed = StoredAnswerSchema.safeParse(raw);
    if (raw !== undefined && parsed.success && !out.has(key) && parsed.data.questionKeys?.includes(key))
      out.set(key, parsed.data);
  });
  return out;
}
