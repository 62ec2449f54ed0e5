// Saving a session that another tab may have saved meanwhile: a revision check, a three-way merge of the fields each
// side changed, and a conflict copy when both changed the same field, so no acknowledged write is ever lost.
import { recordVariant } from './alignment/ledger';
import type { Session } from './session';

/**
 * The fields merged one by one: every field of the record and of its `doc`, but for the record's identity and clock
 * (`runs` is merged apart: a union, runs are immutable and only ever added). Named by their key; a field added to
 * the record later (a check's report, labels) is merged by the same rule without a change here.
 */
export type MergedField = string;
const NOT_MERGED: ReadonlySet<string> = new Set([
  'schemaVersion',
  'id',
  'createdAt',
  'updatedAt',
  'runs',
  'revision',
  'doc',
  'ledger',
]);

/** What a tab's unsaved content was made from: the stored record it last loaded or wrote, and that record's revision. */
export interface SaveBase {
  session: Session;
  /** The stored revision this content derives from; -1 forces a merge (content made from a record never stored). */
  revision: number;
}

/** The outcome of a save: the record to store, and when both sides changed a field, the other side as a copy. */
export interface SaveResolution {
  record: Session;
  /** True when the stored record had moved on and was merged rather than replaced. */
  merged: boolean;
  /** Fields changed on both sides to different values: this save's value is kept, the stored one goes to `copy`. */
  conflicts: MergedField[];
  copy?: Session;
}

const revisionOf = (s: Session | undefined): number => s?.revision ?? 0;

const NO_BASE = Symbol('no base');

const same = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/** The union of two run lists by id, in the stored order then the new ones. Same array when nothing is new. */
export function unionRuns(stored: Session['runs'], mine: Session['runs']): Session['runs'] {
  if (stored === mine) return stored;
  const known = new Set(stored.map((r) => r.id));
  const added = mine.filter((r) => !known.has(r.id));
  return added.length === 0 ? stored : [...stored, ...added];
}

/**
 * The union of two ledgers: every variant either tab counted, and each labelled set's seal as the stored side drew it
 * (a seal is drawn once; a second one would let the sealed rows be chosen again).
 */
export function unionLedgers(stored: Session['ledger'], mine: Session['ledger']): Session['ledger'] {
  if (!stored || !mine || stored === mine) return stored ?? mine;
  let out = stored;
  for (const entry of mine.entries) out = recordVariant(out, entry);
  const sealed = new Set(out.seals.map((s) => s.setKey));
  const seals = mine.seals.filter((s) => !sealed.has(s.setKey));
  return seals.length === 0 ? out : { ...out, seals: [...out.seals, ...seals] };
}

/**
 * Three-way merge of one session: for each field, a side that left it as in `base` takes the other side's value; when
 * both changed it differently (or no base is known), `mine` wins and the field is reported as a conflict. Runs and the
 * variant ledger are the union of both.
 */
export function mergeSessions(
  base: Session | null,
  mine: Session,
  theirs: Session,
): { merged: Session; conflicts: MergedField[] } {
  const conflicts: MergedField[] = [];
  const pick = (field: string, m: unknown, t: unknown, b: unknown): unknown => {
    if (same(m, t)) return m;
    if (same(m, b)) return t;
    if (!same(t, b)) conflicts.push(field);
    return m;
  };
  // No common ancestor known: every difference is a conflict, so neither side is dropped.
  const baseOf = (record: Record<string, unknown> | undefined, key: string): unknown =>
    record ? record[key] : NO_BASE;
  const mergeRecord = (
    m: Record<string, unknown>,
    t: Record<string, unknown>,
    b: Record<string, unknown> | undefined,
    skip: ReadonlySet<string>,
  ): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(m), ...Object.keys(t), ...(b ? Object.keys(b) : [])])) {
      if (skip.has(key)) continue;
      const value = pick(key, m[key], t[key], baseOf(b, key));
      if (value !== undefined) out[key] = value;
    }
    return out;
  };
  const top = mergeRecord(
    mine as unknown as Record<string, unknown>,
    theirs as unknown as Record<string, unknown>,
    base as unknown as Record<string, unknown> | undefined,
    NOT_MERGED,
  );
  const doc = mergeRecord(
    mine.doc as unknown as Record<string, unknown>,
    theirs.doc as unknown as Record<string, unknown>,
    base?.doc as unknown as Record<string, unknown> | undefined,
    new Set(),
  );
  const ledger = unionLedgers(theirs.ledger, mine.ledger);
  const merged = {
    ...top,
    schemaVersion: mine.schemaVersion,
    id: mine.id,
    createdAt: theirs.createdAt,
    updatedAt: mine.updatedAt > theirs.updatedAt ? mine.updatedAt : theirs.updatedAt,
    doc,
    runs: unionRuns(theirs.runs, mine.runs),
    ...(ledger ? { ledger } : {}),
    ...(mine.revision !== undefined ? { revision: mine.revision } : {}),
  } as Session;
  return { merged, conflicts };
}

/** The name of a conflict copy: the other tab's version of a session, kept beside it. */
export const conflictCopyName = (name: string): string => `${name} (other tab's version)`;

/**
 * Decides what a save writes. Nothing stored (new, or purged): `mine` as revision 1. Stored at the revision `mine` was
 * made from: `mine`, one revision on. Stored at a newer revision (another tab saved): the three-way merge, one
 * revision on, and on a conflict a copy of the stored version under a new id, so both versions are kept.
 */
export function resolveSave(
  stored: Session | undefined,
  base: SaveBase | null,
  mine: Session,
  newId: () => string,
): SaveResolution {
  if (!stored) return { record: { ...mine, revision: 1 }, merged: false, conflicts: [] };
  const next = revisionOf(stored) + 1;
  if (base && base.revision === revisionOf(stored)) {
    return { record: { ...mine, revision: next }, merged: false, conflicts: [] };
  }
  const { merged, conflicts } = mergeSessions(base?.session ?? null, mine, stored);
  const record: Session = { ...merged, revision: next };
  if (conflicts.length === 0) return { record, merged: true, conflicts };
  const copy: Session = {
    ...stored,
    id: newId(),
    name: conflictCopyName(stored.name),
    runs: [],
    revision: 1,
  };
  return { record, merged: true, conflicts, copy };
}

/** One sentence about a conflict, for the tab that saved and the tab whose version went to the copy. */
export function describeConflict(name: string, conflicts: readonly MergedField[], copyName: string): string {
  const labels: Record<string, string> = {
    name: 'the name',
    stateMode: 'the state mode',
    stateText: 'the state',
    questionsText: 'the questions',
    targetId: 'the target',
    model: 'the model',
    compare: 'the comparison',
    robustness: 'the robustness check',
  };
  const what = conflicts.map((c) => labels[c] ?? `the field ${c}`);
  const list = what.length > 1 ? `${what.slice(0, -1).join(', ')} and ${what.at(-1)}` : what[0];
  return `“${name}” was also changed in another tab (${list}): this version is kept, and the other as “${copyName}”.`;
}
