// One report per HTTP attempt, so the UI can show retries, delays and request ids as they happen.
import type { AttemptReport } from '../contract/evaluateCall';

export type { AttemptOutcome, AttemptReport } from '../contract/evaluateCall';

/** How many attempts may have been billed without an answer (the caller cannot know; it must not act on them). */
export const countPossiblyBilled = (attempts: readonly AttemptReport[]): number =>
  attempts.filter((a) => a.possiblyBilled === true).length;
