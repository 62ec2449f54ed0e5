// The order a question's rows are labelled in, as a run stores it (core/alignment/labelOrder.ts plans and reads it):
// the file's, a seeded random one, or active with its target, label budget, uniform floor and seed.
import { z } from 'zod';

/** What an active order estimates: the share of one label (choice, yes/no), the mean level (score), or agreement. */
export const ActiveTargetSchema = z.union([
  z.object({ kind: z.literal('share'), level: z.string() }),
  z.object({ kind: z.literal('mean') }),
  z.object({ kind: z.literal('agreement') }),
]);
export type ActiveTarget = z.infer<typeof ActiveTargetSchema>;

export const LabelOrderSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file') }),
  z.object({ kind: z.literal('random'), seed: z.number().int() }),
  z.object({
    kind: z.literal('active'),
    target: ActiveTargetSchema,
    budget: z.number().int().positive(),
    floor: z.number().gt(0).max(1),
    seed: z.number().int(),
  }),
]);
export type LabelOrder = z.infer<typeof LabelOrderSchema>;
