// Small sentence helpers every floor shares: a count with its noun, a thrown value as words.

/** "1 row", "2 rows". */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What a thrown value says: an Error's message, anything else as text. */
export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** errorText without a closing period, for a clause inside a longer sentence. */
export const errorClause = (error: unknown): string => errorText(error).replace(/\.$/, '');
