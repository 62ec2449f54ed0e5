// Search over sessions: names and content (state, questions, target, model), every word must match.
import type { Session } from './session';

/** The fields a session is searched by; the sidebar keeps these in memory for every session. */
export type SearchableSession = Pick<Session, 'name' | 'doc'>;

const fold = (text: string): string => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** The words of a query, folded for matching (case and accents ignored). */
export const queryTerms = (query: string): string[] => fold(query).split(/\s+/).filter(Boolean);

/** True when every word of the query occurs in the session's name or content. An empty query matches everything. */
export function matchesSession(session: SearchableSession, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const { name, doc } = session;
  const haystack = fold(`${name}\n${doc.stateText}\n${doc.questionsText}\n${doc.targetId}\n${doc.model}`);
  return terms.every((term) => haystack.includes(term));
}

/** Where the query matched, for the sidebar: 'name' when the name matched every word, otherwise 'content'. */
export function matchPlace(session: SearchableSession, terms: readonly string[]): 'name' | 'content' {
  const name = fold(session.name);
  return terms.every((term) => name.includes(term)) ? 'name' : 'content';
}
