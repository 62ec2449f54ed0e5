// BM25 with the criteria texts as the collection and the state as the query, negation-aware.
import type { TextProfile } from './text';
import { CONCEPT, NEG } from './text';

/**
 * The criteria texts of one question, indexed for scoring: feature -> [document, signed weight] postings. A posting
 * under a feature's opposite polarity carries minus the negation penalty, so scoring needs one lookup per state term.
 */
export interface Collection {
  size: number;
  postings: Map<string, Array<readonly [number, number]>>;
}

export interface Bm25Settings {
  k1: number;
  b: number;
  k3: number;
  conceptWeight: number;
  negationPenalty: number;
}

/** The same feature with the other polarity: "refund" <-> "¬refund". */
export const flip = (term: string): string => (term.startsWith(NEG) ? term.slice(NEG.length) : NEG + term);
const isConcept = (term: string): boolean => term.startsWith(CONCEPT) || term.startsWith(NEG + CONCEPT);

/**
 * Indexes documents. Each posting holds idf * saturated, length-normalised term frequency, scaled down for concept
 * tags; a state term with the same polarity adds it, one with the opposite polarity ("no refund" against "refunds")
 * subtracts it times the negation penalty.
 */
export function buildCollection(docs: readonly TextProfile[], s: Bm25Settings): Collection {
  const n = docs.length;
  const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
  const df = new Map<string, number>();
  for (const doc of docs) for (const term of doc.terms.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const postings = new Map<string, Array<readonly [number, number]>>();
  const post = (term: string, doc: number, weight: number): void => {
    const list = postings.get(term);
    if (list) list.push([doc, weight]);
    else postings.set(term, [[doc, weight]]);
  };
  docs.forEach((doc, i) => {
    const norm = avgLength > 0 ? 1 - s.b + (s.b * doc.length) / avgLength : 1;
    for (const [term, tf] of doc.terms) {
      const d = df.get(term)!;
      // BM25's idf, in its non-negative form: a term in every document still counts a little.
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      const weight = ((idf * tf * (s.k1 + 1)) / (tf + s.k1 * norm)) * (isConcept(term) ? s.conceptWeight : 1);
      post(term, i, weight);
      if (s.negationPenalty) post(flip(term), i, -s.negationPenalty * weight);
    }
  });
  return { size: n, postings };
}

/**
 * Scores the state (query) against every document; repeated state terms saturate (BM25's k3). Walks whichever is
 * smaller, the state's terms or the collection's features: a long state against short criteria looks up only the
 * criteria's features.
 */
export function scoreQuery(
  collection: Collection,
  query: ReadonlyMap<string, number>,
  s: Pick<Bm25Settings, 'k3'>,
): Float64Array {
  const scores = new Float64Array(collection.size);
  const k3 = s.k3;
  const add = (count: number, list: ReadonlyArray<readonly [number, number]>): void => {
    const qw = ((k3 + 1) * count) / (k3 + count);
    for (const [doc, w] of list) scores[doc] = scores[doc]! + qw * w;
  };
  if (collection.postings.size < query.size) {
    for (const [term, list] of collection.postings) {
      const count = query.get(term);
      if (count !== undefined) add(count, list);
    }
  } else {
    for (const [term, count] of query) {
      const list = collection.postings.get(term);
      if (list) add(count, list);
    }
  }
  return scores;
}
