// What an active labelling order estimates (core/alignment/labelOrder.ts): the share of one label (a choice's label,
// or "yes"), a score's mean level, or the judge's agreement with people. Stored with a run's labelling order and sent
// with a workspace queue's, so it is one schema read by both.
import { z } from 'zod';

export const ActiveTargetSchema = z.union([
  z.object({ kind: z.literal('share'), level: z.string() }),
  z.object({ kind: z.literal('mean') }),
  z.object({ kind: z.literal('agreement') }),
]);
export type ActiveTarget = z.infer<typeof ActiveTargetSchema>;

/** The uniform share mixed into every row's probability, so no row's is near zero (Zrnic & Candès' τ). */
export const ACTIVE_FLOOR = 0.2;
