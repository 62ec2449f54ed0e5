// Plain helpers of the sessions list: summaries and their order, what counts as a change, untitled names, search.
import type { Session, SessionDoc } from '../../../core/session';
import { matchPlace, matchesSession, queryTerms } from '../../../core/sessionSearch';
import type { SessionSummary } from './types';
export { errorText } from '../../../contract/text';

/** A storage that has not opened after this long is treated as refused: a few seconds, not a spinner forever. */
export const OPEN_TIMEOUT_MS = 4_000;

/** Rejects when `promise` has not settled within `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Deleted sessions stay recoverable this long; older ones are purged at the next start. */
export const DELETED_RETENTION_MS = 10 * 60_000;
export const OPEN_SESSION_KEY = 'openSessionId';

export const summaryOf = (s: Session): SessionSummary => ({
  id: s.id,
  name: s.name,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  runCount: s.runs.length,
  robustnessChecks: s.robustness ? 1 : 0,
  doc: s.doc,
});
export const newestFirst = (a: SessionSummary, b: SessionSummary): number =>
  a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id.localeCompare(b.id);

export const sameTaxonomy = (a: SessionDoc['taxonomy'], b: SessionDoc['taxonomy']): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.text === b.text &&
    a.format === b.format &&
    a.instructions === b.instructions);
export const sameDoc = (a: SessionDoc, b: SessionDoc): boolean =>
  a === b ||
  (a.stateMode === b.stateMode &&
    a.stateText === b.stateText &&
    a.questionsText === b.questionsText &&
    a.targetId === b.targetId &&
    a.model === b.model &&
    sameTaxonomy(a.taxonomy, b.taxonomy));
/**
 * The session's runs plus those the workbench recorded since: runs are immutable and only ever appended, so the union
 * by id, in order, loses none (the workbench keeps only its latest runs in memory). Same array when nothing is new.
 */
export function mergeRuns(saved: Session['runs'], onScreen: Session['runs']): Session['runs'] {
  if (saved === onScreen) return saved;
  const known = new Set(saved.map((r) => r.id));
  const added = onScreen.filter((r) => !known.has(r.id));
  return added.length === 0 ? saved : [...saved, ...added];
}

/** "Untitled session", or "Untitled session 2" when taken. */
export function untitledName(taken: readonly { name: string }[]): string {
  const names = new Set(taken.map((s) => s.name));
  if (!names.has('Untitled session')) return 'Untitled session';
  for (let n = 2; ; n++) if (!names.has(`Untitled session ${n}`)) return `Untitled session ${n}`;
}

/** The sidebar's entries for a query, and whether each matched by name or by content. */
export function visibleSessions(
  list: readonly SessionSummary[],
  query: string,
): { session: SessionSummary; matched: 'name' | 'content' }[] {
  const terms = queryTerms(query);
  return list
    .filter((s) => matchesSession(s, terms))
    .map((session) => ({ session, matched: terms.length === 0 ? 'name' : matchPlace(session, terms) }));
}
