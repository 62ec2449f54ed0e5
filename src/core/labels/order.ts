// The order a question's rows are labelled in, as a run stores it (core/alignment/labelOrder.ts plans and reads it):
// the file's, a seeded random one, or active with its target, label budget, uniform floor and seed.
import { z } from 'zod';
import { ActiveTargetSchema } from '../../contract/activeTarget';

export { ActiveTargetSchema } from '../../contract/activeTarget';
export type { ActiveTarget } from '../../contract/activeTarget';

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
