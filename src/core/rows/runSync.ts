// What tabs tell each other about runs of rows: one tab drives a run (it holds the run's lock), the others watch it
// live and may ask it to pause or cancel. Messages cross a boundary (another tab, maybe another build), so each one is
// parsed with these schemas and one that does not parse is ignored.
import { z } from 'zod';
import { EvaluateResponseSchema } from '../../contract';
import { HaltSchema, RowOutcomeSchema } from './records';

const count = z.number().min(0);
/** The progress a driving tab shows, as it sends it to watching tabs (RunProgress of the runner). */
export const RunProgressSchema = z.object({
  phase: z.enum(['idle', 'running', 'pausing', 'cancelling', 'halted', 'finished']),
  halt: HaltSchema.nullable(),
  total: count,
  done: count,
  reused: count,
  // Absent from a tab of an older build.
  reusedEarlier: count.default(0),
  partlyReused: count.default(0),
  invalid: count,
  failed: count,
  unknown: count,
  pending: count,
  inFlight: count,
  billedTokens: count,
  possiblyBilledTokens: count,
  cost: count,
  possiblyBilledCost: count,
  ratePerMinute: count,
  etaMs: count.nullable(),
  serviceWaitMs: count.nullable(),
});

/** One row's new outcome, with the answer when it has one. */
export const RowUpdateMessageSchema = z.object({
  number: z.number().int().min(1),
  outcome: RowOutcomeSchema,
  response: EvaluateResponseSchema.optional(),
});
export type RowUpdateMessage = z.infer<typeof RowUpdateMessageSchema>;

export const RunMessageSchema = z.discriminatedUnion('type', [
  /** A tab took a run's lock and is about to send. */
  z.object({ type: z.literal('started'), runId: z.string().min(1) }),
  /** The driver's progress and the rows that changed since its last message. */
  z.object({
    type: z.literal('progress'),
    runId: z.string().min(1),
    progress: RunProgressSchema,
    updates: z.array(RowUpdateMessageSchema),
  }),
  /** The driver stopped (finished, halted, paused) and let the lock go. */
  z.object({ type: z.literal('ended'), runId: z.string().min(1) }),
  /** A watching tab asks the driver to pause or cancel. */
  z.object({ type: z.literal('command'), runId: z.string().min(1), command: z.enum(['pause', 'cancel']) }),
  /** Runs were created or deleted: re-read the list. */
  z.object({ type: z.literal('listChanged') }),
]);
export type RunMessage = z.infer<typeof RunMessageSchema>;
