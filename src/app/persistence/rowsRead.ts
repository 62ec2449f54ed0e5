// A run's rows read back: every row parsed (one that does not parse is reported, never dropped), the outcomes of its
// reused chunks read over the rows' own, and the count of settled rows without parsing any.
import type { z } from 'zod';
import { ReusedChunkSchema, RowItemSchema } from '../../core/rows/records';
import type { RowItem, RowOutcome } from '../../core/rows/records';
import type { WorkbenchDb } from './db';

/** Outcomes that are final: the row was answered (billed, or reused for free) and is never written again. */
export const ANSWERED: ReadonlySet<RowOutcome['status']> = new Set(['done', 'reused']);
/** Rows parsed between two pauses when a run is read back. */
const PARSE_CHUNK = 5000;

/** What loading a run's rows found: the rows that parse and the row numbers that do not. */
export interface LoadedItems {
  items: RowItem[];
  unreadable: number[];
}

/** The first problem of a record that does not parse, as a clause. */
export const issueText = (error: z.ZodError): string => {
  const first = error.issues[0];
  return first ? `${first.path.join('.') || 'record'}: ${first.message}` : 'unreadable record';
};

/**
 * A run's rows in file order, each parsed, with the outcomes of its reused chunks read over the rows' own (an
 * answered outcome is final: the row's own wins if it is answered too). The parse pauses every few thousand rows so
 * the page stays responsive. A chunk record that does not parse is reported as row -1; its rows read as they were
 * before it (not answered), so they are looked up and reused again, never billed.
 */
export async function loadItems(db: WorkbenchDb, runId: string): Promise<LoadedItems> {
  const [raw, chunks] = await Promise.all([
    db.rowItems.where('runId').equals(runId).toArray(),
    reusedOutcomes(db, runId),
  ]);
  const items: RowItem[] = [];
  const unreadable: number[] = [...chunks.unreadable];
  for (let i = 0; i < raw.length; i++) {
    if (i > 0 && i % PARSE_CHUNK === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    const r = raw[i];
    const parsed = RowItemSchema.safeParse(r);
    if (parsed.success) {
      const reused = chunks.outcomes.get(parsed.data.number);
      const own = parsed.data.outcome?.status;
      items.push(reused && !(own && ANSWERED.has(own)) ? { ...parsed.data, outcome: reused } : parsed.data);
    } else {
      const n = (r as { number?: unknown } | undefined)?.number;
      unreadable.push(typeof n === 'number' ? n : -1);
    }
  }
  items.sort((a, b) => a.number - b.number);
  return { items, unreadable };
}

/** The outcomes in a run's reused-chunk records, by row number; -1 for each record that does not parse. */
async function reusedOutcomes(
  db: WorkbenchDb,
  runId: string,
): Promise<{ outcomes: Map<number, RowOutcome>; unreadable: number[] }> {
  const outcomes = new Map<number, RowOutcome>();
  const unreadable: number[] = [];
  for (const raw of await db.rowReuses.where('runId').equals(runId).toArray()) {
    const parsed = ReusedChunkSchema.safeParse(raw);
    if (!parsed.success) unreadable.push(-1);
    else for (const row of parsed.data.rows) outcomes.set(row.number, row.outcome);
  }
  return { outcomes, unreadable };
}

/**
 * How many of a run's rows are settled (no longer waiting to be sent), counted without parsing every row: those
 * with an outcome of their own past pending, and those in a reused chunk.
 */
export async function countSettled(db: WorkbenchDb, runId: string): Promise<number> {
  const reused = new Set<number>();
  await db.rowReuses
    .where('runId')
    .equals(runId)
    .each((chunk: { rows?: unknown }) => {
      if (!Array.isArray(chunk.rows)) return;
      for (const row of chunk.rows as Array<{ number?: unknown }>)
        if (typeof row.number === 'number') reused.add(row.number);
    });
  let settled = 0;
  await db.rowItems
    .where('runId')
    .equals(runId)
    .each((item: { number?: unknown; outcome?: { status?: unknown } }) => {
      const status = item.outcome?.status;
      if ((typeof status === 'string' && status !== 'pending') || reused.has(item.number as number))
        settled += 1;
    });
  return settled;
}
