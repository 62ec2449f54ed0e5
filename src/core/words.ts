// Small helpers for the sentences the app, the command line and the reports write: one of each, here.

/** "1 row", "2 rows": a count and its noun, with an "s" unless the count is one. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
