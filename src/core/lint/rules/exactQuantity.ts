// Questions that ask for exact quantities: the service's model is weak at numeric precision.
import type { LintRule, RuleHit } from '../types';
import { questionLoc } from '../util';
import { instructionTexts } from './fieldRefs';

// Phrases that ask for a count, an amount or a precise figure. Chosen to avoid ordinary rubric wording: "how much"
// alone ("how much does the customer care"), "precise" alone ("is the wording precise?") and "number of" alone
// ("a number of reasons") are left out.
const PHRASES: readonly RegExp[] = [
  /\bhow many\b/i,
  /\bhow much (?:money|cash|revenue|time)\b/i,
  /\bhow much\b[^.?!]*\b(?:cost|costs|paid|pay|owe|owed|spent|spend|charged|worth)\b/i,
  /\bexact(?:ly)?\s+(?:amount|number|count|figure|total|quantity|value|sum|price|date|time|percentage|how many|how much)\b/i,
  /\bprecise(?:ly)?\s+(?:amount|number|count|figure|total|quantity|value|sum|price|percentage|how many|how much)\b/i,
  /\bto the (?:cent|penny|dollar|decimal|nearest)\b/i,
  /\b(?:two|2|one|1|three|3) decimal(?: place)?s?\b/i,
  /\bcount (?:the|how|all|every|each)\b/i,
  /\b(?:calculate|compute)\b/i,
  /\b(?:total|sum) (?:amount|number|count|of)\b/i,
];

/** The first exact-quantity phrase in a text, as written, or null. */
export function exactQuantityPhrase(text: string): string | null {
  for (const phrase of PHRASES) {
    const match = phrase.exec(text);
    if (match) return match[0].length > 40 ? `${match[0].slice(0, 39)}…` : match[0];
  }
  return null;
}

export const exactQuantity: LintRule = {
  id: 'question/exact-quantity',
  severity: 'warning',
  title: 'A question about exact quantities',
  explanation:
    'The model is weak at numeric precision: ask a threshold ("more than 3 items?") or a range choice instead of an exact count or amount.',
  check({ questions }) {
    const hits: RuleHit[] = [];
    for (const q of questions) {
      for (const { text, path } of instructionTexts(q)) {
        const phrase = exactQuantityPhrase(text);
        if (!phrase) continue;
        hits.push({
          message: `"${q.name}" asks for an exact quantity ("${phrase}"); ask whether it passes a threshold, or choose among ranges.`,
          loc: questionLoc(q.name, ...path),
        });
        break; // one finding per question is enough to make the point
      }
    }
    return hits;
  },
};
