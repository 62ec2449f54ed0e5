// Small helpers for the sentences the app, the command line and the reports write: one of each, here.

/** "1 row", "2 rows": a count and its noun (the contract's, so the client shares it). */
export { plural } from '../contract/text';

/** A question type as people read it: the wire's "noul" is a yes/no question everywhere but in the JSON. */
export const TYPE_WORD = { choice: 'choice', score: 'score', noul: 'yes/no' } as const;

/** The type's word, or the text as it is when it is not a question type ("models", an unknown type). */
export const typeWord = (type: string): string =>
  type in TYPE_WORD ? TYPE_WORD[type as keyof typeof TYPE_WORD] : type;

/**
 * Said beside every cost on the local reference: its figures are the hosted service's list price for the same tokens
 * (what the request would cost there), and nothing is billed. One phrase, so every screen tells the same story.
 */
export const LOCAL_COST_WORDS = 'hosted list price; nothing billed here';
