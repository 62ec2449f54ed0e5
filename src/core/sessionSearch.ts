// Search over sessions: names and content (state, questions, target, model), every word must match.
import type { Session } from './session';

/** The fields a session is searched by; the sidebar keeps these in memory for every session. */
export type SearchableSession = Pick<Session, 'name' | 'doc'>;

const fold = (text: string): string => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** The words of a query, folded for matching (case and accents ignored). */
export const queryTerms = (query: string): string[] => fold(query).split(/\s+/).filter(Boolean);

// Folded text per session object: records are immutable, so a changed session is a new object and misses the cache.
// Saves re-folding every session's (possibly long) content on each keystroke in the search box.
const folded = new WeakMap<SearchableSession, string>();

/** True when every word of the query occurs in the session's name or content. An empty query matches everything. */
export function matchesSession(session: SearchableSession, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  let haystack = folded.get(session);
  if (haystack === undefined) {
    const { name, doc } = session;
    haystack = fold(`${name}\n${doc.stateText}\n${doc.questionsText}\n${doc.targetId}\n${doc.model}`);
    folded.set(session, haystack);
  }
  return terms.every((term) => haystack.includes(term));
}

/** Where the query matched, for the sidebar: 'name' when the name matched every word, otherwise 'content'. */
export function matchPlace(session: SearchableSession, terms: readonly string[]): 'name' | 'content' {
  const name = fold(session.name);
  return terms.every((term) => name.includes(term)) ? 'name' : 'content';
}
