// What takes the space: the largest stored sessions and runs of rows, so a person with a full store knows what to delete.
import type { WorkbenchDb } from './db';
import { readRow } from './sessionRows';

/** A stored record and about how much space deleting it frees. */
export interface SpaceUse {
  kind: 'session' | 'rows';
  id: string;
  name: string;
  bytes: number;
}

/** About the bytes a record takes: its JSON length in UTF-16 code units, as browsers roughly store strings. */
const sizeOf = (value: unknown): number => {
  try {
    return JSON.stringify(value).length * 2;
  } catch {
    return 0;
  }
};

/** The largest stored sessions and runs of rows, biggest first, with their approximate size: what to delete for space. */
export async function largestRecords(db: WorkbenchDb, limit = 3): Promise<SpaceUse[]> {
  const uses: SpaceUse[] = [];
  await db.sessions.each((raw: unknown) => {
    const read = readRow(raw);
    if (read.ok && read.deletedAt === undefined)
      uses.push({ kind: 'session', id: read.session.id, name: read.session.name, bytes: sizeOf(raw) });
  });
  const runBytes = new Map<string, number>();
  const addRunBytes = (record: { runId?: unknown }): void => {
    if (typeof record.runId === 'string')
      runBytes.set(record.runId, (runBytes.get(record.runId) ?? 0) + sizeOf(record));
  };
  await db.rowItems.each(addRunBytes);
  await db.rowReuses.each(addRunBytes);
  await db.rowRuns.each((run: { id?: unknown; fileName?: unknown }) => {
    if (typeof run.id !== 'string') return;
    const name = typeof run.fileName === 'string' ? run.fileName : run.id;
    uses.push({ kind: 'rows', id: run.id, name, bytes: sizeOf(run) + (runBytes.get(run.id) ?? 0) });
  });
  return uses.sort((a, b) => b.bytes - a.bytes).slice(0, limit);
}
