// Saving a session that another tab may have saved meanwhile: a revision check, a three-way merge of the fields each
// side changed, and a conflict copy when both changed the same field, so no acknowledged write is ever lost.
import type { Session } from './session';

/** The fields merged one by one; `runs` is merged apart (a union: runs are immutable and only ever added). */
export const MERGED_FIELDS = [
  'name',
  'stateMode',
  'stateText',
  'questionsText',
  'targetId',
  'model',
  'compare',
] as const;
export type MergedField = (typeof MERGED_FIELDS)[number];

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

const fieldOf = (s: Session, field: MergedField): unknown => {
  switch (field) {
    case 'name':
      return s.name;
    case 'compare':
      return s.compare;
    default:
      return s.doc[field];
  }
};

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
 * Three-way merge of one session: for each field, a side that left it as in `base` takes the other side's value; when
 * both changed it differently (or no base is known), `mine` wins and the field is reported as a conflict. Runs are the
 * union of both.
 */
export function mergeSessions(
  base: Session | null,
  mine: Session,
  theirs: Session,
): { merged: Session; conflicts: MergedField[] } {
  const conflicts: MergedField[] = [];
  const pick = (field: MergedField): unknown => {
    const m = fieldOf(mine, field);
    const t = fieldOf(theirs, field);
    if (same(m, t)) return m;
    // No common ancestor known: every difference is a conflict, so neither side is dropped.
    const b = base ? fieldOf(base, field) : NO_BASE;
    if (same(m, b)) return t;
    if (!same(t, b)) conflicts.push(field);
    return m;
  };
  const compare = pick('compare') as Session['compare'];
  const { compare: _dropped, ...rest } = mine;
  const merged: Session = {
    ...rest,
    name: pick('name') as string,
    createdAt: theirs.createdAt,
    updatedAt: mine.updatedAt > theirs.updatedAt ? mine.updatedAt : theirs.updatedAt,
    doc: {
      stateMode: pick('stateMode') as Session['doc']['stateMode'],
      stateText: pick('stateText') as string,
      questionsText: pick('questionsText') as string,
      targetId: pick('targetId') as string,
      model: pick('model') as string,
    },
    runs: unionRuns(theirs.runs, mine.runs),
    ...(compare ? { compare } : {}),
  };
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
  const labels: Record<MergedField, string> = {
    name: 'the name',
    stateMode: 'the state mode',
    stateText: 'the state',
    questionsText: 'the questions',
    targetId: 'the target',
    model: 'the model',
    compare: 'the comparison',
  };
  const what = conflicts.map((c) => labels[c]);
  const list = what.length > 1 ? `${what.slice(0, -1).join(', ')} and ${what.at(-1)}` : what[0];
  return `“${name}” was also changed in another tab (${list}): this version is kept, and the other as “${copyName}”.`;
}
