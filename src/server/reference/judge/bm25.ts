// BM25 with the criteria texts as the collection and the state as the query, negation-aware.
import type { TextProfile } from './text';
import { CONCEPT, NEG } from './text';

/** The criteria texts of one question, indexed: feature -> [document, BM25 weight] postings. */
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

/** Indexes documents: each posting holds idf * saturated, length-normalised term frequency. */
export function buildCollection(docs: readonly TextProfile[], s: Pick<Bm25Settings, 'k1' | 'b'>): Collection {
  const n = docs.length;
  const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, n);
  const df = new Map<string, number>();
  for (const doc of docs) for (const term of doc.terms.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const postings = new Map<string, Array<readonly [number, number]>>();
  docs.forEach((doc, i) => {
    const norm = avgLength > 0 ? 1 - s.b + (s.b * doc.length) / avgLength : 1;
    for (const [term, tf] of doc.terms) {
      const d = df.get(term)!;
      // BM25's idf, in its non-negative form: a term in every document still counts a little.
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      const weight = (idf * tf * (s.k1 + 1)) / (tf + s.k1 * norm);
      const list = postings.get(term) ?? [];
      list.push([i, weight]);
      postings.set(term, list);
    }
  });
  return { size: n, postings };
}

/** The same feature with the other polarity: "refund" <-> "¬refund". */
const flip = (term: string): string => (term.startsWith(NEG) ? term.slice(NEG.length) : NEG + term);

/**
 * Scores the query against every document. A query term that matches with the same polarity adds; with the opposite
 * polarity ("no refund" against "refunds") it subtracts, scaled by the negation penalty. Concept tags count less.
 */
export function scoreQuery(
  collection: Collection,
  query: ReadonlyMap<string, number>,
  s: Bm25Settings,
): Float64Array {
  const scores = new Float64Array(collection.size);
  for (const [term, count] of query) {
    const same = collection.postings.get(term);
    const opposite = collection.postings.get(flip(term));
    if (!same && !opposite) continue;
    const isConcept = term.startsWith(CONCEPT) || term.startsWith(NEG + CONCEPT);
    const qw = (((s.k3 + 1) * count) / (s.k3 + count)) * (isConcept ? s.conceptWeight : 1);
    if (same) for (const [doc, w] of same) scores[doc]! += qw * w;
    if (opposite) for (const [doc, w] of opposite) scores[doc]! -= s.negationPenalty * qw * w;
  }
  return scores;
}
